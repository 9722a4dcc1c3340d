package rewrite

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// chatServer answers /chat/completions with content, after delay.
func chatServer(t *testing.T, status int, content string, delay time.Duration, seen *map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat/completions" {
			http.NotFound(w, r)
			return
		}
		if seen != nil {
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			body["auth"] = r.Header.Get("Authorization")
			*seen = body
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRewrite(t *testing.T) {
	good := `{"identifiers": ["tryPutIdleConn", "Transport.CloseIdleConnections", "not an ident!"], "keywords": ["idle connection", "pool", "Keep-Alive"], "intent": "implementation"}`
	cases := []struct {
		name    string
		status  int
		content string
		delay   time.Duration
		wantErr string
		want    *Result
	}{
		{name: "good", status: 200, content: good, want: &Result{
			Identifiers: []string{"tryPutIdleConn", "Transport.CloseIdleConnections"},
			Keywords:    []string{"idle", "connection", "pool", "keep-alive"}, Intent: "implementation"}},
		{name: "fenced", status: 200, content: "```json\n" + good + "\n```", want: &Result{
			Identifiers: []string{"tryPutIdleConn", "Transport.CloseIdleConnections"},
			Keywords:    []string{"idle", "connection", "pool", "keep-alive"}, Intent: "implementation"}},
		{name: "prose", status: 200, content: "Sure! Here are identifiers: foo", wantErr: "not the expected JSON"},
		{name: "unknown field", status: 200, content: `{"identifiers":["a1"],"keywords":[],"intent":"usage","extra":1}`, wantErr: "not the expected JSON"},
		{name: "bad intent", status: 200, content: `{"identifiers":["a1"],"keywords":[],"intent":"why"}`, wantErr: "unknown intent"},
		{name: "empty", status: 200, content: `{"identifiers":[],"keywords":[],"intent":"usage"}`, wantErr: "no identifiers"},
		{name: "server error", status: 500, content: good, wantErr: "answered 500"},
		{name: "slow", status: 200, content: good, delay: 2 * time.Second, wantErr: "deadline"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var seen map[string]any
			srv := chatServer(t, tc.status, tc.content, tc.delay, &seen)
			cfg := Config{BaseURL: srv.URL, Model: "m", APIKey: "sk-secret", Timeout: 300 * time.Millisecond}
			got, err := Rewrite(context.Background(), cfg, "how are idle connections reused", []Example{{Query: "q", Good: []string{"A.b"}}})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error containing %q, got %v", tc.wantErr, err)
				}
				if strings.Contains(err.Error(), "sk-secret") {
					t.Fatal("api key leaked into the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got.Identifiers, ",") != strings.Join(tc.want.Identifiers, ",") ||
				strings.Join(got.Keywords, ",") != strings.Join(tc.want.Keywords, ",") || got.Intent != tc.want.Intent {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if seen["model"] != "m" || seen["auth"] != "Bearer sk-secret" {
				t.Errorf("request: %v", seen)
			}
			msgs, _ := seen["messages"].([]any)
			if len(msgs) != 2 || !strings.Contains(msgs[1].(map[string]any)["content"].(string), "Past judgements") {
				t.Errorf("examples not sent: %v", msgs)
			}
		})
	}
}

func TestRewriteNeedsModel(t *testing.T) {
	if _, err := Rewrite(context.Background(), Config{}, "q", nil); err == nil {
		t.Fatal("no error without a model")
	}
}
