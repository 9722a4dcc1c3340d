package codectx

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSearchCallers: a question for the callers of a function it names
// ("who calls X", "X 在哪里被调用") is answered with the chunks the
// relation graph says call X, ahead of X's own definition and of code that
// only talks about retrying.
func TestSearchCallers(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"retry.go": `package demo

import "errors"

var errTemporary = errors.New("temporary")

// shouldRetry reports whether a failed request may be retried: only
// temporary errors are retried, and never more than three times.
func shouldRetry(err error, attempt int) bool {
	return errors.Is(err, errTemporary) && attempt < 3
}
`,
		"client.go": `package demo

type Client struct{ send func() error }

// Do sends a request, once more after a temporary failure.
func (c *Client) Do() error {
	var err error
	for attempt := 0; ; attempt++ {
		if err = c.send(); err == nil || !shouldRetry(err, attempt) {
			return err
		}
	}
}
`,
		"pool.go": `package demo

type Pool struct{ dial func() error }

// get opens a connection for the pool.
func (p *Pool) get() error {
	err := p.dial()
	if err != nil && shouldRetry(err, 0) {
		err = p.dial()
	}
	return err
}
`,
		"policy.go": `package demo

// RetryPolicy documents when a request should retry: a retry is made
// after a temporary error; should the retry fail too, the retry count
// grows until the retry limit. Retry, retry, retry.
type RetryPolicy struct {
	// MaxRetry is the retry limit.
	MaxRetry int
}

// describeRetry says how retry works: should retry, retry again.
func describeRetry(p RetryPolicy) string {
	if p.MaxRetry > 0 {
		return "should retry up to the retry limit"
	}
	return "never retry"
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	p, err := Open(dir, Options{DBPath: filepath.Join(t.TempDir(), "index.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"who calls shouldRetry", "where is shouldRetry used", "shouldRetry 在哪里被调用"} {
		res, err := p.Search(ctx, SearchOptions{Query: q, K: 4})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Results {
			got = append(got, h.Symbol)
		}
		if len(got) < 2 || !isCaller(got[0]) || !isCaller(got[1]) {
			t.Errorf("%q: %q, want the callers Client.Do and Pool.get first (%v)", q, got, res.Results)
		}
	}
	// A question about what it does is answered by the function itself.
	res, err := p.Search(ctx, SearchOptions{Query: "how does shouldRetry decide whether a failed request is retried", K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].Symbol != "shouldRetry" {
		t.Errorf("a question about shouldRetry itself: %+v, want shouldRetry first", res.Results)
	}
}

func isCaller(symbol string) bool { return symbol == "Client.Do" || symbol == "Pool.get" }
