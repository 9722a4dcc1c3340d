package assemble

import (
	"fmt"
	"strings"
	"testing"

	"codectx/internal/store"
)

// spreadList is a ranked candidate list: n functions of big.go (the best
// ones), then one function of each of other files, ranked last.
func spreadList(n int, others ...string) []*cand {
	var list []*cand
	fn := func(id int64, path, name string, score float64) *cand {
		var b strings.Builder
		fmt.Fprintf(&b, "// %s does step %d of the job.\nfunc %s(x int) int {\n", name, id, name)
		for i := range 30 {
			fmt.Fprintf(&b, "\tx = x*%d + %d // keep the arithmetic going\n", i+3, i)
		}
		b.WriteString("\treturn x\n}")
		return &cand{c: store.GraphChunk{ID: id, Path: path, Lang: "go", Kind: "function", Name: name, Symbol: name, Short: name,
			StartLine: int(id) * 40, EndLine: int(id)*40 + 33, Content: b.String()}, score: score, reason: "seed"}
	}
	for i := range n {
		list = append(list, fn(int64(i+1), "big.go", fmt.Sprintf("step%02d", i), 1-0.01*float64(i)))
	}
	for i, f := range others {
		list = append(list, fn(int64(n+i+1), f, "other"+string(rune('A'+i)), 0.3-0.01*float64(i)))
	}
	return list
}

// A change request spends what whole chunks leave on more files: the
// best chunk of a file not yet inside is placed (elided) before further
// chunks of files already inside; other intents keep the score order.
func TestChangeRequestSpreadsOverFiles(t *testing.T) {
	for _, tc := range []struct {
		kind string
		want bool // other.go and third.go inside
	}{
		{IntentChange, true},
		{IntentImplementation, false},
	} {
		res := &ContextResult{Query: "q", Intent: Intent{Kind: tc.kind, Depth: 2}, Budget: 1200, Files: []ContextFile{}}
		if err := pack(res, spreadList(40, "other.go", "third.go"), nil); err != nil {
			t.Fatal(err)
		}
		if res.Tokens > res.Budget {
			t.Errorf("%s: %d tokens over the budget %d", tc.kind, res.Tokens, res.Budget)
		}
		in := map[string]int{}
		for _, c := range res.Chunks() {
			in[c.File]++
		}
		if got := in["other.go"] > 0 && in["third.go"] > 0; got != tc.want {
			t.Errorf("%s: files inside %v, want other.go and third.go inside: %v", tc.kind, in, tc.want)
		}
		if in["big.go"] < 3 {
			t.Errorf("%s: big.go has %d chunks inside, want its best ones", tc.kind, in["big.go"])
		}
		if tc.want && in["big.go"] >= 40 {
			t.Errorf("%s: every chunk fits; the budget does not test anything (%v)", tc.kind, in)
		}
	}
}
