package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"codectx/internal/query"
	"codectx/internal/scan"
	"codectx/internal/store"
)

// TestBadInputTree indexes a tree full of awkward files: none of them may
// fail the run, each skip is reported with its path and reason.
func TestBadInputTree(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"ok.go":                 "package a\n\nfunc OK() {}\n",
		"syntax.go":             "package a\n\nfunc (( {{{ broken\n",
		"empty.py":              "",
		"with space/ünïcode.go": "package b\n\nfunc Unicode() {}\n",
		"bad_utf8.py":           "def f():\n    return '\xff\xfe'\n",
		"binary.go":             "package a\x00\x01\x02",
		"new\nline.go":          "package a\n\nfunc Newline() {}\n",
		"long/one_line.js":      "var x = '" + strings.Repeat("a", 1<<20-20) + "';\n",
		"long/too_big.js":       strings.Repeat("x", 1<<20+10),
		"node_modules/dep/a.js": "function dep() {}\n",
		".hidden/secret.go":     "package hidden\n",
	})
	if err := os.Symlink(root, filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "ok.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	s := run(t, db, root, &fakeEmbedder{model: "fake:a"})
	if s.Failed != 0 {
		t.Fatalf("failed files: %+v", s.Warnings)
	}
	reasons := map[string]string{}
	for _, w := range s.Warnings {
		reasons[w.Path] = w.Reason
	}
	for path, want := range map[string]string{
		"binary.go":       "binary",
		"long/too_big.js": "too large",
		"link.go":         "symbolic link",
	} {
		if !strings.Contains(reasons[path], want) {
			t.Errorf("warning for %q = %q, want it to mention %q (all: %v)", path, reasons[path], want, reasons)
		}
	}
	paths := strings.Join(filePaths(t, db, root), "|")
	for _, want := range []string{"ok.go", "syntax.go", "with space/ünïcode.go", "bad_utf8.py", "new\nline.go", "long/one_line.js"} {
		if !strings.Contains("|"+paths+"|", "|"+want+"|") {
			t.Errorf("%q not indexed; have %q", want, paths)
		}
	}
	for _, bad := range []string{"node_modules", ".hidden", "binary.go", "too_big", "loop/", "link.go"} {
		if strings.Contains(paths, bad) {
			t.Errorf("%q should not be indexed: %q", bad, paths)
		}
	}
	var fallback int
	db.SQL().QueryRow("SELECT fallback FROM files WHERE path = 'syntax.go'").Scan(&fallback)
	if fallback != 1 {
		t.Error("a file with a top-level syntax error must fall back to text chunks")
	}
	assertConsistent(t, db)
}

// TestVanishedFile: a file that disappears between the scan and its read is
// reported, not fatal; an indexed one is removed.
func TestVanishedFile(t *testing.T) {
	f := scan.File{Path: "gone.go", Abs: filepath.Join(t.TempDir(), "gone.go"), Lang: "go"}
	o := work(job{file: f}, "m", query.IndexOptions{})
	if o.failed || o.warning == nil || !strings.Contains(o.warning.Reason, "vanished") || o.remove {
		t.Fatalf("new vanished file: %+v", o)
	}
	o = work(job{file: f, fp: &storeFingerprint}, "m", query.IndexOptions{})
	if !o.remove {
		t.Fatalf("indexed vanished file must be removed: %+v", o)
	}
}

var storeFingerprint = store.Fingerprint{ID: 1, SHA256: "x", Model: "m"}

// TestSkippedFilesLeaveGenerationAlone: a file skipped on every run (here a
// binary file with a source extension) writes nothing, so a run that
// changes nothing else keeps the project's generation and with it the
// search side files (rebuilding them costs a minute at a million chunks).
func TestSkippedFilesLeaveGenerationAlone(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"ok.go":     "package a\n\nfunc OK() {}\n",
		"binary.go": "package a\x00\x01\x02",
		"blob.py":   "\x00\x00\x00",
	})
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a"}
	run(t, db, root, emb)
	gen := func() int64 {
		p, err := db.Project(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		return p.Generation
	}
	before := gen()
	s := run(t, db, root, emb)
	if s.Changed != 0 {
		t.Fatalf("second run changed %d files", s.Changed)
	}
	if after := gen(); after != before {
		t.Fatalf("a run that changed nothing moved the generation %d → %d", before, after)
	}
	// A file whose stat changed but whose content did not is not a change either.
	now := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "ok.go"), now, now); err != nil {
		t.Fatal(err)
	}
	run(t, db, root, emb)
	if after := gen(); after != before {
		t.Fatalf("a touched file moved the generation %d → %d", before, after)
	}
	assertConsistent(t, db)
}
