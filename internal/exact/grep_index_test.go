package exact

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"codectx/internal/grepindex"
)

// ageTree sets the mtimes of every file and directory under root (not
// following links) to d ago, so that the index trusts what it records
// (entries modified right before a build are always read again).
func ageTree(t *testing.T, root string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	var dirs []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			return nil
		case e.IsDir():
			dirs = append(dirs, p)
			return nil
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(dirs) - 1; i >= 0; i-- { // children first: touching one changes nothing above
		if err := os.Chtimes(dirs[i], old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// buildGrepIndex writes the grep index of root and opens it.
func buildGrepIndex(t *testing.T, root string) *grepindex.Index {
	t.Helper()
	path := filepath.Join(t.TempDir(), "grep.tri")
	if err := grepindex.WriteFile(context.Background(), root, path, grepindex.BuildOptions{MaxFileSize: MaxGrepFileSize}); err != nil {
		t.Fatal(err)
	}
	ix, err := grepindex.Open(path, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// grepIndexed runs a search through the index and the same search with
// ripgrep (the native engine when rg is missing) and requires identical
// results and texts.
func grepIndexed(t *testing.T, ix *grepindex.Index, opts GrepOptions) *GrepResult {
	t.Helper()
	ref := opts
	ref.Engine = EngineRG
	if !hasRG() {
		ref.Engine = EngineNative
	}
	want, err := Grep(context.Background(), ref)
	if err != nil {
		t.Fatalf("%s %+v: %v", ref.Engine, ref, err)
	}
	opts.Index = ix
	got, err := Grep(context.Background(), opts)
	if err != nil {
		t.Fatalf("indexed %+v: %v", opts, err)
	}
	if a, b := comparable(got), comparable(want); !reflect.DeepEqual(a, b) {
		t.Errorf("indexed (engine %s) and %s disagree on %q %+v:\n%s", got.Engine, want.Engine, opts.Pattern, opts, diffResults(&a, &b))
	}
	if got.Text() != want.Text() {
		t.Errorf("texts differ on %+v:\nindexed:\n%s\n%s:\n%s", opts, got.Text(), want.Engine, want.Text())
	}
	return got
}

// indexedVariants are the searches compared through the index: literals,
// case-insensitive, alternation, classes, anchors, fixed strings, globs,
// paths, context and budgets.
var indexedVariants = []func(o *GrepOptions){
	func(o *GrepOptions) {},
	func(o *GrepOptions) { o.IgnoreCase = true },
	func(o *GrepOptions) { o.Pattern = "(?i)needle" },
	func(o *GrepOptions) { o.Pattern = "NEEDLE" },
	func(o *GrepOptions) { o.Pattern = "KNEEDLE"; o.IgnoreCase = true },
	func(o *GrepOptions) { o.Pattern = "k needle"; o.IgnoreCase = true },
	func(o *GrepOptions) { o.Pattern = "s needle"; o.IgnoreCase = true },
	func(o *GrepOptions) { o.Pattern = "long s needle"; o.IgnoreCase = true },
	func(o *GrepOptions) { o.Pattern = "^needle in [a-z]+\\.go$" },
	func(o *GrepOptions) { o.Pattern = "^other" },
	func(o *GrepOptions) { o.Pattern = "upper$" },
	func(o *GrepOptions) { o.Pattern = "crlf$" },
	func(o *GrepOptions) { o.Pattern = "end\\$" },
	func(o *GrepOptions) { o.Pattern = "[0-9]" },
	func(o *GrepOptions) { o.Pattern = "ne[e]dle [ib]n" },
	func(o *GrepOptions) { o.Pattern = "need[^x]e" },
	func(o *GrepOptions) { o.Pattern = "a.b"; o.Fixed = true },
	func(o *GrepOptions) { o.Pattern = "in sub/"; o.Fixed = true; o.IgnoreCase = true },
	func(o *GrepOptions) { o.Pattern = "needle (in|big)"; o.Fixed = true },
	func(o *GrepOptions) { o.Pattern = "other line|NEEDLE upper|zebra" },
	func(o *GrepOptions) { o.Pattern = "(zebra|giraffe)s? stripes?" },
	func(o *GrepOptions) { o.Pattern = "x*" },
	func(o *GrepOptions) { o.Pattern = "\\xff\\xfe" },
	func(o *GrepOptions) { o.Pattern = "needle \\x{FFFD}" },
	func(o *GrepOptions) { o.Pattern = `\A[a-z]+ (in|upper)` },
	func(o *GrepOptions) { o.Pattern = "\\bneedle\\b\\s+in" },
	func(o *GrepOptions) { o.Pattern = "needle.*binary" },
	func(o *GrepOptions) { o.Pattern = "needle big" },
	func(o *GrepOptions) { o.Pattern = "late NUL" },
	func(o *GrepOptions) { o.Pattern = "zzzzzzzz" },
	func(o *GrepOptions) { o.Glob = "*.go" },
	func(o *GrepOptions) { o.Glob = "*.{go,md}" },
	func(o *GrepOptions) { o.Glob = "*.log" },
	func(o *GrepOptions) { o.Glob = "!*.go" },
	func(o *GrepOptions) { o.Glob = "sub/**" },
	func(o *GrepOptions) { o.Path = "sub" },
	func(o *GrepOptions) { o.Path = "sub"; o.Glob = "*.txt" },
	func(o *GrepOptions) { o.Path = "sub/other" },
	func(o *GrepOptions) { o.Path = "logs" },
	func(o *GrepOptions) { o.Path = "main.go" },
	func(o *GrepOptions) { o.Context = 1 },
	func(o *GrepOptions) { o.Context = 1; o.MaxResults = 7 },
	func(o *GrepOptions) { o.HeadLimit = 2 },
	func(o *GrepOptions) { o.MaxResults = 3; o.MaxChars = 200 },
}

// TestGrepIndexedAgreesWithRG compares indexed grep with ripgrep on the
// fixture tree, then after editing files in place (the recorded listing
// still holds), then after adding and deleting files (it does not).
func TestGrepIndexedAgreesWithRG(t *testing.T) {
	if !hasRG() {
		t.Log("rg not installed: indexed grep is compared with the native engine")
	}
	for _, mode := range []string{"walk", "git"} {
		t.Run(mode, func(t *testing.T) {
			root := trickyTree(t)
			if mode == "git" {
				initGit(t, root)
			}
			ageTree(t, root, time.Hour)
			ix := buildGrepIndex(t, root)
			base := GrepOptions{Root: root, Pattern: "needle", MaxResults: 1000}
			compareAll := func(t *testing.T, phase string) {
				for i, v := range indexedVariants {
					o := base
					v(&o)
					t.Run(fmt.Sprintf("%s/%d", phase, i), func(t *testing.T) { grepIndexed(t, ix, o) })
				}
			}
			res := grepIndexed(t, ix, base)
			if res.Engine != EngineIndex {
				t.Errorf("engine %q, want %q", res.Engine, EngineIndex)
			}
			sel := selectAll(t, ix, "needle")
			if want := mode == "walk"; sel.Listed != want {
				t.Errorf("listing trusted = %v, want %v", sel.Listed, want)
			}
			if sel.Changed != 0 {
				t.Errorf("%d files changed right after the build, want 0", sel.Changed)
			}
			compareAll(t, "built")

			// In place: another size, the same size, and a file without the
			// literal before that now has it; directories untouched.
			edit(t, root, "notes.txt", "zebra stripes\nneedle moved\n")
			edit(t, root, "main.go", strings.Replace(readString(t, root, "main.go"), "needle", "zebra ", 1))
			edit(t, root, "sub/build.txt", "giraffe stripe\nNEEDLE\n")
			sel = selectAll(t, ix, "zebra")
			if want := mode == "walk"; sel.Listed != want {
				t.Errorf("after edits in place: listing trusted = %v, want %v", sel.Listed, want)
			}
			if sel.Changed != 3 {
				t.Errorf("after edits in place: %d files changed, want 3", sel.Changed)
			}
			compareAll(t, "edited")

			// An ignore file edited in place changes which files are listed.
			edit(t, root, "sub/.gitignore", "*.gen.go\n!important.gen.go\n")
			if sel := selectAll(t, ix, "zebra"); sel.Listed {
				t.Error("listing trusted after an ignore file changed")
			}
			compareAll(t, "ignore")

			// Added, deleted and replaced files change directories.
			writeFile(t, root, "sub/new.go", "needle new\nzebra new\n")
			writeFile(t, root, "fresh/dir/x.txt", "NEEDLE fresh\ngiraffes stripes\n")
			if err := os.Remove(filepath.Join(root, "a.go")); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(root, "kelvin.txt")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, "kelvin.txt", "now plain\n")
			if sel := selectAll(t, ix, "zebra"); sel.Listed {
				t.Error("listing trusted after files were added and removed")
			}
			compareAll(t, "changed")

			// Rebuilt from the old index (unchanged files keep their trigrams).
			at := time.Now().Add(-10 * time.Minute)
			for _, rel := range []string{"sub/new.go", "fresh/dir/x.txt", "kelvin.txt", "fresh/dir", "fresh", "sub", "."} {
				if err := os.Chtimes(filepath.Join(root, rel), at, at); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(t.TempDir(), "grep2.tri")
			if err := grepindex.WriteFile(context.Background(), root, path, grepindex.BuildOptions{MaxFileSize: MaxGrepFileSize, Prev: ix}); err != nil {
				t.Fatal(err)
			}
			rebuilt, err := grepindex.Open(path, root)
			if err != nil {
				t.Fatal(err)
			}
			defer rebuilt.Close()
			ix = rebuilt // compareAll searches through it
			if sel := selectAll(t, ix, "zebra"); sel.Changed != 0 || sel.Listed != (mode == "walk") {
				t.Errorf("after the incremental rebuild: %d changed, listing trusted %v", sel.Changed, sel.Listed)
			}
			compareAll(t, "rebuilt")
		})
	}
}

func selectAll(t *testing.T, ix *grepindex.Index, expr string) *grepindex.Selection {
	t.Helper()
	sel, ok, err := ix.Select(context.Background(), expr, "", MaxGrepFileSize)
	if err != nil || !ok {
		t.Fatalf("select %q: ok %v, %v", expr, ok, err)
	}
	return sel
}

// edit rewrites a file with a new mtime half an hour ago (neither the
// recorded one nor too recent to trust).
func edit(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-30 * time.Minute)
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
