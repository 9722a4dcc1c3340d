package scan

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// writeFile creates a file (and its directories) under root.
func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TrickyTree builds the fixture both scan modes must agree on. It returns
// the root.
func trickyTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		".gitignore":           "# comment\n*.log\n!keep.log\n/build.txt\ntmpdir/\nlogs/\n!logs/keep.txt\n",
		".codectxignore":       "secret/\n*.min.js\n!sub/vendor/\n",
		"main.go":              "package main\n",
		"readme.md":            "# readme\n",
		"notes.txt":            "notes\n",
		"build.txt":            "anchored: ignored\n",
		"sub/build.txt":        "kept: /build.txt is anchored to the root\n",
		"app.log":              "ignored\n",
		"keep.log":             "kept by negation\n",
		"sub/z.log":            "ignored at depth\n",
		"sub/keep.log":         "kept by negation at depth\n",
		"tmpdir/t.go":          "package tmpdir\n",
		"sub/tmpdir":           "a file, not a directory: kept\n",
		"logs/a.txt":           "ignored dir\n",
		"logs/keep.txt":        "cannot be re-included: parent excluded\n",
		"sub/.gitignore":       "*.gen.go\n!important.gen.go\ndeep/x.txt\n",
		"sub/a.gen.go":         "package sub\n",
		"sub/important.gen.go": "package sub\n",
		"sub/deep/x.txt":       "ignored: anchored to sub\n",
		"sub/other/deep/x.txt": "kept\n",
		"x.gen.go":             "package main\n",
		"sub/.codectxignore":   "/gen.txt\n!important.min.js\n",
		"sub/gen.txt":          "ignored\n",
		"gen.txt":              "kept\n",
		"sub/important.min.js": "kept by nested negation\n",
		"app.min.js":           "ignored\n",
		"secret/s.go":          "package secret\n",
		"sub/secret/s.go":      "package secret\n",
		".hidden/h.go":         "package hidden\n",
		"sub/.cache/c.go":      "package cache\n",
		"node_modules/n.js":    "x\n",
		"sub/vendor/v.go":      "package v\n",
		"sub/build/b.go":       "source: no build tool's project beside it\n",
		"app/package.json":     "{}\n",
		"app/dist/d.js":        "skipped: output of the package beside it\n",
		"app/target/t.go":      "package target; kept: target/ is output beside Cargo.toml or pom.xml\n",
		"rs/Cargo.toml":        "[package]\n",
		"rs/target/debug/g.rs": "skipped\n",
		".env":                 "A=1\n",
		"with space ü.go":      "package main\n",
		"new\nline.go":         "package main\n",
		"locked/l.go":          "package locked\n",
	}
	for rel, c := range files {
		writeFile(t, root, rel, c)
	}
	writeFile(t, root, "big.go", strings.Repeat("x", DefaultMaxFileSize+1))
	if err := os.Symlink("main.go", filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".", filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	return root
}

var wantAll = []string{
	".codectxignore", ".env", ".gitignore", "app/package.json", "app/target/t.go", "gen.txt", "keep.log",
	"locked/l.go", "main.go", "new\nline.go", "notes.txt", "readme.md", "rs/Cargo.toml",
	"sub/.codectxignore", "sub/.gitignore", "sub/build.txt", "sub/build/b.go", "sub/important.gen.go",
	"sub/important.min.js", "sub/keep.log", "sub/other/deep/x.txt", "sub/tmpdir", "sub/vendor/v.go", "with space ü.go",
	"x.gen.go",
}

var wantKnown = []string{
	"app/package.json", "app/target/t.go", "locked/l.go", "main.go", "new\nline.go", "readme.md",
	"rs/Cargo.toml", "sub/build/b.go", "sub/important.gen.go", "sub/important.min.js", "sub/vendor/v.go",
	"with space ü.go", "x.gen.go",
}

