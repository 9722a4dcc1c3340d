package lang

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// haltChildEnv marks the child process of TestHaltedParseNeverReused.
const haltChildEnv = "CODECTX_LANG_HALT_CHILD"

// largeSource returns a syntactically valid file of at least 256 KiB in
// language.
func largeSource(language string) []byte {
	var b strings.Builder
	for i := 0; b.Len() < slowParseBytes+16<<10; i++ {
		switch language {
		case "go":
			if i == 0 {
				b.WriteString("package p\n\n")
			}
			fmt.Fprintf(&b, "func f%d(a int) int { return a + %d }\n", i, i)
		case "python":
			fmt.Fprintf(&b, "def f%d(a):\n    return a + %d\n\n", i, i)
		case "javascript":
			fmt.Fprintf(&b, "function f%d(a) { return a + %d; }\n", i, i)
		}
	}
	return []byte(b.String())
}

// progressCalls counts the progress callbacks of a complete parse of src.
func progressCalls(t *testing.T, language string, src []byte) int {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(grammarFor(language).lang); err != nil {
		t.Fatal(err)
	}
	calls := 0
	tr := p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i < len(src) {
			return src[i:]
		}
		return nil
	}, nil, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		calls++
		return false
	}})
	if tr == nil {
		t.Fatalf("%s: complete parse failed", language)
	}
	tr.Close()
	return calls
}

// TestHaltedParseNeverReused halts parses of large files many times in a
// row, at the first progress check and at points spread over the end of the
// parse (where tree-sitter balances the finished tree), and parses another
// file after each. A parser halted while balancing used to go back to the
// pool and abort the whole process on its next parse
// (ts_parser_parse: Assertion 'self->finished_tree.ptr' failed), so the
// sequence runs in a child process and a crash is reported as a failure.
func TestHaltedParseNeverReused(t *testing.T) {
	if os.Getenv(haltChildEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHaltedParseNeverReused$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), haltChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			head := string(out) // the abort message comes first, goroutine dumps after
			if len(head) > 3000 {
				head = head[:3000]
			}
			t.Fatalf("halted parses in a child process: %v\n%s", err, head)
		}
		if !strings.Contains(string(out), "halted parses:") {
			t.Fatalf("child did not run the test:\n%s", out)
		}
		return
	}
	t.Cleanup(func() { stopAfterHook.Store(0) })
	small := map[string]string{
		"go":         "package q\n\nfunc G() int { return 1 }\n",
		"python":     "def G():\n    return 1\n",
		"javascript": "function G() { return 1; }\n",
	}
	halted := 0
	for _, language := range []string{"go", "python"} {
		src := largeSource(language)
		total := progressCalls(t, language, src)
		// The last quarter of the callbacks covers the end of parsing and
		// the balancing; 1 is a budget spent before parsing starts.
		points := []int{1, 2}
		for k := total - total/4; k <= total; k += max(1, total/4/16) {
			points = append(points, k)
		}
		for _, k := range points {
			stopAfterHook.Store(int64(k))
			res := Parse("big", language, src)
			stopAfterHook.Store(0)
			if res.Fallback {
				halted++
				checkInvariants(t, src, res)
			}
			// the same grammar: the pooled parser, never the halted one
			if got := Parse("small", language, []byte(small[language])); got.Fallback || findChunk(got, "G()") == nil {
				t.Fatalf("%s halted at callback %d: next parse %v", language, k, chunkNames(got))
			}
		}
		if got := Parse("big", language, src); got.Fallback {
			t.Fatalf("%s: full parse after the halted ones fell back", language)
		}
	}
	if halted < 30 {
		t.Fatalf("only %d parses were halted", halted)
	}
	t.Logf("halted parses: %d", halted)
}

// TestParseBudgetIsWorkNotTime: the budget of a large parse is a count of
// progress callbacks, so a file is given up on at the same point however
// slow the machine is (the graph must not depend on load).
func TestParseBudgetIsWorkNotTime(t *testing.T) {
	for _, n := range []int{slowParseBytes, 1 << 20, 3<<20 + 1} {
		stop := budgetStop(n)
		limit := int64(n>>20+1) * parseStepsPerMiB
		for i := int64(1); i <= limit; i++ {
			if stop(sitter.ParseState{}) {
				t.Fatalf("%d bytes: halted at callback %d, budget %d", n, i, limit)
			}
		}
		if !stop(sitter.ParseState{}) {
			t.Fatalf("%d bytes: not halted after the budget of %d callbacks", n, limit)
		}
	}
}
