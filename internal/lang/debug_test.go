package lang

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDebugAids(t *testing.T) {
	src := []byte("package a\n\n// F does f.\nfunc F(x int) int { return g(x) }\n")
	var b bytes.Buffer
	if err := DumpTree(&b, "go", src); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "function_declaration [4-4]") || !strings.Contains(b.String(), `name: identifier [4-4] "F"`) {
		t.Fatalf("tree:\n%s", b.String())
	}
	if err := DumpTree(&b, "cobol", src); err == nil {
		t.Fatal("unknown language: no error")
	}
	b.Reset()
	DumpParse(&b, "a.go", "go", src, false)
	if !strings.Contains(b.String(), `sym="F" [3-4]`) || !strings.Contains(b.String(), `calls      "F" -> "g"`) {
		t.Fatalf("parse:\n%s", b.String())
	}
	p := filepath.Join(t.TempDir(), "a.go")
	os.WriteFile(p, src, 0o644)
	rep, err := CheckCorpusFile(p, "go")
	if err != nil || rep.Fallback || rep.Chunks == 0 || len(rep.Problems) != 0 {
		t.Fatalf("corpus check: %+v, %v", rep, err)
	}
}
