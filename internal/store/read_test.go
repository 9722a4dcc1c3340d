package store

import (
	"context"
	"testing"
	"unsafe"
)

func TestSuffixOf(t *testing.T) {
	for _, tc := range []struct {
		s, b   string
		shared bool // the result is the end of s, not a copy
	}{
		{"Server.Serve", "Serve", true},
		{"Serve", "Serve", true},
		{"pkg.T.M", "M", true},
		{"Server.Serve", "Server", false},
		{"A", "Longer", false},
		{"Ns::f", "f", true},
	} {
		got := suffixOf(tc.s, []byte(tc.b))
		if got != tc.b {
			t.Errorf("suffixOf(%q, %q) = %q", tc.s, tc.b, got)
		}
		end := unsafe.StringData(tc.s[len(tc.s)-min(len(tc.s), len(tc.b)):])
		if shared := unsafe.StringData(got) == end; shared != tc.shared {
			t.Errorf("suffixOf(%q, %q): shared = %v, want %v", tc.s, tc.b, shared, tc.shared)
		}
	}
}

// TestSymbolsShareRepeatedStrings: the rows of one file share their path
// (resolution holds every row at once), and the values are those stored.
func TestSymbolsShareRepeatedStrings(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "T.A1", "T.A2"), record("b.go", "B1")}}); err != nil {
		t.Fatal(err)
	}
	syms, err := db.Symbols(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ path, symbol, short, kind string }
	want := []row{{"a.go", "T.A1", "A1", "function"}, {"a.go", "T.A2", "A2", "function"}, {"b.go", "B1", "B1", "function"}}
	if len(syms) != len(want) {
		t.Fatalf("%d symbols, want %d: %+v", len(syms), len(want), syms)
	}
	for i, w := range want {
		s := syms[i]
		if got := (row{s.Path, s.Symbol, s.Short, s.Kind}); got != w {
			t.Errorf("row %d = %+v, want %+v", i, got, w)
		}
	}
	if unsafe.StringData(syms[0].Path) != unsafe.StringData(syms[1].Path) {
		t.Error("two rows of a.go hold two copies of the path")
	}
	if unsafe.StringData(syms[0].Kind) != unsafe.StringData(syms[2].Kind) {
		t.Error("two rows of one kind hold two copies of it")
	}
}
