package exact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// comparable strips what may differ between engines.
func comparable(r *GrepResult) GrepResult {
	c := *r
	c.Engine = ""
	return c
}

func matchPaths(r *GrepResult) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, l := range r.Lines {
		if l.Kind == KindMatch && !seen[l.Path] {
			seen[l.Path] = true
			out = append(out, l.Path)
		}
	}
	return out
}

// wantNeedleFiles are the fixture files a "needle" search must report: the
// scanner's file set minus binary and >2 MiB files.
var wantNeedleFiles = []string{
	".env", "A.go", "a-b.go", "a.go", "a/b.go", "bad.txt", "crlf.txt", "docs/rg.txt", "gen.txt",
	"ignored.rg", "keep.log", "kelvin.txt", "long.txt", "main.go", "many.txt", "new\nline.go",
	"notes.txt", "readme.md", "sub/build.txt", "sub/build/b.go", "sub/important.gen.go", "sub/important.min.js",
	"sub/keep.log", "sub/other/deep/x.txt", "sub/tmpdir", "sub/vendor/v.go", "web/package.json", "web/src/app.js",
	"with space ü.go", "x.gen.go",
}

// grepBoth runs a search with the native engine and, when rg is installed,
// the rg engine, requires identical results and returns the native one.
func grepBoth(t *testing.T, opts GrepOptions) *GrepResult {
	t.Helper()
	opts.Engine = EngineNative
	nat, err := Grep(context.Background(), opts)
	if err != nil {
		t.Fatalf("native %+v: %v", opts, err)
	}
	if nat.Engine != EngineNative {
		t.Errorf("engine %q, want native", nat.Engine)
	}
	if !hasRG() {
		return nat
	}
	opts.Engine = EngineRG
	rg, err := Grep(context.Background(), opts)
	if err != nil {
		t.Fatalf("rg %+v: %v", opts, err)
	}
	if rg.Engine != EngineRG && !(nat.Engine == EngineNative && rg.Engine == EngineNative && opts.Path != "") {
		t.Errorf("engine %q, want rg", rg.Engine)
	}
	if a, b := comparable(nat), comparable(rg); !reflect.DeepEqual(a, b) {
		t.Errorf("engines disagree on %+v:\n%s", opts, diffResults(&a, &b))
	}
	if nat.Text() != rg.Text() {
		t.Errorf("texts differ on %+v:\nnative:\n%s\nrg:\n%s", opts, nat.Text(), rg.Text())
	}
	return nat
}

