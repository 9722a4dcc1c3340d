package grepindex

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// TestIncrementalBuild: a build that reuses the previous index for the
// unchanged files writes the same files and posting lists as a full build.
func TestIncrementalBuild(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	words := []string{"alpha", "Beta", "gamma", "DELTA", "epsilon", "zeta", "eta", "theta"}
	for i := 0; i < 60; i++ {
		var b strings.Builder
		for k := 0; k <= i%7; k++ {
			b.WriteString(words[(i+k)%len(words)] + " line\n")
		}
		write(t, root, filepath.Join("d"+string(rune('a'+i%5)), "f"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+".txt"), b.String())
	}
	write(t, root, "keep/same.txt", "sigma line\n")
	age(t, root, time.Hour)
	opt := BuildOptions{MaxFileSize: 1 << 10}
	dir := t.TempDir()
	prevPath := filepath.Join(dir, "prev.tri")
	if err := WriteFile(ctx, root, prevPath, opt); err != nil {
		t.Fatal(err)
	}
	prev, err := Open(prevPath, root)
	if err != nil {
		t.Fatal(err)
	}
	defer prev.Close()

	write(t, root, "da/fa.txt", "rewritten omega\n")
	write(t, root, "db/new.txt", "brand new alpha omega\n")
	write(t, root, "new/dir.txt", "kappa\n")
	write(t, root, "dc/big.txt", strings.Repeat("big ", 400))
	write(t, root, "dd/bin.txt", "alpha\x00binary\n")
	if err := os.Remove(filepath.Join(root, "de", "fe.txt")); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	at := time.Now().Add(-30 * time.Minute)
	for _, rel := range []string{"da/fa.txt", "db/new.txt", "new/dir.txt", "dc/big.txt", "dd/bin.txt"} {
		if err := os.Chtimes(filepath.Join(root, rel), at, at); err != nil {
			t.Fatal(err)
		}
	}

	incPath, fullPath := filepath.Join(dir, "inc.tri"), filepath.Join(dir, "full.tri")
	incOpt := opt
	incOpt.Prev = prev
	if err := WriteFile(ctx, root, incPath, incOpt); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(ctx, root, fullPath, opt); err != nil {
		t.Fatal(err)
	}
	inc, err := Open(incPath, root)
	if err != nil {
		t.Fatal(err)
	}
	defer inc.Close()
	full, err := Open(fullPath, root)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	if inc.nFiles != full.nFiles || inc.nTris != full.nTris {
		t.Fatalf("incremental: %d files %d trigrams, full: %d files %d trigrams", inc.nFiles, inc.nTris, full.nFiles, full.nTris)
	}
	for i := 0; i < full.nFiles; i++ {
		pi, _ := inc.filePath(i)
		pf, _ := full.filePath(i)
		si, mi, fi := inc.fileState(i)
		sf, mf, ff := full.fileState(i)
		if pi != pf || si != sf || mi != mf || fi != ff {
			t.Errorf("file %d: incremental %s %d %d %d, full %s %d %d %d", i, pi, si, mi, fi, pf, sf, mf, ff)
		}
	}
	for k := 0; k < full.nTris; k++ {
		ti, _, _ := inc.triAt(k)
		tf, _, _ := full.triAt(k)
		if a, b := inc.postingsAt(k), full.postingsAt(k); ti != tf || !reflect.DeepEqual(a, b) {
			t.Errorf("trigram %06x: incremental %v, full %06x %v", ti, a, tf, b)
		}
	}
	sel, ok, err := inc.Select(ctx, "omega", "", 1<<10)
	if err != nil || !ok || len(sel.Files) != 2 || sel.Files[0].Path != "da/fa.txt" || sel.Files[1].Path != "db/new.txt" {
		t.Errorf("omega: ok %v err %v %+v", ok, err, sel)
	}

	// Reuse is by size and mtime: a file rewritten to the same size with
	// its old mtime keeps its old trigrams (which proves they were reused).
	same := filepath.Join(root, "keep", "same.txt")
	fi, err := os.Lstat(same)
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "keep/same.txt", "taupe line\n")
	if err := os.Chtimes(same, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(ctx, root, incPath, incOpt); err != nil {
		t.Fatal(err)
	}
	inc2, err := Open(incPath, root)
	if err != nil {
		t.Fatal(err)
	}
	defer inc2.Close()
	q := queryOf(t, "sigma")
	ids, _ := inc2.eval(q)
	if i, _ := inc2.find("keep/same.txt"); !slices.Contains(ids, uint32(i)) {
		t.Error("the unchanged file's trigrams were not taken from the previous index")
	}
}
