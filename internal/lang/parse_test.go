package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestSupported(t *testing.T) {
	for _, l := range []string{"go", "java", "python", "javascript", "typescript", "tsx", "rust", "c", "cpp", "csharp", "ruby", "php"} {
		if !Supported(l) {
			t.Errorf("Supported(%q) = false", l)
		}
	}
	for _, l := range []string{"", "markdown", "yaml", "json", "toml", "xml", "sql", "shell", "kotlin", "scala", "swift", "properties", "gradle", "text", "Go"} {
		if Supported(l) {
			t.Errorf("Supported(%q) = true", l)
		}
	}
}

func TestUnknownLanguageIsText(t *testing.T) {
	src := []byte("fun main() {\n  println(\"hi\")\n}\n")
	res := strictParse(t, "src/Main.kt", "kotlin", src)
	if !res.Fallback || res.Language != "kotlin" || len(res.Chunks) != 1 || res.Chunks[0].Name != "src/Main.kt" || res.Chunks[0].Kind != KindText {
		t.Fatalf("got %+v", res)
	}
}

// TestSyntaxErrorFallsBack checks the top-level error rule in both directions.
func TestSyntaxErrorFallsBack(t *testing.T) {
	cases := []struct {
		lang, src string
		fallback  bool
	}{
		// mostly garbage: falls back
		{"go", "package p\n\n}}} func ((( \n @@@ !!! \n var = = =\n", true},
		{"java", "class {{{{ ]]] \n public void (((\n", true},
		{"python", "def (:\n  ]]]]\nclass\n", true},
		{"c", "int main( {{{ ))) \n #include\n", true},
		// one broken function among good declarations: kept
		{"go", "package p\n\nfunc A() {}\n\nfunc B() { x := }\n\nfunc C() {}\n\nfunc D() {}\n\nfunc E() {}\n", false},
		{"python", "def a():\n    return 1\n\ndef b():\n    return (1 +\n\ndef c():\n    return 3\n", false},
	}
	for _, c := range cases {
		res := strictParse(t, "broken", c.lang, []byte(c.src))
		if res.Fallback != c.fallback {
			t.Errorf("%s %q: fallback = %v, want %v (%v)", c.lang, c.src, res.Fallback, c.fallback, chunkNames(res))
		}
		checkInvariants(t, []byte(c.src), res)
		if res.Fallback && (len(res.Chunks) != 1 || res.Chunks[0].Kind != KindText || res.Chunks[0].Name != "broken") {
			t.Errorf("%s: fallback chunks %v", c.lang, chunkNames(res))
		}
	}
	res := strictParse(t, "ok.go", "go", []byte(cases[4].src))
	if findChunk(res, "A()") == nil || findChunk(res, "E()") == nil {
		t.Errorf("partially broken Go file lost functions: %v", chunkNames(res))
	}
}

// allFixtures lists every testdata file with its language.
var allFixtures = []struct{ lang, file string }{
	{"go", "go/server.go"}, {"java", "java/SampleService.java"}, {"python", "python/client.py"},
	{"javascript", "javascript/app.js"}, {"typescript", "typescript/service.ts"}, {"tsx", "tsx/Button.tsx"},
	{"rust", "rust/lib.rs"}, {"c", "c/buffer.h"}, {"cpp", "cpp/shapes.cpp"}, {"csharp", "csharp/OrderService.cs"},
	{"ruby", "ruby/user.rb"}, {"php", "php/Controller.php"}, {"markdown", "text/README.md"},
}