// diffResults describes how two results differ (lines only in one of them,
// then the other fields).
func diffResults(a, b *GrepResult) string {
	key := func(l GrepLine) string { return fmt.Sprintf("%q:%d:%s: %q", l.Path, l.Line, l.Kind, l.Text) }
	in := func(r *GrepResult) map[string]bool {
		m := map[string]bool{}
		for _, l := range r.Lines {
			m[key(l)] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out strings.Builder
	for _, l := range a.Lines {
		if !mb[key(l)] {
			out.WriteString("  native only: " + key(l) + "\n")
		}
	}
	for _, l := range b.Lines {
		if !ma[key(l)] {
			out.WriteString("  rg only:     " + key(l) + "\n")
		}
	}
	a2, b2 := *a, *b
	a2.Lines, b2.Lines = nil, nil
	if !reflect.DeepEqual(a2, b2) {
		ja, _ := json.Marshal(a2)
		jb, _ := json.Marshal(b2)
		fmt.Fprintf(&out, "  native: %s\n  rg:     %s\n", ja, jb)
	}
	return out.String()
}

func TestGrepEnginesAgree(t *testing.T) {
	if !hasRG() {
		t.Log("rg not installed: only the native engine runs")
	}
	for _, mode := range []string{"walk", "git"} {
		t.Run(mode, func(t *testing.T) {
			root := trickyTree(t)
			if mode == "git" {
				initGit(t, root)
			}
			base := GrepOptions{Root: root, Pattern: "needle", MaxResults: 1000}
			res := grepBoth(t, base)
			if got := matchPaths(res); !reflect.DeepEqual(got, wantNeedleFiles) {
				t.Errorf("files searched:\n got %q\nwant %q", got, wantNeedleFiles)
			}
			variants := []func(o *GrepOptions){
				func(o *GrepOptions) {},
				func(o *GrepOptions) { o.IgnoreCase = true },
				func(o *GrepOptions) { o.Pattern = "(?i)needle" },
				func(o *GrepOptions) { o.Pattern = "KNEEDLE"; o.IgnoreCase = true },
				func(o *GrepOptions) { o.Pattern = "k needle"; o.IgnoreCase = true },
				func(o *GrepOptions) { o.Pattern = "s needle"; o.IgnoreCase = true },
				func(o *GrepOptions) { o.Pattern = "^needle in [a-z]+\\.go$" },
				func(o *GrepOptions) { o.Pattern = "crlf$" },
				func(o *GrepOptions) { o.Pattern = "end$" },
				func(o *GrepOptions) { o.Pattern = "[0-9]" },
				func(o *GrepOptions) { o.Pattern = "a.b"; o.Fixed = true },
				func(o *GrepOptions) { o.Pattern = "sub/"; o.Fixed = true; o.IgnoreCase = true },
				func(o *GrepOptions) { o.Pattern = "line|upper" },
				func(o *GrepOptions) { o.Pattern = "x*" },
				func(o *GrepOptions) { o.Pattern = `\A[a-z]+ (in|upper)` },
				func(o *GrepOptions) { o.Pattern = `e[a-z]*\z` },
				func(o *GrepOptions) { o.Pattern = "\\bneedle\\b\\s+in" },
				func(o *GrepOptions) { o.Glob = "*.go" },
				func(o *GrepOptions) { o.Glob = "*.{go,md}" },
				func(o *GrepOptions) { o.Glob = "*.log" }, // must not re-include ignored logs
				func(o *GrepOptions) { o.Glob = "!*.go" },
				func(o *GrepOptions) { o.Glob = "!sub/" },
				func(o *GrepOptions) { o.Glob = "sub/**" },
				func(o *GrepOptions) { o.Glob = "sub/*" },
				func(o *GrepOptions) { o.Path = "sub" },
				func(o *GrepOptions) { o.Path = "sub"; o.Glob = "other/**" },
				func(o *GrepOptions) { o.Path = "sub"; o.Glob = "*.txt" },
				func(o *GrepOptions) { o.Path = "sub/other" },
				func(o *GrepOptions) { o.Path = "sub/.cache" },
				func(o *GrepOptions) { o.Path = "logs" },
				func(o *GrepOptions) { o.Path = "secret" },
				func(o *GrepOptions) { o.Path = "main.go" },
				func(o *GrepOptions) { o.Path = "bin.dat" },
				func(o *GrepOptions) { o.Context = 1 },
				func(o *GrepOptions) { o.Context = 2; o.HeadLimit = 3; o.Path = "many.txt" },
				func(o *GrepOptions) { o.Context = 1; o.MaxResults = 7 },
				func(o *GrepOptions) { o.HeadLimit = 2 },
				func(o *GrepOptions) { o.HeadLimit = 1; o.MaxResults = 5 },
				func(o *GrepOptions) { o.MaxResults = 26 },
				func(o *GrepOptions) { o.MaxResults = 3; o.MaxChars = 200 },
			}
			for i, v := range variants {
				o := base
				v(&o)
				t.Run(fmt.Sprint(i), func(t *testing.T) { grepBoth(t, o) })
			}
		})
	}
}

func TestGrepOutputFormat(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "target %d\n", i)
		} else {
			fmt.Fprintf(&b, "filler %d\n", i)
		}
	}
	writeFile(t, root, "b/f.txt", b.String())
	writeFile(t, root, "a.txt", "target "+strings.Repeat("é", 500)+"\n")
	writeFile(t, root, "c d.txt", "target\n")
	writeFile(t, root, "e.txt", "target\n")

	res := grepBoth(t, GrepOptions{Root: root, Pattern: "target", Context: 1, HeadLimit: 3})
	text := res.Text()
	wantStart := "a.txt:1: target " + strings.Repeat("é", MaxGrepLineChars-len("target ")) + "…\n" +
		"--\n" +
		"b/f.txt-9- filler 9\n" +
		"b/f.txt:10: target 10\n" +
		"b/f.txt-11- filler 11\n" +
		"--\n" +
		"b/f.txt-19- filler 19\n" +
		"b/f.txt:20: target 20\n" +
		"b/f.txt-21- filler 21\n" +
		"--\n" +
		"b/f.txt-29- filler 29\n" +
		"b/f.txt:30: target 30\n" +
		"b/f.txt-31- filler 31\n" +
		"b/f.txt: more matching lines not shown (head_limit 3)\n" +
		"--\n" +
		"c d.txt:1: target\n" +
		"--\n" +
		"e.txt:1: target\n" +
		"6 matches in 4 files\n" +
		"suggested reads:\n" +
		"a.txt lines 1-80\n" +
		"b/f.txt lines 1-80\n" +
		"c d.txt lines 1-80\n"
	if text != wantStart {
		t.Errorf("text:\n%s\nwant:\n%s", text, wantStart)
	}
	if res.Partial || !reflect.DeepEqual(res.CappedFiles, []string{"b/f.txt"}) || res.Matches != 6 || res.Files != 4 {
		t.Errorf("result: %+v", res)
	}

	res = grepBoth(t, GrepOptions{Root: root, Pattern: "target", MaxResults: 2})
	if !res.Partial || res.Matches != 2 {
		t.Errorf("max results: %+v", res)
	}
	if !strings.Contains(res.Text(), "2 matches in 2 files (partial)\nstopped at max_results 2 matching lines; more exist") {
		t.Errorf("partial text:\n%s", res.Text())
	}

	res = grepBoth(t, GrepOptions{Root: root, Pattern: "target", MaxChars: 60})
	text = res.Text()
	if !strings.Contains(text, "[output cut at 60 characters: ") || !strings.Contains(text, "narrow path, glob or the pattern]") {
		t.Errorf("budget text:\n%s", text)
	}
	body := text[:strings.Index(text, "[output cut")]
	if n := len([]rune(body)); n > 60 {
		t.Errorf("body of %d characters exceeds the budget", n)
	}

	res = grepBoth(t, GrepOptions{Root: root, Pattern: "target", Path: "b"})
	if want := []SuggestedRead{{Path: "b/f.txt", Offset: 1, Limit: 80}}; !reflect.DeepEqual(res.SuggestedReads, want) {
		t.Errorf("suggestions %+v", res.SuggestedReads)
	}
	res = grepBoth(t, GrepOptions{Root: root, Pattern: "target 30"})
	if want := []SuggestedRead{{Path: "b/f.txt", Offset: 10, Limit: 80}}; !reflect.DeepEqual(res.SuggestedReads, want) {
		t.Errorf("suggestions %+v", res.SuggestedReads)
	}

	js, _ := json.Marshal(res)
	for _, key := range []string{`"suggested_reads":[{"path":"b/f.txt","offset":10,"limit":80}]`, `"kind":"match"`, `"partial":false`} {
		if !strings.Contains(string(js), key) {
			t.Errorf("json lacks %s: %s", key, js)
		}
	}

	res = grepBoth(t, GrepOptions{Root: root, Pattern: "nothing here"})
	if res.Text() != "no matches for \"nothing here\"\n" {
		t.Errorf("no match text %q", res.Text())
	}
}

