package scan

import (
	"errors"
	"testing"
	"testing/fstest"
)

func TestPatternMatch(t *testing.T) {
	type c struct {
		line  string
		path  string
		isDir bool
		want  bool
	}
	cases := []c{
		{"*.log", "a.log", false, true},
		{"*.log", "x/y/a.log", false, true},
		{"/a.log", "x/a.log", false, false},
		{"/a.log", "a.log", false, true},
		{"a/b", "a/b", false, true},
		{"a/b", "x/a/b", false, false}, // a slash anchors
		{"doc/*.html", "doc/x.html", false, true},
		{"doc/*.html", "doc/p/x.html", false, false},
		{"tmp/", "tmp", true, true},
		{"tmp/", "tmp", false, false},
		{"tmp/", "a/tmp", true, true},
		{"**/foo", "a/b/foo", false, true},
		{"**/foo/bar", "x/foo/bar", false, true},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"abc/**", "abc/x/y", false, true},
		{"abc/**", "abc", true, false}, // inside only
		{"?.go", "a.go", false, true},
		{"?.go", "ab.go", false, false},
		{"[a-c].go", "b.go", false, true},
		{"[!a-c].go", "b.go", false, false},
		{`\#x`, "#x", false, true},
		{`\!x`, "!x", false, true},
		{"{a,b}", "{a,b}", false, true}, // braces are literal
		{"{a,b}", "a", false, false},
		{"a\\ ", "a ", false, true},
		{"a   ", "a", false, true},
		{"*", ".hidden", false, true},
	}
	for _, tc := range cases {
		p, err := ParsePattern(tc.line)
		if err != nil {
			t.Errorf("ParsePattern(%q): %v", tc.line, err)
			continue
		}
		if got := p.Match(tc.path, tc.isDir); got != tc.want {
			t.Errorf("%q vs %q (dir=%v) = %v, want %v", tc.line, tc.path, tc.isDir, got, tc.want)
		}
	}
	for _, line := range []string{"", "   ", "# c", "/", "!"} {
		if _, err := ParsePattern(line); !errors.Is(err, ErrNoPattern) {
			t.Errorf("ParsePattern(%q) = %v, want ErrNoPattern", line, err)
		}
	}
	if p, _ := ParsePattern("!x"); !p.Negate() {
		t.Error("negation lost")
	}
}

func TestIgnoreTreePrecedence(t *testing.T) {
	fsys := fstest.MapFS{
		".gitignore":         {Data: []byte("*.txt\n!keep.txt\nout/\n")},
		"a/.gitignore":       {Data: []byte("!*.txt\nkeep.txt\n/only.md\n")},
		"a/b/.gitignore":     {Data: []byte("deep.go\n")},
		"out/.gitignore":     {Data: []byte("!x.go\n")},
		"a/b/c/.placeholder": {Data: nil},
	}
	tr := newIgnoreTree(fsys, GitIgnoreFile)
	cases := map[string]bool{
		"x.txt":         true,
		"keep.txt":      false,
		"a/x.txt":       false, // nested negation overrides
		"a/keep.txt":    true,  // nested ignore overrides the root negation
		"a/only.md":     true,
		"a/b/only.md":   false, // anchored to a/
		"a/b/deep.go":   true,
		"a/deep.go":     false,
		"out/x.go":      true, // parent excluded: cannot be re-included
		"a/b/c/y.txt":   false,
		"other/x.txt":   true,
		"other/keep.go": false,
	}
	for p, want := range cases {
		if got := tr.excluded(p, false); got != want {
			t.Errorf("excluded(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestRooted(t *testing.T) {
	cases := []struct{ line, dir, want string }{
		{"*.log", "", "*.log"},
		{"/build.txt", "", "/build.txt"},
		{"a/b/", "", "/a/b/"},
		{"!keep.log", "", "!keep.log"},
		{"*.gen.go", "sub", "/sub/**/*.gen.go"},
		{"deep/x.txt", "sub", "/sub/deep/x.txt"},
		{"!x/", "sub dir", "!/sub dir/**/x/"},
		{"{a,b}", "c[1]", `/c\[1\]/**/\{a,b\}`},
	}
	for _, c := range cases {
		p, err := ParsePattern(c.line)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Rooted(c.dir); got != c.want {
			t.Errorf("%q in %q: %q, want %q", c.line, c.dir, got, c.want)
		}
	}
}