func paths(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func skips(s []Skip) []string {
	out := []string{}
	for _, k := range s {
		out = append(out, k.Path+" ("+k.Reason+")")
	}
	return out
}

// gitEnvForTest isolates git from the machine's configuration.
func gitEnvForTest(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
}

func runGit(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// initGit turns root into a repository with part of the files tracked, one
// tracked file deleted afterwards and the rest untracked.
func initGit(t *testing.T, root string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	gitEnvForTest(t)
	writeFile(t, root, "gone.go", "package gone\n")
	runGit(t, root, "init", "-q")
	runGit(t, root, "add", ".gitignore", "main.go", "sub", "gone.go", "link.go", "loop", "new\nline.go")
	runGit(t, root, "commit", "-q", "-m", "init")
	if err := os.Remove(filepath.Join(root, "gone.go")); err != nil {
		t.Fatal(err)
	}
}

func forceWalk(t *testing.T) {
	old := useGit
	useGit = func(string) bool { return false }
	t.Cleanup(func() { useGit = old })
}

func TestScanModesAgree(t *testing.T) {
	type mode struct {
		name string
		git  bool
	}
	for _, m := range []mode{{"walk", false}, {"git", true}} {
		t.Run(m.name, func(t *testing.T) {
			root := trickyTree(t)
			if m.git {
				initGit(t, root)
			} else {
				forceWalk(t)
			}
			locked := filepath.Join(root, "locked")
			if err := os.Chmod(locked, 0); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(locked, 0o755) })
			asRoot := os.Geteuid() == 0

			for _, all := range []bool{true, false} {
				res, err := Scan(context.Background(), root, Options{AllFiles: all})
				if err != nil {
					t.Fatal(err)
				}
				if res.Git != m.git {
					t.Errorf("Git = %v, want %v", res.Git, m.git)
				}
				want := wantKnown
				wantSkip := []string{"big.go (too large (1048577 bytes, over the 1 MiB limit))", "link.go (symbolic link)"}
				if all {
					want = wantAll
					wantSkip = append(wantSkip, "loop (symbolic link)")
				}
				if !asRoot {
					// locked/ cannot be read: reported, not listed.
					want = without(want, "locked/l.go")
					wantSkip = append(wantSkip, "locked/ (unreadable directory)")
				}
				sort.Strings(wantSkip)
				if got := paths(res.Files); !reflect.DeepEqual(got, want) {
					t.Errorf("AllFiles=%v files:\n got %q\nwant %q", all, got, want)
				}
				if got := skips(res.Skipped); !reflect.DeepEqual(got, wantSkip) {
					t.Errorf("AllFiles=%v skipped:\n got %q\nwant %q", all, got, wantSkip)
				}
				// Dependency and build-output directories left out (sub/vendor is
				// re-included by the root .codectxignore; hidden ones are not listed).
				if got, want := res.SkippedDirs, []string{"app/dist", "node_modules", "rs/target"}; !reflect.DeepEqual(got, want) {
					t.Errorf("AllFiles=%v skipped directories: got %q, want %q", all, got, want)
				}
			}
		})
	}
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

func TestScanFileFields(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a/b.py", "print(1)\n")
	mt := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "a/b.py"), mt, mt); err != nil {
		t.Fatal(err)
	}
	res, err := Scan(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 {
		t.Fatalf("files = %v", paths(res.Files))
	}
	f := res.Files[0]
	want := File{Path: "a/b.py", Abs: filepath.Join(root, "a", "b.py"), Size: 9, ModTime: mt.UnixNano(), Lang: "python"}
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
}

func TestScanSub(t *testing.T) {
	for _, git := range []bool{false, true} {
		root := trickyTree(t)
		if git {
			initGit(t, root)
		} else {
			forceWalk(t)
		}
		res, err := Scan(context.Background(), root, Options{AllFiles: true, Sub: "sub"})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range wantAll {
			if strings.HasPrefix(p, "sub/") {
				want = append(want, p)
			}
		}
		if got := paths(res.Files); !reflect.DeepEqual(got, want) {
			t.Errorf("git=%v:\n got %q\nwant %q", git, got, want)
		}
		if _, err := Scan(context.Background(), root, Options{Sub: "../x"}); err == nil {
			t.Error("Sub outside the root accepted")
		}
	}
}

func TestScanRootErrors(t *testing.T) {
	_, err := Scan(context.Background(), "/nonexistent/x", Options{})
	if err == nil || err.Error() != "scan: /nonexistent/x: no such directory" {
		t.Errorf("missing root: %v", err)
	}
	f := filepath.Join(t.TempDir(), "f.go")
	writeFile(t, filepath.Dir(f), "f.go", "x")
	_, err = Scan(context.Background(), f, Options{})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file root: %v", err)
	}
}

