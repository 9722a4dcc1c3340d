package eval

import (
	"context"
	"errors"
	"testing"
)

func TestInContext(t *testing.T) {
	task := Task{ID: "t", Targets: []Target{{File: "a/client.go", Symbol: "Client.do"}, {File: "b.go"}}}
	cases := []struct {
		chunks       []ContextChunk
		file, symbol bool
	}{
		{nil, false, false},
		{[]ContextChunk{{File: "a/client.go", Name: "Client.Do(req *Request)"}}, true, false},
		{[]ContextChunk{{File: "x.go", Name: "Client.do(req *Request)"}}, false, false},
		{[]ContextChunk{{File: "a/client.go", Name: "Client.do(req *Request)"}}, true, true},
		{[]ContextChunk{{File: "a/client.go", Name: "http.Client.do"}}, true, true},
		{[]ContextChunk{{File: "b.go", Name: "anything"}}, true, false},
	}
	for i, c := range cases {
		f, s := InContext(task, c.chunks)
		if f != c.file || s != c.symbol {
			t.Errorf("case %d: got file %v symbol %v, want %v %v", i, f, s, c.file, c.symbol)
		}
	}
}

func TestEvaluateContext(t *testing.T) {
	tasks := []Task{
		{ID: "1", Query: "q1", Lang: "en", Kind: "usage", Targets: []Target{{File: "a.go", Symbol: "F"}}},
		{ID: "2", Query: "q2", Lang: "zh", Kind: "implementation", Targets: []Target{{File: "b.go"}}},
		{ID: "3", Query: "q3", Lang: "en", Kind: "usage", Targets: []Target{{File: "c.go", Symbol: "G"}}},
	}
	got := map[string]Assembled{
		"q1": {Chunks: []ContextChunk{{File: "a.go", Name: "F()"}}, Tokens: 100},
		"q2": {Chunks: []ContextChunk{{File: "b.go", Name: "x"}}, Tokens: 200},
		"q3": {Chunks: []ContextChunk{{File: "c.go", Name: "H()"}}, Tokens: 300},
	}
	rep, err := EvaluateContext(context.Background(), tasks, func(_ context.Context, q string) (Assembled, error) { return got[q], nil })
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Overall
	if o.Tasks != 3 || o.Found != 2.0/3 || o.FileFound != 1 || o.SymbolTasks != 2 || o.SymbolFound != 0.5 || o.MeanTokens != 200 || o.MeanChunks != 1 {
		t.Errorf("overall = %+v", o)
	}
	if u := rep.ByKind["usage"]; u.Tasks != 2 || u.Found != 0.5 {
		t.Errorf("usage = %+v", u)
	}
	if z := rep.ByLang["zh"]; z.Tasks != 1 || z.Found != 1 {
		t.Errorf("zh = %+v", z)
	}
	boom := errors.New("boom")
	if _, err := EvaluateContext(context.Background(), tasks, func(context.Context, string) (Assembled, error) { return Assembled{}, boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}
