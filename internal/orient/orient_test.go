package orient

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"codectx/internal/store"
)

func TestParseHunks(t *testing.T) {
	diff := `diff --git a/a.go b/a.go
index 1..2 100644
--- a/a.go
+++ b/a.go
@@ -3 +3,2 @@ func A() {
-x
+y
+z
@@ -10,2 +11,0 @@ func B() {
diff --git a/old.go b/new.go
similarity index 90%
rename from old.go
rename to new.go
--- a/old.go
+++ b/new.go
@@ -5,0 +6 @@
+w
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,4 +0,0 @@
`
	got := parseHunks([]byte(diff))
	want := map[string][]Hunk{
		"a.go":    {{3, 1, 3, 2}, {10, 2, 11, 0}},
		"new.go":  {{5, 0, 6, 1}},
		"gone.go": {{1, 4, 0, 0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseHunks = %v, want %v", got, want)
	}
}

func FuzzParseHunks(f *testing.F) {
	f.Add("--- a/x\n+++ b/x\n@@ -1,2 +3,4 @@\n")
	f.Add("@@ -a +b @@")
	f.Add("+++ /dev/null\n@@ -1 +0,0 @@")
	f.Fuzz(func(t *testing.T, s string) {
		for file, hunks := range parseHunks([]byte(s)) {
			if file == "" {
				t.Fatalf("hunks without a file: %v", hunks)
			}
		}
	})
}

func TestSignature(t *testing.T) {
	tests := []struct {
		c       store.GraphChunk
		content string
		want    string
	}{
		{store.GraphChunk{Kind: "method", Short: "Do", Name: "Client.Do(req *Request)"},
			"// Do sends a request.\n// Do is safe.\nfunc (c *Client) Do(req *Request) (*Response, error) {\n\treturn nil, nil\n}", "func (c *Client) Do(req *Request) (*Response, error)"},
		{store.GraphChunk{Kind: "function", Short: "get_payload", Name: "get_payload(self, i=None)"},
			"@cached\ndef get_payload(self, i=None,\n        decode=False):\n    pass", "def get_payload(self, i=None…)"},
		{store.GraphChunk{Kind: "type", Short: "Item", Name: "Item"}, "type Item struct {\n}", "type Item struct"},
		{store.GraphChunk{Kind: "class", Short: "Invoice", Name: "Invoice"}, "class Invoice(Base):\n    pass", "class Invoice(Base)"},
		{store.GraphChunk{Kind: "function", Short: "total", Name: "total(self)"}, "    def total(self) -> int:\n        return 1", "def total(self) -> int"},
		{store.GraphChunk{Kind: "file", Short: "X", Name: "X"}, "", "decl X"},
	}
	for _, tt := range tests {
		if got := Signature(tt.c, tt.content); got != tt.want {
			t.Errorf("Signature(%s) = %q, want %q", tt.c.Name, got, tt.want)
		}
	}
	long := "func F(" + strings.Repeat("a, ", 100) + "b int)"
	if got := Signature(store.GraphChunk{Short: "F"}, long); len([]rune(got)) != maxSignature {
		t.Errorf("long signature not cut to %d runes: %d", maxSignature, len([]rune(got)))
	}
}

func TestPageRank(t *testing.T) {
	// a, b, c all call d; d calls e. d ranks first, e second; without any
	// edge into them a, b and c tie and keep their order.
	chunks := []store.GraphChunk{{ID: 1, Symbol: "a"}, {ID: 2, Symbol: "b"}, {ID: 3, Symbol: "c"}, {ID: 4, Symbol: "d"}, {ID: 5, Symbol: "e"}}
	edges := []store.Edge{{Kind: "calls", Src: 1, Dst: 4}, {Kind: "calls", Src: 2, Dst: 4}, {Kind: "calls", Src: 3, Dst: 4}, {Kind: "calls", Src: 4, Dst: 5}}
	g := newGraph(chunks, edges)
	r := g.PageRank(nil)
	var sum float64
	for _, x := range r {
		sum += x
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("ranks sum to %v", sum)
	}
	if got := order(r); !reflect.DeepEqual(got, []int{4, 3, 0, 1, 2}) {
		t.Errorf("order = %v (ranks %v)", got, r)
	}
	// Personalised toward a: a outranks b and c.
	p := g.PageRank([]float64{1, 0, 0, 0, 0})
	if !(p[0] > p[1] && p[0] > p[2]) {
		t.Errorf("personalised ranks %v", p)
	}
}

func TestExported(t *testing.T) {
	tests := []struct {
		c    store.GraphChunk
		want bool
	}{
		{store.GraphChunk{Lang: "go", Short: "Do", Container: "Client"}, true},
		{store.GraphChunk{Lang: "go", Short: "Do", Container: "client"}, false},
		{store.GraphChunk{Lang: "go", Short: "do"}, false},
		{store.GraphChunk{Lang: "python", Short: "_private"}, false},
		{store.GraphChunk{Lang: "python", Short: "public"}, true},
	}
	for _, tt := range tests {
		if got := exported(tt.c); got != tt.want {
			t.Errorf("exported(%+v) = %v", tt.c, got)
		}
	}
}

func TestPageRankEdgeWeights(t *testing.T) {
	// a reaches b, c and d through one dynamic call (dispatch at line 5),
	// calls e exactly and f by an inferred rule. e outranks f, and f each
	// of b, c, d: the call site's weight is shared by its implementations.
	chunks := []store.GraphChunk{{ID: 1, Symbol: "a"}, {ID: 2, Symbol: "b"}, {ID: 3, Symbol: "c"}, {ID: 4, Symbol: "d"}, {ID: 5, Symbol: "e"}, {ID: 6, Symbol: "f"}}
	edges := []store.Edge{
		{Kind: "dispatch", Src: 1, Dst: 2, Line: 5, Resolution: store.ResExact},
		{Kind: "dispatch", Src: 1, Dst: 3, Line: 5, Resolution: store.ResExact},
		{Kind: "dispatch", Src: 1, Dst: 4, Line: 5, Resolution: store.ResExact},
		{Kind: "calls", Src: 1, Dst: 5, Line: 6, Resolution: store.ResExact},
		{Kind: "calls", Src: 1, Dst: 6, Line: 7, Resolution: store.ResInferred},
	}
	r := newGraph(chunks, edges).PageRank(nil)
	if !(r[4] > r[5] && r[5] > r[1]) {
		t.Errorf("ranks %v: want e > f > b", r)
	}
	if r[1] != r[2] || r[2] != r[3] {
		t.Errorf("implementations of one call site rank differently: %v", r[1:4])
	}
	// A name-only or external relation carries no rank even if it is
	// passed in as resolved.
	r = newGraph(chunks[:2], []store.Edge{{Kind: "calls", Src: 1, Dst: 2, Resolution: store.ResName}}).PageRank(nil)
	if r[0] != r[1] {
		t.Errorf("a name-only relation passed rank: %v", r)
	}
}

func TestMemberSignature(t *testing.T) {
	tests := []struct {
		short, sig, want string
	}{
		{"Get", "func (h Header) Get(key string) string", "Get(key string) string"},
		{"Do", "func (c *Client) Do(req *Request) (*Response, error)", "Do(req *Request) (*Response, error)"},
		{"Map", "func (s *Set[K]) Map(f func(K) K) *Set[K]", "Map(f func(K) K) *Set[K]"},
		{"get", "def get(self, key, default=None):", "get(key, default=None)"},
		{"close", "async def close(self):", "close()"},
		{"make", "def make(cls)", "make()"},
		{"run", "pub fn run(&self) -> Result<()>", "run(&self) -> Result<()>"},
		// a return type or modifiers before the name: kept whole
		{"size", "public int size()", "public int size()"},
		{"Get", "decl Get", "decl Get"},
		{"x", "func (t T) y()", "func (t T) y()"},
	}
	for _, tt := range tests {
		if got := memberSignature(store.GraphChunk{Short: tt.short}, tt.sig); got != tt.want {
			t.Errorf("memberSignature(%q) = %q, want %q", tt.sig, got, tt.want)
		}
	}
}

func TestWithoutBody(t *testing.T) {
	tests := []struct{ in, want string }{
		{"func (s *Server) closeConn(c net.Conn) { s.closeConnChan(c, nil) }", "func (s *Server) closeConn(c net.Conn)"},
		{"func f(x struct{ a int }) int { return x.a }", "func f(x struct{ a int }) int"},
		{"func f() {", "func f() {"},
		{"X = {'a': 1}", "X = {'a': 1}"},
		{"type T struct{ a int }", "type T struct{ a int }"},
	}
	for _, tt := range tests {
		if got := withoutBody(tt.in); got != tt.want {
			t.Errorf("withoutBody(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMoreText(t *testing.T) {
	tests := []struct {
		m     map[string]int
		names []string
		want  string
	}{
		{map[string]int{"method": 12}, nil, "… 12 more methods"},
		{map[string]int{"method": 1}, []string{"Close"}, "… 1 more method: Close"},
		{map[string]int{"method": 4, "function": 3, "file": 1}, []string{"conn.serve", "Get", "conn.close", "x.y.z"},
			"… 8 more: conn.{serve, close}, Get, x.y.z (+4)"},
	}
	for _, tt := range tests {
		if got := moreText(tt.m, tt.names); got != tt.want {
			t.Errorf("moreText(%v, %v) = %q, want %q", tt.m, tt.names, got, tt.want)
		}
	}
}

// FuzzSignatureLines: the declaration-line rewrites never panic and never
// make a line longer.
func FuzzSignatureLines(f *testing.F) {
	f.Add("Get", "func (h Header) Get(key string) string")
	f.Add("get", "async def get(self, key):")
	f.Add("f", "func f(x struct{ a int }) int { return x.a }")
	f.Add("x", "func (")
	f.Fuzz(func(t *testing.T, short, line string) {
		if got := memberSignature(store.GraphChunk{Short: short}, line); len(got) > len(line) {
			t.Errorf("memberSignature(%q, %q) = %q is longer", short, line, got)
		}
		if got := withoutBody(line); len(got) > len(line) {
			t.Errorf("withoutBody(%q) = %q is longer", line, got)
		}
		_ = groupNames(strings.Split(line, ","))
	})
}

func TestMapRender(t *testing.T) {
	m := &MapResult{Rank: RankPageRank, TotalSymbols: 9, TotalFiles: 3, Shown: 2, Named: 3, Files: []MapFile{
		{Path: "a.go", Symbols: []MapSymbol{
			{Line: 3, Signature: "type T struct", Members: []MapSymbol{{Line: 5, Signature: "Get() int"}}},
			{Line: 9, Signature: "type U struct", More: map[string]int{"method": 2}, Named: []MapSymbol{{Symbol: "U.run", short: "run"}}},
		}},
		{Path: "b.go", More: map[string]int{"function": 1, "method": 2}, Named: []MapSymbol{{Symbol: "V.x"}, {Symbol: "V.y"}}},
	}}
	want := `# repository map: 2 of 9 definitions in 3 files (3 more by name), ranked by PageRank over 0 resolved relations
a.go
  3: type T struct
    5: Get() int
  9: type U struct … 2 more methods: run (+1)
b.go … 3 more: V.{x, y} (+1)
… 1 more file
`
	if got := m.render(); got != want {
		t.Errorf("render:\n%s\nwant:\n%s", got, want)
	}
}

func TestFocusedRanking(t *testing.T) {
	// f/ holds f1…f4 (20 lines each), which all call the hub h, and fx,
	// which only f1 calls; outside f/, o1…o30 call h as well. Focused on
	// f/, the plain focused PageRank puts the hub first; the lift puts
	// the focus's own fx first and keeps the hub ahead of its outside
	// callers.
	var chunks []store.GraphChunk
	var edges []store.Edge
	add := func(id int64, path, sym string, lines int) {
		chunks = append(chunks, store.GraphChunk{ID: id, Path: path, Symbol: sym, StartLine: 1, EndLine: lines})
	}
	add(1, "h/h.go", "h", 20)
	add(2, "f/x.go", "fx", 20)
	for i := range int64(4) {
		add(10+i, "f/f.go", fmt.Sprint("f", i+1), 20)
		edges = append(edges, store.Edge{Kind: "calls", Src: 10 + i, Dst: 1})
	}
	edges = append(edges, store.Edge{Kind: "calls", Src: 10, Dst: 2})
	for i := range int64(30) {
		add(100+i, "o/o.go", fmt.Sprint("o", i+1), 20)
		edges = append(edges, store.Edge{Kind: "calls", Src: 100 + i, Dst: 1})
	}
	g := newGraph(chunks, edges)
	base := teleportBase(g, true)
	personal, hit, warnings := focusVector(g, base, []string{"f/", "nosuch"})
	if len(hit) != 5 || len(warnings) != 1 {
		t.Fatalf("focus hit %v, warnings %v", hit, warnings)
	}
	plain := g.PageRank(personal)
	if order(plain)[0] != 0 || plain[1] >= plain[0] {
		t.Fatalf("premise: the hub should rank first without the lift: %v", plain)
	}
	score, _, err := rankChunks(t.Context(), nil, 0, g, MapOptions{Focus: []string{"f/"}, Rank: RankPageRank})
	if err != nil {
		t.Fatal(err)
	}
	rank := order(score)
	pos := map[int]int{}
	for p, i := range rank {
		pos[i] = p
	}
	if pos[1] > pos[0] {
		t.Errorf("focused: fx ranks after the hub (order %v, scores %v)", rank, score)
	}
	for i := 6; i < len(chunks); i++ {
		if pos[i] < pos[0] {
			t.Errorf("focused: outside %s ranks before the hub", g.Chunks[i].Symbol)
		}
	}

	// The focus's teleport mass follows lines, as the base does.
	chunks[1].EndLine = 1 // fx: one line
	g = newGraph(chunks, edges)
	personal, _, _ = focusVector(g, teleportBase(g, true), []string{"f/"})
	if r := personal[2] / personal[1]; r < 19.9 || r > 20.1 {
		t.Errorf("teleport of a 20-line and a 1-line focus chunk in ratio %v, want 20", r)
	}
}