func TestGrepErrors(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.txt", "x\n")
	ctx := context.Background()
	cases := []struct {
		opts GrepOptions
		kind error
		msg  string
	}{
		{GrepOptions{Pattern: ""}, ErrEmptyPattern, "empty pattern"},
		{GrepOptions{Pattern: "a(b"}, ErrInvalidPattern, `invalid pattern "a(b": missing closing ): "a(b"`},
		{GrepOptions{Pattern: "x[z-a]"}, ErrInvalidPattern, `invalid pattern "x[z-a]": invalid character class range: "z-a"`},
		{GrepOptions{Pattern: "a\nb"}, ErrInvalidPattern, `invalid pattern "a\nb": must be one line`},
		{GrepOptions{Pattern: "x", Path: "nope"}, ErrNotFound, `path "nope" does not exist`},
		{GrepOptions{Pattern: "x", Engine: "grep"}, ErrBadOption, `engine "grep": want auto, rg or native`},
		{GrepOptions{Pattern: "x", Path: "../"}, ErrOutsideRoot, `path "../" is outside the project root`},
	}
	for _, c := range cases {
		c.opts.Root = root
		_, err := Grep(ctx, c.opts)
		if !errors.Is(err, c.kind) || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("Grep(%+v) = %v, want %q", c.opts, err, c.msg)
		}
	}
	// A fixed string is never a regexp error.
	if _, err := Grep(ctx, GrepOptions{Root: root, Pattern: "a(b", Fixed: true}); err != nil {
		t.Errorf("fixed: %v", err)
	}
}

