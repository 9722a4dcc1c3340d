package lang

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCorpus parses every source file below $LANG_CORPUS (skipped when
// unset) and reports panics, broken invariants, fallbacks and slow files; a
// development aid for checking the extractors on real code.
func TestCorpus(t *testing.T) {
	root := os.Getenv("LANG_CORPUS")
	if root == "" {
		t.Skip()
	}
	ext := map[string]string{".go": "go", ".py": "python", ".js": "javascript", ".ts": "typescript", ".tsx": "tsx", ".java": "java", ".rs": "rust", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby", ".php": "php"}
	h := func(p string, r any) { t.Errorf("panic %s: %v", p, r) }
	panicHook.Store(&h)
	defer panicHook.Store(nil)
	n, fb, chunks := 0, 0, 0
	var slow []string
	st := time.Now()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		l := ext[filepath.Ext(p)]
		if l == "" {
			return nil
		}
		src, _ := os.ReadFile(p)
		t0 := time.Now()
		res := Parse(p, l, src)
		if el := time.Since(t0); el > 300*time.Millisecond {
			slow = append(slow, fmt.Sprintf("%s %v %d", p, el, len(src)))
		}
		n++
		if res.Fallback {
			fb++
			if os.Getenv("LANG_CORPUS_FALLBACKS") != "" {
				t.Logf("fallback %s", p)
			}
		}
		lines := strings.Count(string(src), "\n") + 1
		for _, c := range res.Chunks {
			chunks++
			if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > lines {
				t.Errorf("%s: bad lines %+v (lines %d)", p, c.Name, lines)
			}
			if c.Name == "" || c.Symbol == "" {
				t.Errorf("%s: empty name %d", p, c.StartLine)
			}
		}
		return nil
	})
	t.Logf("files=%d fallback=%d chunks=%d in %v; slow=%v", n, fb, chunks, time.Since(st), slow)
}