func TestScanCancelled(t *testing.T) {
	for _, git := range []bool{false, true} {
		root := trickyTree(t)
		if git {
			initGit(t, root)
		} else {
			forceWalk(t)
		}
		for i := 0; i < 300; i++ {
			writeFile(t, root, "many/f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"/"+strings.Repeat("y", i%5)+".go", "package x\n")
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Scan(ctx, root, Options{}); !errors.Is(err, context.Canceled) {
			t.Errorf("git=%v: err = %v, want context.Canceled", git, err)
		}
	}
}

// failFS makes one directory unreadable, whoever runs the test.
type failFS struct {
	fs.FS
	dir string
}

func (f failFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return fs.ReadDir(f.FS, name)
}

func TestWalkUnreadableDirectory(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.go", "package a\n")
	writeFile(t, root, "locked/b.go", "package b\n")
	writeFile(t, root, "z/c.go", "package c\n")
	s := &scanner{ctx: context.Background(), root: root, opts: Options{MaxFileSize: DefaultMaxFileSize}}
	s.fsys = failFS{FS: os.DirFS(root), dir: "locked"}
	s.cx = newIgnoreTree(s.fsys, CodectxIgnoreFile)
	if err := s.walk(); err != nil {
		t.Fatal(err)
	}
	res := s.result(false)
	if got, want := paths(res.Files), []string{"a.go", "z/c.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if got, want := skips(res.Skipped), []string{"locked/ (unreadable directory)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("skipped %q, want %q", got, want)
	}
}

func TestParseGitWarnings(t *testing.T) {
	in := "warning: could not open directory 'sub/locked/': Permission denied\nother\nwarning: could not open directory 'x y/': Permission denied\n"
	got := parseGitWarnings([]byte(in))
	if want := []string{"sub/locked", "x y"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLanguageOfAndBinary(t *testing.T) {
	cases := map[string]string{
		"a/b.go": "go", "X.JAVA": "java", "a.tsx": "tsx", "a.kts": "kotlin", "a.h": "c",
		"a.hpp": "cpp", "Makefile": "", "a.txt": "", "dir.go/file": "", ".gitignore": "",
		"a.yml": "yaml", "a.gradle": "gradle",
	}
	for p, want := range cases {
		if got := LanguageOf(p); got != want {
			t.Errorf("LanguageOf(%q) = %q, want %q", p, got, want)
		}
	}
	if IsBinary([]byte("hello\n")) || !IsBinary([]byte("he\x00llo")) {
		t.Error("IsBinary wrong on short input")
	}
	late := append([]byte(strings.Repeat("a", BinarySniffLen)), 0)
	if IsBinary(late) {
		t.Error("IsBinary looked past the first 4096 bytes")
	}
}

// BenchmarkScanGOROOT scans $GOROOT/src (the no-change re-index hot path).
func BenchmarkScanGOROOT(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT:", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skip("no $GOROOT/src")
	}
	for _, all := range []bool{false, true} {
		b.Run(map[bool]string{false: "known", true: "all"}[all], func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				res, err := Scan(context.Background(), root, Options{AllFiles: all})
				if err != nil {
					b.Fatal(err)
				}
				n = len(res.Files)
			}
			b.ReportMetric(float64(n), "files")
		})
	}
}

func TestCodectxIgnoreLines(t *testing.T) {
	root := trickyTree(t)
	writeFile(t, root, "node_modules/.codectxignore", "never read\n")
	writeFile(t, root, "secret/.codectxignore", "never read: the directory is ignored\n")
	lines, err := CodectxIgnoreLines(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"secret/", "*.min.js", "!/sub/vendor/", "/sub/gen.txt", "!/sub/**/important.min.js"}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("got %q, want %q", lines, want)
	}
}

// A build tool's output directory is skipped only beside a project file of
// that tool; the same name elsewhere is source (Go's go/build, cmd/dist).
func TestSkippedDir(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"go/build/build.go", "cmd/dist/main.go", "web/package.json", "jvm/pom.xml", "rs/Cargo.toml", "py/pyproject.toml", "ide/.idea/x.xml"} {
		writeFile(t, root, f, "x\n")
	}
	for rel, want := range map[string]bool{
		"go/build": false, "cmd/dist": false, "build": false, "web/build": true, "web/dist": true, "web/out": true,
		"web/target": false, "jvm/target": true, "rs/target": true, "rs/dist": false, "py/dist": true, "py/build": true,
		"ide/out": true, "node_modules": true, "a/b/vendor": true, "a/.cache": true, "src": false,
	} {
		if got := SkippedDir(root, rel, nil); got != want {
			t.Errorf("SkippedDir(%q) = %v, want %v", rel, got, want)
		}
	}
	for _, c := range []struct {
		rel  string
		dir  bool
		want string
	}{
		{"web/dist/a/b.js", false, "web/dist"}, {"web/dist", true, "web/dist"}, {"web/dist", false, ""},
		{"go/build/build.go", false, ""}, {"x/node_modules/y/z.js", false, "x/node_modules"}, {"a.go", false, ""},
		{".git/config", false, ".git"},
	} {
		got, ok := SkippedAncestor(root, c.rel, c.dir, nil)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("SkippedAncestor(%q, dir %v) = %q, %v; want %q", c.rel, c.dir, got, ok, c.want)
		}
	}
}

// A line of the root's .codectxignore re-includes a skipped directory;
// .git never, and a nested file's lines do not.
func TestSkippedDirReincluded(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "web/package.json", "{}\n")
	writeFile(t, root, CodectxIgnoreFile, "!vendor/\n!web/dist/\n!.github/\n!.git/\n!node_modules/keep/\n")
	writeFile(t, root, "a/"+CodectxIgnoreFile, "!node_modules/\n")
	cx := NewIgnoreChecker(root, CodectxIgnoreFile)
	if !cx.Negations() {
		t.Fatal("Negations: false")
	}
	for rel, want := range map[string]bool{
		"vendor": false, "x/vendor": false, "web/dist": false, ".github": false, ".git": true, "sub/.git": true,
		".cache": true, "node_modules": true, "a/node_modules": true, "node_modules/keep": false,
	} {
		if got := SkippedDir(root, rel, cx); got != want {
			t.Errorf("SkippedDir(%q) = %v, want %v", rel, got, want)
		}
	}
	if d, ok := SkippedAncestor(root, "node_modules/keep/x.js", false, cx); !ok || d != "node_modules" {
		t.Errorf("SkippedAncestor(node_modules/keep/x.js) = %q, %v: the parent is still skipped", d, ok)
	}
	if NewIgnoreChecker(t.TempDir(), CodectxIgnoreFile).Negations() {
		t.Error("Negations without a file")
	}
}
