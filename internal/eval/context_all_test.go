package eval

import (
	"reflect"
	"testing"
)

// TestJudgeContextAllTargets: beside "a target inside", a task counts how
// many of its targets are inside, each at its own level.
func TestJudgeContextAllTargets(t *testing.T) {
	task := Task{ID: "t", Targets: []Target{{File: "a.go", Symbol: "T.M"}, {File: "b.go", Symbol: "caller"}, {File: "c.go"}}}
	cases := []struct {
		chunks    []ContextChunk
		in        int
		found     bool
		all, part float64
		missed    []string
	}{
		{nil, 0, false, 0, 0, []string{"a.go:T.M", "b.go:caller", "c.go"}},
		{[]ContextChunk{{File: "a.go", Name: "T.M(x int)"}}, 1, true, 0, 1.0 / 3, []string{"b.go:caller", "c.go"}},
		{[]ContextChunk{{File: "a.go", Name: "T.M"}, {File: "b.go", Name: "other"}, {File: "c.go", Name: "x"}}, 2, true, 0, 2.0 / 3, []string{"b.go:caller"}},
		{[]ContextChunk{{File: "a.go", Name: "T.M"}, {File: "b.go", Name: "caller()"}, {File: "c.go", Name: "x"}}, 3, true, 1, 1, nil},
	}
	for i, c := range cases {
		o := JudgeContext(task, Assembled{Chunks: c.chunks})
		if o.TargetsIn != c.in || o.Targets != 3 || o.Found != c.found || !reflect.DeepEqual(o.Missed, c.missed) {
			t.Errorf("case %d: %+v", i, o)
		}
		r := SummarizeContext([]Task{task}, []ContextTask{o})
		if r.Overall.AllFound != c.all || r.Overall.MeanShare != c.part {
			t.Errorf("case %d: all %v share %v, want %v %v", i, r.Overall.AllFound, r.Overall.MeanShare, c.all, c.part)
		}
	}
}
