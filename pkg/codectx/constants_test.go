package codectx

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"codectx/internal/assemble"
	"codectx/internal/eval"
	"codectx/internal/exact"
	"codectx/internal/graph"
	"codectx/internal/search"
)

// TestConstantsMatchInternal checks that the public constants, which are
// the API's own values, still name what the internal packages implement.
func TestConstantsMatchInternal(t *testing.T) {
	for _, c := range []struct {
		name     string
		pub, own any
	}{
		{"ModeHybrid", ModeHybrid, search.ModeHybrid},
		{"ModeKeyword", ModeKeyword, search.ModeKeyword},
		{"ModeSemantic", ModeSemantic, search.ModeSemantic},
		{"RankerDefault", RankerDefault, search.RankerDefault},
		{"RankerSeed", RankerSeed, search.RankerSeed},
		{"DefaultSearchK", DefaultSearchK, search.DefaultK},
		{"MaxSearchK", MaxSearchK, search.MaxK},
		{"DefaultGlobLimit", DefaultGlobLimit, exact.DefaultGlobLimit},
		{"DefaultGrepHeadLimit", DefaultGrepHeadLimit, exact.DefaultHeadLimit},
		{"DefaultGrepMaxResults", DefaultGrepMaxResults, exact.DefaultMaxResults},
		{"DefaultGrepMaxChars", DefaultGrepMaxChars, exact.DefaultMaxChars},
		{"DefaultReadLimit", DefaultReadLimit, exact.DefaultReadLimit},
		{"MaxReadLimit", MaxReadLimit, exact.MaxReadLimit},
		{"GraphFormatTree", GraphFormatTree, graph.FormatTree},
		{"GraphFormatMermaid", GraphFormatMermaid, graph.FormatMermaid},
		{"GraphFormatDOT", GraphFormatDOT, graph.FormatDOT},
		{"GraphFormatJSON", GraphFormatJSON, graph.FormatJSON},
		{"DirectionOut", DirectionOut, graph.DirOut},
		{"DirectionIn", DirectionIn, graph.DirIn},
		{"DirectionBoth", DirectionBoth, graph.DirBoth},
		{"GraphMaxNodes", GraphMaxNodes, graph.DefaultMaxNodes},
		{"DefaultContextBudget", DefaultContextBudget, assemble.DefaultBudget},
		{"PlaceElided", PlaceElided, assemble.PlaceElided},
		{"PlaceDropped", PlaceDropped, assemble.PlaceDropped},
	} {
		if c.pub != c.own {
			t.Errorf("%s = %v, the internal package's value is %v", c.name, c.pub, c.own)
		}
	}
	if !slices.Equal(GraphConfidences, graph.Confidences) {
		t.Errorf("GraphConfidences = %v, internal/graph accepts %v", GraphConfidences, graph.Confidences)
	}
}

// TestGoldenSetRoundTrip checks that a parsed set's public tasks convert
// back to exactly the tasks internal/eval parsed.
func TestGoldenSetRoundTrip(t *testing.T) {
	const src = `{"id": "a", "query": "retry a request", "lang": "en", "kind": "implementation", "targets": [{"file": "retry.go", "symbol": "shouldRetry"}, {"file": "b.go"}]}
{"id": "b", "query": "格式化", "lang": "zh", "kind": "location", "targets": [{"file": "cookie.go"}]}`
	set, err := ParseGoldenSet(strings.NewReader(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.Parse(strings.NewReader(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.evalTasks(); !reflect.DeepEqual(got, want.Tasks) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want.Tasks)
	}
}
