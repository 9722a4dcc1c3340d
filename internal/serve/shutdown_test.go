package serve

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
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
