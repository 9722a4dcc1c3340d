package exact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolveInRoot(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "secret\n")
	root := t.TempDir()
	writeFile(t, root, "a/b.go", "package a\n")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "leak.txt")))
	must(os.Symlink(outside, filepath.Join(root, "leakdir")))
	must(os.Symlink("a/b.go", filepath.Join(root, "inside.go")))
	must(os.Symlink("a", filepath.Join(root, "adir")))
	must(os.Symlink(filepath.Join(outside, "nothing"), filepath.Join(root, "dangling")))

	ok := map[string]string{
		"":                               ".",
		".":                              ".",
		"a/b.go":                         "a/b.go",
		"a/../a/b.go":                    "a/b.go",
		"./a":                            "a",
		filepath.Join(root, "a", "b.go"): "a/b.go",
		"inside.go":                      "inside.go",
		"adir/b.go":                      "adir/b.go",
		"a/missing.go":                   "a/missing.go",
		"missing/dir/x":                  "missing/dir/x",
		"dangling":                       "dangling",
	}
	for p, want := range ok {
		abs, rel, err := ResolveInRoot(root, p)
		if err != nil {
			t.Errorf("ResolveInRoot(%q): %v", p, err)
			continue
		}
		if rel != want {
			t.Errorf("ResolveInRoot(%q) rel = %q, want %q", p, rel, want)
		}
		if wantAbs := filepath.Join(root, filepath.FromSlash(want)); abs != wantAbs {
			t.Errorf("ResolveInRoot(%q) abs = %q, want %q", p, abs, wantAbs)
		}
	}
	bad := []string{
		"../x", "a/../../x", "..", "/etc/passwd", filepath.Join(outside, "secret.txt"),
		"leak.txt", "leakdir", "leakdir/secret.txt", "leakdir/missing/x",
	}
	for _, p := range bad {
		_, _, err := ResolveInRoot(root, p)
		if !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("ResolveInRoot(%q) = %v, want ErrOutsideRoot", p, err)
			continue
		}
		if want := `path "` + p + `" is outside the project root ` + root; err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
	}
	if _, _, err := ResolveInRoot(filepath.Join(root, "nope"), "x"); !errors.Is(err, ErrNoRoot) {
		t.Errorf("missing root: %v", err)
	}
}

// TestResolveViaSymlinkedRoot: a root reached through a symbolic link still
// accepts absolute paths under either spelling.
func TestResolveViaSymlinkedRoot(t *testing.T) {
	real := t.TempDir()
	writeFile(t, real, "f.go", "package f\n")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"f.go", filepath.Join(link, "f.go"), filepath.Join(real, "f.go")} {
		if _, rel, err := ResolveInRoot(link, p); err != nil || rel != "f.go" {
			t.Errorf("ResolveInRoot(link, %q) = %q, %v", p, rel, err)
		}
	}
}

// TestConfinementEverywhere: glob, grep and read all refuse to leave the root.
func TestConfinementEverywhere(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "needle\n")
	root := t.TempDir()
	writeFile(t, root, "a.txt", "needle\n")
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "s.txt")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []string{"../", "out", outside, "out/secret.txt", "s.txt"} {
		if _, err := Read(ctx, ReadOptions{Root: root, File: p}); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Read %q: %v", p, err)
		}
		if _, err := Grep(ctx, GrepOptions{Root: root, Path: p, Pattern: "needle"}); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Grep %q: %v", p, err)
		}
		if _, err := Glob(ctx, GlobOptions{Root: root, Path: p, Pattern: "*"}); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Glob %q: %v", p, err)
		}
	}
	if _, err := Glob(ctx, GlobOptions{Root: root, Pattern: "../*"}); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Glob pattern ../*: %v", err)
	}
	// Grep of the root never reports the symlinked outside file.
	for _, engine := range []string{EngineNative, EngineRG} {
		if engine == EngineRG && !hasRG() {
			continue
		}
		res, err := Grep(ctx, GrepOptions{Root: root, Pattern: "needle", Engine: engine})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Lines) != 1 || res.Lines[0].Path != "a.txt" {
			t.Errorf("%s: lines %+v", engine, res.Lines)
		}
	}
}
