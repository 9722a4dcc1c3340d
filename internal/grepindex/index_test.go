package grepindex

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// age sets every mtime under root to d ago (children before parents).
func age(t *testing.T, root string, d time.Duration) {
	t.Helper()
	at := time.Now().Add(-d)
	var all []string
	if err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		all = append(all, p)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := len(all) - 1; i >= 0; i-- {
		if err := os.Chtimes(all[i], at, at); err != nil {
			t.Fatal(err)
		}
	}
}

func candidates(t *testing.T, ix *Index, expr, sub string) ([]string, *Selection) {
	t.Helper()
	sel, ok, err := ix.Select(context.Background(), expr, sub, 1<<20)
	if err != nil || !ok {
		t.Fatalf("select %q: ok %v err %v", expr, ok, err)
	}
	var out []string
	for _, f := range sel.Files {
		out = append(out, f.Path)
	}
	return out, sel
}

func TestSelectAndUpdate(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "a.go", "package a\nfunc Alpha() {}\n")
	write(t, root, "b/b.go", "package b\nfunc Beta() {}\n")
	write(t, root, "b/c.txt", "ALPHA in upper case\n")
	write(t, root, "bin.dat", "Alpha\x00binary\n")
	write(t, root, "big.txt", "Alpha "+strings.Repeat("x", 2<<20))
	age(t, root, time.Hour)
	path := filepath.Join(t.TempDir(), "g.tri")
	opt := BuildOptions{MaxFileSize: 1 << 20}
	if rebuilt, err := Update(ctx, root, path, opt); err != nil || !rebuilt {
		t.Fatalf("first Update: rebuilt %v, %v", rebuilt, err)
	}
	if rebuilt, err := Update(ctx, root, path, opt); err != nil || rebuilt {
		t.Fatalf("Update without changes: rebuilt %v, %v", rebuilt, err)
	}
	ix, err := Open(path, root)
	if err != nil {
		t.Fatal(err)
	}
	got, sel := candidates(t, ix, "(?i)alpha", "")
	if want := []string{"a.go", "b/c.txt"}; !reflect.DeepEqual(got, want) || !sel.Listed || sel.Changed != 0 {
		t.Errorf("(?i)alpha: %q listed %v changed %d, want %q, listed, 0 changed", got, sel.Listed, sel.Changed, want)
	}
	if got, _ := candidates(t, ix, "Beta|Gamma", ""); !reflect.DeepEqual(got, []string{"b/b.go"}) {
		t.Errorf("Beta|Gamma: %q", got)
	}
	if got, _ := candidates(t, ix, "alpha", "b"); !reflect.DeepEqual(got, []string{"b/c.txt"}) {
		t.Errorf("alpha under b: %q", got)
	}
	if _, ok, _ := ix.Select(ctx, "[0-9]", "", 1<<20); ok {
		t.Error("a pattern without trigrams was narrowed")
	}
	if _, ok, _ := ix.Select(ctx, "alpha", "", 2<<20); ok {
		t.Error("an index of another size limit was used")
	}

	// One file edited in place: read directly, the index is kept.
	write(t, root, "b/b.go", "package b\nfunc Gamma() {}\n")
	at := time.Now().Add(-30 * time.Minute)
	os.Chtimes(filepath.Join(root, "b/b.go"), at, at)
	if got, sel := candidates(t, ix, "Gamma", ""); !reflect.DeepEqual(got, []string{"b/b.go"}) || sel.Changed != 1 || !sel.Listed {
		t.Errorf("Gamma after an edit: %q changed %d listed %v", got, sel.Changed, sel.Listed)
	}
	if rebuilt, err := Update(ctx, root, path, opt); err != nil || rebuilt {
		t.Errorf("Update after one edit: rebuilt %v, %v", rebuilt, err)
	}

	// A new file: the listing no longer holds; the scan finds it.
	write(t, root, "b/d.txt", "gamma too\n")
	if got, sel := candidates(t, ix, "(?i)gamma", ""); !reflect.DeepEqual(got, []string{"b/b.go", "b/d.txt"}) || sel.Listed {
		t.Errorf("gamma after an addition: %q listed %v", got, sel.Listed)
	}
	ix.Close()
	age(t, root, 20*time.Minute)
	if rebuilt, err := Update(ctx, root, path, opt); err != nil || !rebuilt {
		t.Errorf("Update after an addition: rebuilt %v, %v", rebuilt, err)
	}
	ix, err = Open(path, root)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, sel := candidates(t, ix, "(?i)gamma", ""); !reflect.DeepEqual(got, []string{"b/b.go", "b/d.txt"}) || !sel.Listed || sel.Changed != 0 {
		t.Errorf("gamma after the rebuild: %q listed %v changed %d", got, sel.Listed, sel.Changed)
	}
}

func TestOpenRejects(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tri")
	os.WriteFile(bad, []byte("not an index"), 0o644)
	if _, err := Open(bad, dir); err == nil {
		t.Error("opened a file that is not an index")
	}
	root := t.TempDir()
	write(t, root, "a.txt", "hello\n")
	path := filepath.Join(dir, "g.tri")
	if err := WriteFile(context.Background(), root, path, BuildOptions{MaxFileSize: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, dir); err == nil {
		t.Error("opened the index of another root")
	}
	data, _ := os.ReadFile(path)
	for _, cut := range []int{10, headerSize, len(data) - 1} {
		os.WriteFile(bad, data[:cut], 0o644)
		if _, err := Open(bad, root); err == nil {
			t.Errorf("opened an index cut at %d bytes", cut)
		}
	}
}

// FuzzParse: a damaged index is refused or read without panicking.
func FuzzParse(f *testing.F) {
	root := f.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello world\nHELLO\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("other words\n"), 0o644)
	path := filepath.Join(f.TempDir(), "g.tri")
	if err := WriteFile(context.Background(), root, path, BuildOptions{MaxFileSize: 1 << 20}); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, d []byte) {
		ix, err := parse(d)
		if err != nil {
			return
		}
		ix.eval(queryOf(t, "hello|words"))
		ix.find("a.txt")
		ix.scope("b")
	})
}

// TestRacyWindow: whole-second mtimes everywhere mean a coarse file system
// and the long window; one fraction of a second means fine times.
func TestRacyWindow(t *testing.T) {
	sec := int64(time.Second)
	coarse := &builder{files: []fileEnt{{mtime: 5 * sec}}, dirs: []dirEnt{{mtime: 7 * sec}}}
	fine := &builder{files: []fileEnt{{mtime: 5 * sec}}, dirs: []dirEnt{{mtime: 7*sec + 1234}}}
	if fineTimes(coarse) || !fineTimes(fine) {
		t.Errorf("fineTimes: coarse %v, fine %v", fineTimes(coarse), fineTimes(fine))
	}
	if racyWindow(0) != coarseWindow || racyWindow(flagFineTime) != fineWindow {
		t.Error("racyWindow does not follow the flag")
	}
}
