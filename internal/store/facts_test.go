package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"codectx/internal/lang"
)

func TestTypeFactRecords(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	a, b := record("a.go", "A1"), record("b.go", "B1")
	a.Facts = []lang.Fact{
		{Kind: "field", Owner: "T", Name: "x", Type: "int"},
		{Kind: "method", Owner: "T", Name: "M", Type: "error", Sig: "func(int) error"},
		{Kind: "field", Owner: "T", Name: "y", Type: "int"},
	}
	b.Facts = []lang.Fact{{Kind: "imethod", Owner: "I", Name: "M", Sig: "func()"}}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{a, b, record("c.go", "C1")}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.TypeFacts(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := db.FilePathsOf(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range append(append([]lang.Fact{}, a.Facts...), b.Facts...) {
		want = append(want, f.Kind+" "+f.Owner+" "+f.Name+" "+f.Type+" "+f.Sig)
	}
	var have []string
	for i, f := range got {
		wantPath := "a.go"
		if i == 3 {
			wantPath = "b.go"
		}
		if paths[f.FileID] != wantPath {
			t.Errorf("fact %d in %s, want %s", i, paths[f.FileID], wantPath)
		}
		have = append(have, f.Kind+" "+f.Owner+" "+f.Name+" "+f.Type+" "+f.Sig)
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("facts:\n got %q\nwant %q", have, want)
	}
	// Rewriting a file replaces its facts; removing one drops them.
	a.Facts = a.Facts[:1]
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{a}, Removed: []string{"b.go"}}); err != nil {
		t.Fatal(err)
	}
	if got, err = db.TypeFacts(ctx, p.ID); err != nil || len(got) != 1 || got[0].Name != "x" {
		t.Errorf("after rewrite and removal: %+v, %v", got, err)
	}
	if _, err := db.sql.Exec("UPDATE typefacts_files SET data = x'0102'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.TypeFacts(ctx, p.ID); !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupt record: err %v, want ErrCorrupt", err)
	}
}

func FuzzDecodeFacts(f *testing.F) {
	f.Add(encodeFacts([]lang.Fact{{Kind: "field", Owner: "T", Name: "x", Type: "int"}, {Kind: "method", Owner: "T", Name: "M", Sig: "func()"}}))
	f.Add([]byte{recordFormat, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeFacts(b, 7, nil, nil)
		if err != nil {
			return
		}
		facts := make([]lang.Fact, len(got))
		for i, r := range got {
			if r.FileID != 7 {
				t.Fatalf("file id %d", r.FileID)
			}
			facts[i] = lang.Fact{Kind: r.Kind, Owner: r.Owner, Name: r.Name, Type: r.Type, Sig: r.Sig}
		}
		again, err := decodeFacts(encodeFacts(facts), 7, nil, nil)
		if err != nil || len(got) > 0 && !reflect.DeepEqual(again, got) {
			t.Fatalf("re-encoded facts: %v, %+v, want %+v", err, again, got)
		}
	})
}
