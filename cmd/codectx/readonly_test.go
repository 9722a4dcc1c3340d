package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"codectx/pkg/codectx"
)

// readCommands are the commands that only read the index.
func readCommands(proj string) [][]string {
	return [][]string{
		{"stats", proj},
		{"search", "alpha", "--root", proj},
		{"context", "alpha", "--root", proj},
		{"graph", "Alpha", "--root", proj},
		{"feedback", "--list", "--root", proj},
	}
}

// TestReadCommandsCreateNothing: a read command on a database that does not
// exist says so, with the hint, and creates neither the file nor its
// directory — whether the path comes from --db or from CODECTX_HOME.
func TestReadCommandsCreateNothing(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644)

	for _, viaHome := range []bool{false, true} {
		for _, args := range readCommands(proj) {
			missing := filepath.Join(dir, "nonexistent-dir")
			db := filepath.Join(missing, "x.db")
			if viaHome {
				t.Setenv("CODECTX_HOME", missing)
				db = filepath.Join(missing, "index.db")
			} else {
				args = append(args, "--db", db)
			}
			_, err := runCLI(t, args...)
			if err == nil {
				t.Fatalf("%v: no error", args)
			}
			if want := "codectx: no index at " + db + "; run codectx index\n"; printed(err) != want {
				t.Errorf("%v: printed %q, want %q", args, printed(err), want)
			}
			if !errors.Is(err, codectx.ErrNoIndex) {
				t.Errorf("%v: error is not ErrNoIndex: %v", args, err)
			}
			if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%v (home=%v) created %s", args, viaHome, missing)
			}
		}
	}
}
