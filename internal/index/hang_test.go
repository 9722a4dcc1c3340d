package index

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"codectx/internal/embed"
)

// TestHangingEmbeddingServer: a server that accepts requests and never
// answers. The configured request timeout fires, the run ends without the
// files that needed new vectors (they keep their previous rows), the index
// stays consistent and searchable, and the next run against a working
// server indexes them.
func TestHangingEmbeddingServer(t *testing.T) {
	fake := &fakeOllama{byModel: map[string]int{}}
	var hang atomic.Bool
	var hung atomic.Int32 // requests that got no answer
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			hung.Add(1)
			select { // blocks until the test ends
			case <-done:
			case <-r.Context().Done():
			}
			return
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // runs first: releases the blocked handlers

	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	ctx := context.Background()
	emb, err := embed.New(embed.Config{Provider: "ollama", Model: "m", BaseURL: srv.URL, BatchSize: 1,
		Timeout: 50 * time.Millisecond, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	first, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}

	writeFiles(t, root, map[string]string{
		"svc/service.go": repo["svc/service.go"] + "\n// Extra is new.\nfunc Extra() int { return 2 }\n",
		"svc/more.go":    "package svc\n\n// More is new.\nfunc More() int { return 3 }\n",
	})
	hang.Store(true)
	s, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if err != nil {
		t.Fatalf("a hanging embedding server must not fail the run: %v", err)
	}
	if s.Failed != 2 || s.Changed != 0 {
		t.Errorf("want the 2 changed files failed and nothing written: %+v", s)
	}
	for _, w := range s.Warnings {
		if !strings.Contains(w.Reason, "no response") {
			t.Errorf("warning does not say the server did not answer: %+v", w)
		}
	}
	// One request and its two retries; the other batches and files are not
	// sent to a service that does not answer.
	if n := hung.Load(); n > 3 {
		t.Errorf("%d requests sent to a service that does not answer, want at most 3", n)
	}
	assertConsistent(t, db)
	if n := loadMatrix(t, db, root, "ollama:m:latest"); n == nil || n.Len() != first.TotalChunks {
		t.Errorf("the index is no longer searchable after the hang: %v", n)
	}

	hang.Store(false)
	s, err = Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Changed != 2 || s.Failed != 0 {
		t.Errorf("the next run should index the 2 files the hang left: %+v", s)
	}
	assertConsistent(t, db)
}