// TestGrepNativeWithoutRG hides rg from PATH: auto must pick the native
// engine, and a pinned rg must fail clearly.
func TestGrepNativeWithoutRG(t *testing.T) {
	root := trickyTree(t)
	bin := t.TempDir()
	if gitAvailable() {
		git, _ := execLookPath("git")
		if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	res, err := Grep(context.Background(), GrepOptions{Root: root, Pattern: "needle", MaxResults: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != EngineNative {
		t.Errorf("engine %q", res.Engine)
	}
	if got := matchPaths(res); !reflect.DeepEqual(got, wantNeedleFiles) {
		t.Errorf("files:\n got %q\nwant %q", got, wantNeedleFiles)
	}
	if _, err := Grep(context.Background(), GrepOptions{Root: root, Pattern: "x", Engine: EngineRG}); !errors.Is(err, ErrNoRipgrep) {
		t.Errorf("pinned rg without rg: %v", err)
	}
}

// TestGrepRGFallback: a pattern Go accepts and rg 13 rejects falls back to
// the native engine under auto, and is an error when rg is pinned.
func TestGrepRGFallback(t *testing.T) {
	if !hasRG() {
		t.Skip("rg not installed")
	}
	root := t.TempDir()
	writeFile(t, root, "a.txt", "ab.c\n")
	res, err := Grep(context.Background(), GrepOptions{Root: root, Pattern: `a\Qb.c\E`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != EngineNative || res.Matches != 1 || len(res.Notes) == 0 || !strings.Contains(res.Notes[0], "ripgrep failed") {
		t.Errorf("fallback: %+v", res)
	}
	if _, err := Grep(context.Background(), GrepOptions{Root: root, Pattern: `a\Qb.c\E`, Engine: EngineRG}); err == nil {
		t.Error("pinned rg accepted a pattern rg rejects")
	}
}

func TestGrepTimeout(t *testing.T) {
	root := trickyTree(t)
	old := grepTimeout
	grepTimeout = time.Nanosecond
	t.Cleanup(func() { grepTimeout = old })
	for _, engine := range []string{EngineNative, EngineRG} {
		if engine == EngineRG && !hasRG() {
			continue
		}
		res, err := Grep(context.Background(), GrepOptions{Root: root, Pattern: "needle", Engine: engine})
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		if !res.Partial || !strings.Contains(strings.Join(res.Notes, "\n"), "search stopped after") {
			t.Errorf("%s: %+v", engine, res)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Grep(ctx, GrepOptions{Root: root, Pattern: "needle", Engine: EngineNative}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestSearcherLiteral(t *testing.T) {
	cases := []struct {
		expr string
		lit  string
		fold bool
	}{
		{"func .*Context", "Context", false},
		{"(?i)deadline exceeded", "deadline exceeded", true},
		{"a|b", "", false},
		{"(foo)+bar", "foo", false},
		{"x?", "", false},
	}
	for _, c := range cases {
		s := newSearcher(mustCompile(t, c.expr), c.expr, 10)
		if string(s.lit) != c.lit || s.fold != c.fold {
			t.Errorf("%q: lit %q fold %v, want %q %v", c.expr, s.lit, s.fold, c.lit, c.fold)
		}
	}
}

// TestGrepHiddenRoot: a project whose own directory (or an ancestor) is
// hidden is searched normally by both engines.
func TestGrepHiddenRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".config", "proj")
	writeFile(t, root, "a.go", "needle\n")
	writeFile(t, root, "sub/b.go", "needle\n")
	writeFile(t, root, ".hid/c.go", "needle\n")
	res := grepBoth(t, GrepOptions{Root: root, Pattern: "needle"})
	if got, want := matchPaths(res), []string{"a.go", "sub/b.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	res = grepBoth(t, GrepOptions{Root: root, Path: "sub", Pattern: "needle"})
	if got, want := matchPaths(res), []string{"sub/b.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}

// TestGrepExcludedPath: a Path inside a skipped or ignored directory is not
// searched, and the result says why.
func TestGrepExcludedPath(t *testing.T) {
	root := trickyTree(t)
	for path, why := range map[string]string{
		"node_modules":    "skipped directory",
		".hidden/h.go":    "skipped directory",
		"logs":            ".gitignore",
		"secret":          ".codectxignore",
		"sub/secret/s.go": ".codectxignore",
	} {
		res := grepBoth(t, GrepOptions{Root: root, Path: path, Pattern: "needle"})
		if res.Matches != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], why) || !strings.Contains(res.Text(), why) {
			t.Errorf("%s: %+v", path, res)
		}
	}
}

func TestLowerASCII(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	for off := 0; off < 9; off++ {
		src := append(append([]byte{}, all[off:]...), "Hello, WORLD! ÄÖÜ zZ@[`{"...)
		want := make([]byte, len(src))
		for i, c := range src {
			if 'A' <= c && c <= 'Z' {
				c += 32
			}
			want[i] = c
		}
		if got := lowerASCII(nil, src); !bytes.Equal(got, want) {
			t.Errorf("offset %d: got %q, want %q", off, got, want)
		}
	}
}

// TestGrepRepoBoundaries: a root below the top of a work tree obeys the
// .gitignore files above it, up to the top; a .gitignore above the work tree
// is not git's and obeys nothing.
func TestGrepRepoBoundaries(t *testing.T) {
	outer := t.TempDir()
	writeFile(t, outer, ".gitignore", "*.txt\n")
	repo := filepath.Join(outer, "repo")
	writeFile(t, repo, ".gitignore", "*.log\n")
	writeFile(t, repo, "a.txt", "needle\n")
	writeFile(t, repo, "sub/b.txt", "needle\n")
	writeFile(t, repo, "sub/c.log", "needle\n")
	initGitBare(t, repo)
	res := grepBoth(t, GrepOptions{Root: repo, Pattern: "needle"})
	if got, want := matchPaths(res), []string{"a.txt", "sub/b.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("repo root: %q, want %q", got, want)
	}
	res = grepBoth(t, GrepOptions{Root: filepath.Join(repo, "sub"), Pattern: "needle"})
	if got, want := matchPaths(res), []string{"b.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sub root: %q, want %q", got, want)
	}
}

func TestSearcherLineAnchors(t *testing.T) {
	content := []byte("bar\nfoo\nxfo\n")
	for _, expr := range []string{`\A[fg]o`, `^[fg]o`, `[fg]o\z`, `(?i)\A[FG]O`} {
		s := newSearcher(mustCompile(t, expr), expr, 10)
		var scratch []byte
		hits := s.search(content, &scratch)
		want := 2
		if strings.Contains(expr, `\z`) {
			want = 3 // "xfo" ends with "fo"; "foo" does not
		}
		if len(hits) != 1 || hits[0].line != want {
			t.Errorf("%s: hits %+v, want line %d", expr, hits, want)
		}
	}
}
