package serve

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzParams: any request body gives parameters or a parameter error
// (400/413), never a panic or another kind of error.
func FuzzParams(f *testing.F) {
	for _, seed := range []string{`{"query":"a","top_k":3,"keywords":["x"]}`, `{"fixed":true}`, `[]`, `{"a":{"b":1}}`, `{"top_k":1e99}`, `null`, ``, `{"keywords":"one"}`} {
		f.Add(seed, "application/json")
	}
	f.Add("query=a&top_k=2", "application/x-www-form-urlencoded")
	f.Fuzz(func(t *testing.T, body, ctype string) {
		r := httptest.NewRequest("POST", "/api/search", strings.NewReader(body))
		r.Header.Set("Content-Type", ctype)
		p, err := readParams(r)
		if err != nil {
			var tl *tooLarge
			if !errors.Is(err, errBadParams) && !errors.As(err, &tl) {
				t.Fatalf("readParams: unexpected error kind %T: %v", err, err)
			}
			return
		}
		p.str("query")
		p.int("top_k")
		p.bool("fixed")
		p.list("keywords")
		if err := p.check(); err != nil && !errors.Is(err, errBadParams) {
			t.Fatalf("check: unexpected error kind %T: %v", err, err)
		}
	})
}
