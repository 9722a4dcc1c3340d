package lang

import (
	"slices"
	"strings"
	"testing"
)

// TestGoGenericAndAliasFacts: type parameters of generic types, functions
// and of a method's receiver are not project types (a constraint's *T
// element is no embedded interface, a result of type T is no "@T"); an
// alias records the type it names; an external test package is recorded.
func TestGoGenericAndAliasFacts(t *testing.T) {
	src := []byte(`package p_test

import (
	"example.com/x/wire"
	. "example.com/x/dot"
)

type Ptr[T any] interface {
	*T
	Params
}

type Binder[T Handler, S any] interface {
	Bind(c *wire.Conn, s S) T
}

type Msg = wire.Message

type Box[T any] struct{ v T }

func (b *Box[T]) Get() T { return b.v }

func Map[K comparable, V any](m map[K]V) []V { return nil }
`)
	res := strictParse(t, "p/p_test.go", "go", src)
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type, f.Sig}, "|"))
	}
	for _, want := range []string{
		"package||p_test||",
		"import||.|example.com/x/dot|",
		"iembed|Ptr||Params|",
		"tparams|Ptr|T||",
		"tparams|Binder|T,S||",
		"imethod|Binder|Bind||(*example.com/x/wire#Conn,S)(T)",
		"field|Msg||example.com/x/wire#Message|alias:example.com/x/wire#Message",
		"result|Box|Get||()(T)",
	} {
		if !slices.Contains(facts, want) {
			t.Errorf("missing fact %q", want)
		}
	}
	for _, bad := range []string{"iembed|Ptr||T|"} {
		if slices.Contains(facts, bad) {
			t.Errorf("unexpected fact %q", bad)
		}
	}
	if t.Failed() {
		t.Logf("facts: %q", facts)
	}
	// a package named _test outside a _test.go file is an ordinary package
	res = strictParse(t, "p/gen.go", "go", []byte("package gen_test\n\nfunc F() {}\n"))
	for _, f := range res.Facts {
		if f.Kind == FactPackage {
			t.Errorf("external test package recorded for a file that is not a test: %+v", f)
		}
	}
}
