package lang

import (
	"strings"
	"testing"
)

// TestFileChunkRuns checks how top-level declarations outside types and
// functions are grouped and named.
func TestFileChunkRuns(t *testing.T) {
	huge := "var table = []int{\n" + strings.Repeat("\t1, 2, 3, 4, 5, 6, 7, 8, 9, 10,\n", 100) + "}\n"
	cases := []struct {
		name, lang, path, src string
		want                  []string // file chunk names in order
	}{
		{"single Go var", "go", "net/http/sniff.go",
			"package http\n\nimport \"bytes\"\n\nfunc a() {}\n\nvar sniffSignatures = []sniffSig{\n\t{1},\n}\n\nfunc b() {}\n",
			[]string{"sniffSignatures"}},
		{"const block with several names", "go", "p/c.go",
			"package p\n\nconst (\n\tA = 1\n\tB = 2\n)\n",
			[]string{"c.go:A,B"}},
		{"package and imports only", "go", "p/doc.go",
			"// Package p does things.\npackage p\n\nimport (\n\t\"fmt\"\n\t\"example.com/x\"\n)\n",
			nil},
		{"huge var stays whole", "go", "p/t.go",
			"package p\n\n" + huge + "\n" + strings.Replace(huge, "table", "other", 1),
			[]string{"table", "other"}},
		{"python single assignment", "python", "pkg/consts.py",
			"import os\n\nCRLF = \"\\r\\n\"\n\n\ndef f():\n    pass\n\nA, B = 1, 2\n",
			[]string{"CRLF", "consts.py:A,B"}},
		{"statements without names", "javascript", "web/main.js",
			"import x from 'x';\n\nx.start();\nx.stop();\n",
			[]string{"main.js:3"}},
		{"C include guard and includes only", "c", "inc/a.h",
			"#ifndef A_H\n#define A_H\n#include <stdio.h>\n#endif\n",
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := strictParse(t, c.path, c.lang, []byte(c.src))
			checkInvariants(t, []byte(c.src), res)
			var got []string
			for _, ch := range res.Chunks {
				if ch.Kind == KindFile {
					got = append(got, ch.Name)
					if ch.Symbol != ch.Name {
						t.Errorf("symbol %q != name %q", ch.Symbol, ch.Name)
					}
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("file chunks %q, want %q", got, c.want)
			}
		})
	}
	// the huge declaration is one chunk although it is over MaxChunkChars
	res := strictParse(t, "p/t.go", "go", []byte("package p\n\n"+huge))
	if c := findChunk(res, "table"); c == nil || len(c.Content) <= MaxChunkChars || c.StartLine != 3 || c.EndLine != 104 {
		t.Errorf("huge var chunk: %+v", chunkNames(res))
	}
}

// TestTypeHeaderLongDoc checks that a type whose doc comment is longer than
// the header keeps the declaration line in its Content.
func TestTypeHeaderLongDoc(t *testing.T) {
	src := "package p\n\n// A is documented\n// at great\n// length\n// over\n// many\n// lines.\ntype A struct {\n\tX int\n\tY int\n}\n"
	res := strictParse(t, "p/a.go", "go", []byte(src))
	c := findChunk(res, "A")
	if c == nil {
		t.Fatal("no chunk A")
	}
	lines := strings.Split(c.Content, "\n")
	if c.StartLine != 3 || c.EndLine != 12 || len(lines) != TypeHeaderLines ||
		lines[0] != "// A is documented" || lines[4] != "type A struct {" || lines[5] != "\tX int" {
		t.Errorf("header [%d-%d]:\n%s", c.StartLine, c.EndLine, c.Content)
	}
}
