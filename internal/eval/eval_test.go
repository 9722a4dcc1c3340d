package eval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tiny = `{"root": "$BASE/src", "note": "tiny"}
{"id": "t1", "query": "open a file", "lang": "en", "kind": "implementation", "targets": [{"file": "a.go", "symbol": "Open"}]}
{"id": "t2", "query": "关闭连接", "lang": "zh", "kind": "implementation", "targets": [{"file": "b.go", "symbol": "Conn.Close"}, {"file": "c.go", "symbol": "closeConn"}]}

{"id": "t3", "query": "who calls Parse", "lang": "en", "kind": "usage", "targets": [{"file": "d.go", "symbol": "run"}]}
{"id": "t4", "query": "config file", "lang": "mixed", "kind": "location", "targets": [{"file": "e.go"}]}
`

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestParse(t *testing.T) {
	s, err := Parse(strings.NewReader(tiny), func(k string) string {
		if k == "BASE" {
			return "/x"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Root != "/x/src" || s.Note != "tiny" || len(s.Tasks) != 4 {
		t.Fatalf("got root %q note %q tasks %d", s.Root, s.Note, len(s.Tasks))
	}
	if s.Tasks[1].Targets[1].Symbol != "closeConn" {
		t.Fatalf("targets: %+v", s.Tasks[1].Targets)
	}
}

func TestParseErrors(t *testing.T) {
	for name, in := range map[string]string{
		"empty":     "",
		"badjson":   `{"id": "a", "query": `,
		"noid":      `{"query": "q", "targets": [{"file": "a"}]}`,
		"duplicate": `{"id": "a", "query": "q", "targets": [{"file": "a"}]}` + "\n" + `{"id": "a", "query": "q", "targets": [{"file": "a"}]}`,
		"notargets": `{"id": "a", "query": "q", "targets": []}`,
		"nofile":    `{"id": "a", "query": "q", "targets": [{"symbol": "x"}]}`,
		"late-head": `{"id": "a", "query": "q", "targets": [{"file": "a"}]}` + "\n" + `{"root": "/x"}`,
	} {
		if _, err := Parse(strings.NewReader(in), nil); err == nil {
			t.Errorf("%s: expected an error", name)
		}
	}
}

func TestSymbolMatches(t *testing.T) {
	cases := []struct {
		name, symbol string
		want         bool
	}{
		{"ContextCompressor.compressIfNeeded(String text)", "compressIfNeeded", true},
		{"Server.Serve(l net.Listener) error", "Server.Serve", true},
		{"Server.Serve(l net.Listener) error", "Serve", true},
		{"Server.ServeTLS(l net.Listener)", "Serve", false},
		{"xServe()", "Serve", false},
		{"Open", "Open", true},
		{"Open", "", false},
		{"pkg.Conn.Close", "Conn.Close", true},
	}
	for _, c := range cases {
		if got := SymbolMatches(c.name, c.symbol); got != c.want {
			t.Errorf("SymbolMatches(%q, %q) = %v, want %v", c.name, c.symbol, got, c.want)
		}
	}
}

func TestEvaluateTinySet(t *testing.T) {
	s, err := Parse(strings.NewReader(tiny), nil)
	if err != nil {
		t.Fatal(err)
	}
	results := map[string][]Hit{
		// t1: symbol hit at rank 1.
		"t1": {{"a.go", "Open(name string) (*File, error)"}, {"b.go", "x"}},
		// t2: file hit at rank 2 (wrong symbol), symbol hit at rank 3 (second target).
		"t2": {{"z.go", "q"}, {"b.go", "Conn.Read(p []byte)"}, {"c.go", "closeConn()"}},
		// t3: file hit at rank 6, never the symbol.
		"t3": {{"1", ""}, {"2", ""}, {"3", ""}, {"4", ""}, {"5", ""}, {"d.go", "main"}},
		// t4: file-only task, hit at rank 11 (past 10: counts nowhere).
		"t4": {{"1", ""}, {"2", ""}, {"3", ""}, {"4", ""}, {"5", ""}, {"6", ""}, {"7", ""}, {"8", ""}, {"9", ""}, {"10", ""}, {"e.go", "cfg"}},
	}
	var outs []Outcome
	for _, task := range s.Tasks {
		outs = append(outs, Judge(task, results[task.ID]))
	}
	wantRanks := map[string][2]int{"t1": {1, 1}, "t2": {2, 3}, "t3": {6, 0}, "t4": {11, 0}}
	for _, o := range outs {
		if w := wantRanks[o.Task.ID]; o.FileRank != w[0] || o.SymbolRank != w[1] {
			t.Errorf("%s: ranks file %d symbol %d, want %v", o.Task.ID, o.FileRank, o.SymbolRank, w)
		}
	}
	r := Evaluate(outs)
	tests := []struct {
		name string
		got  Metrics
		want Metrics
	}{
		// file ranks 1, 2, 6, 11.
		{"overall file", r.Overall.File, Metrics{Recall1: 0.25, Recall5: 0.5, Recall10: 0.75, MRR10: (1 + 0.5 + 1.0/6) / 4}},
		// symbol ranks over the three tasks with symbols: 1, 3, 0.
		{"overall symbol", r.Overall.Symbol, Metrics{Recall1: 1.0 / 3, Recall5: 2.0 / 3, Recall10: 2.0 / 3, MRR10: (1 + 1.0/3) / 3}},
		{"en file", r.ByLang["en"].File, Metrics{Recall1: 0.5, Recall5: 0.5, Recall10: 1, MRR10: (1 + 1.0/6) / 2}},
		{"zh symbol", r.ByLang["zh"].Symbol, Metrics{Recall1: 0, Recall5: 1, Recall10: 1, MRR10: 1.0 / 3}},
		{"usage symbol", r.ByKind["usage"].Symbol, Metrics{}},
		{"location file", r.ByKind["location"].File, Metrics{}},
	}
	for _, tc := range tests {
		g, w := tc.got, tc.want
		if !approx(g.Recall1, w.Recall1) || !approx(g.Recall5, w.Recall5) || !approx(g.Recall10, w.Recall10) || !approx(g.MRR10, w.MRR10) {
			t.Errorf("%s: got %+v, want %+v", tc.name, g, w)
		}
	}
	if r.Tasks != 4 || r.ByLang["en"].Tasks != 2 || r.ByKind["implementation"].Tasks != 2 {
		t.Errorf("task counts: %+v", r)
	}
	if len(r.Misses) != 2 || r.Misses[0].ID != "t3" || r.Misses[1].ID != "t4" {
		t.Fatalf("misses: %+v", r.Misses)
	}
	if m := r.Misses[0]; m.Got != "1:" || m.FileRank != 6 || m.Expected[0] != "d.go:run" {
		t.Errorf("miss t3: %+v", m)
	}
}

func TestScoreEmpty(t *testing.T) {
	if m := Score(nil); m != (Metrics{}) {
		t.Fatalf("Score(nil) = %+v", m)
	}
}

// TestProjectSetsParse: every golden set kept in the project parses, and a
// change-request set (chg-*) holds only file targets of kind "change".
func TestProjectSetsParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "eval", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden sets under testdata/eval")
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(r, func(string) string { return "" })
		r.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !strings.HasPrefix(filepath.Base(f), "chg-") {
			continue
		}
		for _, task := range s.Tasks {
			if task.Kind != "change" || HasSymbols(task) {
				t.Errorf("%s: task %s: kind %q, symbols %v", f, task.ID, task.Kind, HasSymbols(task))
			}
		}
	}
}
