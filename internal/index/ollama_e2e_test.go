package index

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"codectx/internal/embed"
)

// fakeOllama speaks POST /api/embed and remembers how many texts each model embedded.
type fakeOllama struct {
	mu       sync.Mutex
	byModel  map[string]int
	maxBatch int
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/embed" || r.Method != http.MethodPost {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.byModel[req.Model] += len(req.Input)
	f.maxBatch = max(f.maxBatch, len(req.Input))
	f.mu.Unlock()
	out := make([][]float32, len(req.Input))
	for i, t := range req.Input {
		v := make([]float32, 8)
		for j := 0; j < len(t); j++ {
			v[j%8] += float32(t[j]%17) + 1
		}
		out[i] = v
	}
	json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": out})
}

func TestOllamaEndToEndModelSwitch(t *testing.T) {
	fake := &fakeOllama{byModel: map[string]int{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()

	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	newEmb := func(model string) embed.Embedder {
		e, err := embed.New(embed.Config{Provider: "ollama", Model: model, BaseURL: srv.URL, BatchSize: 3, HTTPClient: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	s, err := Run(context.Background(), Options{Root: root, DB: db, Embedder: newEmb("m1"), Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Changed != len(repo) || s.Embedded == 0 || fake.byModel["m1:latest"] != s.Embedded {
		t.Fatalf("first run: %+v, server saw %v", s, fake.byModel)
	}
	if fake.maxBatch > 3 {
		t.Errorf("a request carried %d texts, batch size is 3", fake.maxBatch)
	}
	assertConsistent(t, db)

	s2, err := Run(context.Background(), Options{Root: root, DB: db, Embedder: newEmb("m2"), Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Changed != len(repo) || fake.byModel["m2:latest"] != s.Embedded {
		t.Fatalf("model switch: %+v, server saw %v (first run embedded %d)", s2, fake.byModel, s.Embedded)
	}
	var stale int
	db.SQL().QueryRow("SELECT count(*) FROM files WHERE model != 'ollama:m2:latest'").Scan(&stale)
	if stale != 0 {
		t.Errorf("%d files still carry the old model", stale)
	}
	assertConsistent(t, db)
}
