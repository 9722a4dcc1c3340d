package store

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// A new generation's side file replaces the old one; Remove drops them all.
func TestVectorFileGenerations(t *testing.T) {
	db, path := openTemp(t)
	p, err := db.EnsureProject(context.Background(), "/project")
	if err != nil {
		t.Fatal(err)
	}
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	p.Model = "m"
	if err := db.WriteSideFile(p, SideVectors, write("gen one")); err != nil {
		t.Fatal(err)
	}
	old := db.SideFilePath(p, SideVectors)
	// Files of the kinds the vectors' kind replaced (older layouts).
	var retired []string
	for _, kind := range retiredKinds[SideVectors] {
		r := strings.TrimSuffix(old, "."+SideVectors) + "." + kind
		if err := os.WriteFile(r, []byte("old layout"), 0o600); err != nil {
			t.Fatal(err)
		}
		retired = append(retired, r)
	}
	// A file derived from the vectors' file (the file layer) of the old
	// generation goes with it.
	if err := db.WriteSideFile(p, SideLayer, write("layer one")); err != nil {
		t.Fatal(err)
	}
	derived := db.SideFilePath(p, SideLayer)
	p.Generation++
	if _, err := db.OpenSideFile(p, SideVectors); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a newer generation opened %v", err)
	}
	if err := db.WriteSideFile(p, SideVectors, write("gen two")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the older generation's file is still there: %v", err)
	}
	for _, r := range append(retired, derived) {
		if _, err := os.Stat(r); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the retired kind's file %s is still there: %v", r, err)
		}
	}
	f, err := db.OpenSideFile(p, SideVectors)
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Data) != "gen two" {
		t.Fatalf("mapped %q", f.Data)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".vectors"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Remove left the vector files: %v", err)
	}
}

// A run that wrote nothing keeps the generation (so side files and caches
// stay valid); a write or a model change moves it.
func TestFinishRunGeneration(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/project")
	if err != nil {
		t.Fatal(err)
	}
	gen := func() int64 {
		t.Helper()
		q, err := db.Project(ctx, "/project")
		if err != nil {
			t.Fatal(err)
		}
		return q.Generation
	}
	steps := []struct {
		name  string
		write bool
		model string
		moves bool
	}{
		{"first run, new model", false, "m1", true},
		{"no change", false, "m1", false},
		{"a write", true, "m1", true},
		{"no change again", false, "m1", false},
		{"model change", false, "m2", true},
	}
	for _, s := range steps {
		before := gen()
		if s.write {
			if _, err := db.WriteBatch(ctx, p.ID, s.model, Batch{Files: []FileRecord{record("a.go", "f")}}); err != nil {
				t.Fatal(err)
			}
			before = gen() // FinishRun moves it again: the run wrote
		}
		if err := db.FinishRun(ctx, p.ID, s.model); err != nil {
			t.Fatal(err)
		}
		if moved := gen() != before; moved != s.moves {
			t.Fatalf("%s: generation moved=%v, want %v", s.name, moved, s.moves)
		}
	}
}
