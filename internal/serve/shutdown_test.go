package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"codectx/pkg/codectx"
)

// TestGracefulShutdown: when the context ends (SIGINT/SIGTERM in the
// command), a request in flight still gets its whole answer and Serve
// returns without error.
func TestGracefulShutdown(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	s := &Server{opt: Options{Timeout: time.Minute}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		if r.Context().Err() != nil {
			http.Error(w, "cancelled", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "finished")
	})
	shutdown := make(chan struct{})
	s.onShutdown = func() { close(shutdown) }
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	type answer struct {
		status int
		body   string
		err    error
	}
	resc := make(chan answer, 1)
	go func() {
		res, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			resc <- answer{err: err}
			return
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		resc <- answer{res.StatusCode, string(b), err}
	}()
	<-started
	cancel() // the signal
	<-shutdown
	close(release)
	a := <-resc
	if a.err != nil || a.status != 200 || a.body != "finished" {
		t.Fatalf("in-flight request: %+v", a)
	}
	if err := <-errc; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Fatal("still accepting connections after shutdown")
	}
}

// TestErrorStatus: each kind of error gets its status and keeps its message.
func TestErrorStatus(t *testing.T) {
	s := &Server{opt: Options{Timeout: time.Second}, log: slog.New(slog.NewTextHandler(io.Discard, nil)), projects: []*project{{id: "shop"}}}
	tests := []struct {
		err    error
		status int
		msg    string
	}{
		{paramErrorf("parameter x must be an integer"), 400, "parameter x must be an integer"},
		{&tooLarge{limit: 10}, 413, "the request body is larger than 10 bytes"},
		{&unknownProject{key: "nope", s: s}, 404, `unknown project "nope" (served: shop)`},
		{&notIndexed{id: "shop", note: "indexing is at 40% (4/10 files)"}, 409, "project shop is not indexed yet: indexing is at 40% (4/10 files)"},
		{codectx.ErrModelMismatch, 409, codectx.ErrModelMismatch.Error()},
		{fmt.Errorf("search: %w", context.DeadlineExceeded), 504, "the request took longer than 1s"},
		{&codectx.SymbolNotFoundError{Name: "Foo", Suggestions: []string{"Food"}}, 404, `no symbol named "Foo" in the index; closest: Food`},
		{codectx.ErrEmptyQuery, 400, "empty query"},
		{errors.New("database is locked"), 500, "database is locked"},
	}
	for _, tc := range tests {
		w := httptest.NewRecorder()
		s.fail(w, tc.err)
		var body apiError
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if w.Code != tc.status || body.Status != tc.status || body.Error != tc.msg {
			t.Errorf("%v: %d %+v, want %d %q", tc.err, w.Code, body, tc.status, tc.msg)
		}
	}
}
