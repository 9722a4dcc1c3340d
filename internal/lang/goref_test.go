package lang

import (
	"slices"
	"testing"
)

// TestGoRefFacts: a function's uses of names as values are one FactRef,
// in source order and without repeats, and ParseGoRefs reads them back;
// calls, locals, keys, left sides and the file's own variables are not
// listed.
func TestGoRefFacts(t *testing.T) {
	src := `package p

import "sort"

type T struct{ f func() }

var top = 1

func (t *T) m() {}

func less(i, j int) bool { return false }

func use(t *T, xs []int) *T {
	sort.Slice(xs, less)
	sort.Slice(xs, less); run(less, less)
	local := less
	run(local, top, t.m, sort.Ints)
	less(1, 2)
	t.f = nil
	return &T{f: t.m}
}

func run(xs ...any) {}
`
	res := Parse("p.go", "go", []byte(src))
	var got []GoRef
	n := 0
	for _, f := range res.Facts {
		if f.Kind == FactRef {
			n++
			if f.Owner != "use" {
				t.Errorf("fact of %q", f.Owner)
			}
			got = ParseGoRefs(f.Sig, got)
		}
	}
	want := []GoRef{
		{14, "less", ""},
		{15, "less", ""},
		{16, "less", ""},
		{17, "m", "T"},
		{17, "Ints", "pkg:sort"},
		{20, "m", "T"},
	}
	if n != 1 || !slices.Equal(got, want) {
		t.Errorf("%d facts, uses %v, want %v", n, got, want)
	}
}
