package search

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"testing"

	"codectx/internal/store"
)

func TestMetaRoundTrip(t *testing.T) {
	chunks := []store.ChunkMeta{
		{ID: 3, FileID: 1, Path: "a/b.go", Lang: "go", Kind: "function", Name: "f()", Symbol: "f", Short: "f", StartLine: 1, EndLine: 9},
		{ID: 4, FileID: 1, Path: "a/b.go", Lang: "go", Kind: "method", Name: "T.m()", Symbol: "T.m", Short: "m", Container: "T", StartLine: 10, EndLine: 12},
		{ID: 900, FileID: 2, Path: "数据/c.py", Lang: "python", Kind: "class", Name: "C", Symbol: "C", Short: "C", StartLine: 1, EndLine: 2},
	}
	files := map[int64]string{1: "aa11", 2: "bb22", 7: ""}
	for _, tc := range []struct {
		chunks []store.ChunkMeta
		files  map[int64]string
	}{{chunks, files}, {[]store.ChunkMeta{}, map[int64]string{}}} {
		var buf bytes.Buffer
		if err := encodeMeta(&buf, tc.chunks, tc.files); err != nil {
			t.Fatal(err)
		}
		gc, gf, err := decodeMeta(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gc, tc.chunks) || !reflect.DeepEqual(gf, tc.files) {
			t.Fatalf("round trip:\n%+v %v\n%+v %v", gc, gf, tc.chunks, tc.files)
		}
		if _, _, err := decodeMeta(buf.Bytes()[:buf.Len()-1]); err == nil && buf.Len() > len(metaMagic)+3 {
			t.Fatal("a truncated file decoded")
		}
	}
}

func FuzzDecodeMeta(f *testing.F) {
	var buf bytes.Buffer
	_ = encodeMeta(&buf, []store.ChunkMeta{{ID: 1, FileID: 1, Path: "x.go", Name: "x"}}, map[int64]string{1: "h"})
	f.Add(buf.Bytes())
	f.Add([]byte(metaMagic + "\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = decodeMeta(b)
	})
}

// A search in a new process reads the snapshot side file written by the
// previous one, and finds the same results.
func TestSnapshotFileUsed(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ctx := context.Background()
	opt := Options{Query: "gzip compression", K: 5}
	want, err := Search(ctx, ix, opt)
	if err != nil {
		t.Fatal(err)
	}
	path := ix.DB.SideFilePath(ix.Project, store.SideMeta)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no snapshot file after a search: %v", err)
	}
	// Rewrite the file with a chunk renamed: the next snapshot must show it.
	f, err := ix.DB.OpenSideFile(ix.Project, store.SideMeta)
	if err != nil {
		t.Fatal(err)
	}
	chunks, files, err := decodeMeta(f.Data)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	resetCache()
	got, err := Search(ctx, ix, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names(got), names(want)) {
		t.Fatalf("from the file %v, from the database %v", names(got), names(want))
	}
	chunks[0].Path = "renamed-in-file.go"
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := writeMeta(ctx, ix.DB, ix.Project, chunks, files); err != nil {
		t.Fatal(err)
	}
	resetCache()
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	if snap.chunks[0].Path != "renamed-in-file.go" {
		t.Fatalf("the snapshot was not read from the file: %q", snap.chunks[0].Path)
	}
}

// Keyword postings are kept per snapshot: a later query sharing a term
// reuses them (and gets the same ranking as a fresh snapshot).
func TestTermPostingsCached(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ctx := context.Background()
	opt := Options{Query: "gzip compression", K: 5, Mode: ModeKeyword}
	first, err := Search(ctx, ix, opt)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.terms) == 0 {
		t.Fatal("no postings cached after a keyword search")
	}
	again, err := Search(ctx, ix, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names(again), names(first)) {
		t.Fatalf("cached %v, fresh %v", names(again), names(first))
	}
	// Emptied postings must show: the cache, not FTS5, answered.
	snap.termMu.Lock()
	for k, v := range snap.terms {
		v.hits = nil
		snap.terms[k] = v
	}
	snap.termMu.Unlock()
	emptied, err := Search(ctx, ix, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(emptied.Results) != 0 {
		t.Fatalf("postings not read from the cache: %v", names(emptied))
	}
}