// TestParseRace calls Parse from 8 goroutines at once on every fixture and
// checks that the results equal the sequential ones (run with -race).
func TestParseRace(t *testing.T) {
	type job struct {
		lang, file string
		src        []byte
		want       Result
	}
	var jobs []job
	for _, f := range allFixtures {
		src := readFixture(t, f.file)
		jobs = append(jobs, job{f.lang, f.file, src, strictParse(t, f.file, f.lang, src)})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(jobs))
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < 5; r++ {
				for k := range jobs {
					j := jobs[(k+g)%len(jobs)]
					if got := Parse(j.file, j.lang, j.src); !reflect.DeepEqual(got, j.want) {
						errs <- j.file
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for f := range errs {
		t.Errorf("concurrent Parse(%s) differs from sequential", f)
	}
}

// TestFlattenMatchesBinding checks the hand-declared C mirror of the
// tree-sitter ABI: the flattened tree must agree node by node with a walk
// through the go-tree-sitter binding.
func TestFlattenMatchesBinding(t *testing.T) {
	if s := cNodeSize(); s != 32 {
		t.Fatalf("sizeof(lang_node) = %d, Go node is 32", s)
	}
	for _, f := range allFixtures {
		if !Supported(f.lang) {
			continue
		}
		src := readFixture(t, f.file)
		g := grammarFor(f.lang)
		tr := g.parse(src)
		if tr == nil {
			t.Fatalf("%s: parse failed", f.file)
		}
		nodes := flatten(tr.RootNode(), nil)
		c := tr.Walk()
		var parents []int32
		k := 0
		for {
			n := c.Node()
			if k >= len(nodes) {
				t.Fatalf("%s: flat tree has only %d nodes", f.file, len(nodes))
			}
			fn := nodes[k]
			var parent int32 = -1
			if len(parents) > 0 {
				parent = parents[len(parents)-1]
			}
			if uint(fn.start) != n.StartByte() || uint(fn.end) != n.EndByte() ||
				uint(fn.srow) != n.StartPosition().Row || uint(fn.erow) != n.EndPosition().Row ||
				fn.sym != n.KindId() || fn.field != c.FieldId() || fn.parent != parent ||
				(fn.flags&flagNamed != 0) != n.IsNamed() || (fn.flags&flagMissing != 0) != n.IsMissing() ||
				(fn.flags&flagExtra != 0) != n.IsExtra() {
				t.Fatalf("%s node %d (%s): flat %+v differs", f.file, k, n.Kind(), fn)
			}
			if c.GotoFirstChild() {
				parents = append(parents, int32(k))
				k++
				continue
			}
			k++
			for !c.GotoNextSibling() {
				if !c.GotoParent() {
					goto done
				}
				parents = parents[:len(parents)-1]
			}
		}
	done:
		c.Close()
		tr.Close()
		if k != len(nodes) {
			t.Errorf("%s: binding walk saw %d nodes, flat tree has %d", f.file, k, len(nodes))
		}
		// next-sibling links agree with parent links
		tt := &tree{g: g, src: src, nodes: nodes}
		for i := range nodes {
			for ch := tt.first(int32(i)); ch >= 0; ch = tt.next(ch) {
				if nodes[ch].parent != int32(i) {
					t.Fatalf("%s: node %d lists child %d whose parent is %d", f.file, i, ch, nodes[ch].parent)
				}
			}
		}
	}
}

// TestParseStdlibSmoke parses net/http and checks the invariants and a few
// known chunks of real code.
func TestParseStdlibSmoke(t *testing.T) {
	srcs := stdlibFiles(t)
	if len(srcs) == 0 {
		t.Skip("GOROOT sources not found")
	}
	total := 0
	for k, src := range srcs {
		res := strictParse(t, fmt.Sprintf("net/http/%d.go", k), "go", src)
		if res.Fallback {
			t.Errorf("file %d fell back to text", k)
		}
		checkInvariants(t, src, res)
		total += len(res.Chunks)
	}
	if total < 1000 {
		t.Errorf("only %d chunks in net/http", total)
	}
	src := readGoroot(t, "src/net/http/server.go")
	res := strictParse(t, "net/http/server.go", "go", src)
	for _, name := range []string{"Server", "Server.Serve(l net.Listener)", "Handler", "HandlerFunc.ServeHTTP(w ResponseWriter, r *Request)"} {
		if findChunk(res, name) == nil {
			t.Errorf("server.go: missing %q", name)
		}
	}
	if c := findChunk(res, "Server.Serve(l net.Listener)"); c != nil && (c.Kind != KindMethod || !strings.HasPrefix(strings.TrimSpace(c.Content), "//")) {
		t.Errorf("Server.Serve: kind %s, content %.60q", c.Kind, c.Content)
	}
}

// readGoroot reads a file below GOROOT or skips the test.
func readGoroot(t *testing.T, rel string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(goroot(), rel))
	if err != nil {
		t.Skip("GOROOT sources not found")
	}
	return src
}

// TestReleaseMemoryBetweenParses: handing the C heap's free pages back
// (by hand, or by Parse itself after a large file) leaves the parsers
// working: what they allocate next is mapped again.
func TestReleaseMemoryBetweenParses(t *testing.T) {
	var large strings.Builder
	large.WriteString("package p\n\n")
	for i := 0; large.Len() <= trimAfterBytes; i++ {
		fmt.Fprintf(&large, "func F%d(a, b int) int { return a*%d + b }\n\n", i, i)
	}
	for _, tc := range []struct {
		name string
		src  string
	}{
		{"small file", "package p\n\nfunc F() int { return 1 }\n"},
		{"file past trimAfterBytes", large.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := Parse("a.go", "go", []byte(tc.src))
			for range 2 {
				ReleaseMemory()
				after := Parse("a.go", "go", []byte(tc.src))
				if len(after.Chunks) != len(before.Chunks) || len(after.Chunks) == 0 || after.Fallback {
					t.Fatalf("%d chunks after ReleaseMemory (fallback %v), %d before", len(after.Chunks), after.Fallback, len(before.Chunks))
				}
			}
		})
	}
}
