package exact

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// trickyTree is a project exercising every selection rule; each file holds
// "needle" lines so a grep shows which files were searched.
func trickyTree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	n := func(rel string) string { return "needle in " + rel + "\nother line\nNEEDLE upper\n" }
	files := []string{
		"main.go", "readme.md", "notes.txt", "build.txt", "sub/build.txt", "app.log", "keep.log",
		"sub/z.log", "sub/keep.log", "tmpdir/t.go", "sub/tmpdir", "logs/a.txt", "logs/keep.txt",
		"sub/a.gen.go", "sub/important.gen.go", "sub/deep/x.txt", "sub/other/deep/x.txt", "x.gen.go",
		"sub/gen.txt", "gen.txt", "sub/important.min.js", "app.min.js", "secret/s.go", "sub/secret/s.go",
		".hidden/h.go", "sub/.cache/c.go", "node_modules/n.js", "sub/vendor/v.go", "sub/build/b.go",
		".env", "with space ü.go", "new\nline.go", "a.go", "a/b.go", "a-b.go", "A.go",
		"ignored.rg", "docs/rg.txt", "web/package.json", "web/dist/d.js", "web/src/app.js",
	}
	for _, f := range files {
		writeFile(t, root, f, n(f))
	}
	writeFile(t, root, ".gitignore", "# comment\n*.log\n!keep.log\n/build.txt\ntmpdir/\nlogs/\n!logs/keep.txt\n")
	writeFile(t, root, ".codectxignore", "secret/\n*.min.js\n!sub/vendor/\n")
	writeFile(t, root, "sub/.gitignore", "*.gen.go\n!important.gen.go\ndeep/x.txt\n")
	writeFile(t, root, "sub/.codectxignore", "/gen.txt\n!important.min.js\n")
	writeFile(t, root, "big.txt", "needle big\n"+strings.Repeat("x", MaxGrepFileSize))
	writeFile(t, root, "bin.dat", "needle\x00binary\n")
	writeFile(t, root, "late.bin", "needle early\n"+strings.Repeat("y\n", 100000)+"\x00late NUL\n")
	writeFile(t, root, "crlf.txt", "needle crlf\r\nend$\r\n")
	writeFile(t, root, "long.txt", "needle "+strings.Repeat("z", 1000)+"\n")
	writeFile(t, root, "bad.txt", "needle \xff\xfe bytes\n")
	writeFile(t, root, "many.txt", strings.Repeat("needle many\n", 30))
	writeFile(t, root, "kelvin.txt", "\u212a needle with kelvin\nſ long s needle\n")
	if err := os.Symlink("main.go", filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".", filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	return root
}

func gitAvailable() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// initGitBare makes root a repository with nothing tracked.
func initGitBare(t testing.TB, root string) {
	t.Helper()
	if !gitAvailable() {
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// initGit makes root a repository with some files tracked, the rest
// untracked; git reads no user or system configuration.
func initGit(t testing.TB, root string) {
	t.Helper()
	if !gitAvailable() {
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	run("add", ".gitignore", "main.go", "sub", "a", "link.go")
	run("commit", "-q", "-m", "init")
}

func hasRG() bool {
	_, err := exec.LookPath("rg")
	return err == nil
}

func execLookPath(name string) (string, error) { return exec.LookPath(name) }

func mustCompile(t testing.TB, expr string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	return re
}
