package codectx

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestSearchUnindexedProject(t *testing.T) {
	dir := t.TempDir()
	p, err := Open(dir, Options{DBPath: filepath.Join(t.TempDir(), "index.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.Search(context.Background(), SearchOptions{Query: "anything"})
	if !errors.Is(err, ErrNotIndexed) {
		t.Fatalf("got %v, want ErrNotIndexed", err)
	}
	_, err = p.Search(context.Background(), SearchOptions{Query: "   "})
	if !errors.Is(err, ErrEmptyQuery) {
		t.Fatalf("blank query: got %v, want ErrEmptyQuery", err)
	}
}
