//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"codectx/pkg/codectx"
)

// TestReadOnlyDatabase: on a database file or directory this process may not
// write, read commands work and index fails with one line naming the path
// and "read-only". Root ignores permissions, so as root the checks run in a
// child process with the uid of nobody.
func TestReadOnlyDatabase(t *testing.T) {
	if c := os.Getenv("CODECTX_RO_CHILD"); c != "" {
		readOnlyChecks(t, os.Getenv("CODECTX_RO_PROJ"), os.Getenv("CODECTX_RO_DB"))
		return
	}
	t.Setenv("EMBEDDING_PROVIDER", "local")
	for _, what := range []string{"file", "directory"} {
		t.Run(what, func(t *testing.T) {
			base := t.TempDir()
			os.Chmod(base, 0o755)
			os.Chmod(filepath.Dir(base), 0o755) // t.TempDir's parent is private
			proj := filepath.Join(base, "proj")
			os.MkdirAll(proj, 0o755)
			os.WriteFile(filepath.Join(proj, "a.go"), []byte("package a\n\n// Alpha does alpha things.\nfunc Alpha() { Beta() }\n\nfunc Beta() {}\n"), 0o644)
			dbDir := filepath.Join(base, "db")
			os.MkdirAll(dbDir, 0o755)
			db := filepath.Join(dbDir, "index.db")
			if _, err := runCLI(t, "index", proj, "--db", db); err != nil {
				t.Fatal(err)
			}
			if what == "file" {
				os.Chmod(db, 0o444)
			} else {
				os.Chmod(dbDir, 0o555)
				t.Cleanup(func() { os.Chmod(dbDir, 0o755) })
			}
			if os.Getuid() != 0 {
				readOnlyChecks(t, proj, db)
				return
			}
			runAsNobody(t, "^TestReadOnlyDatabase$", "CODECTX_RO_CHILD=1", "CODECTX_RO_PROJ="+proj, "CODECTX_RO_DB="+db)
		})
	}
}

func readOnlyChecks(t *testing.T, proj, db string) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	for _, args := range readCommands(proj) {
		if args[0] == "feedback" {
			continue // feedback --list reads, but the command records votes too; checked below
		}
		out, err := runCLI(t, append(args, "--db", db)...)
		if err != nil {
			t.Errorf("%v on a read-only database: %v", args, err)
		} else if args[0] == "search" && !strings.Contains(out, "a.go") {
			t.Errorf("search found nothing on a read-only database:\n%s", out)
		}
	}
	_, err := runCLI(t, "index", proj, "--db", db)
	if err == nil {
		t.Fatal("index on a read-only database succeeded")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, db) || !strings.Contains(msg, "read-only") {
		t.Errorf("index error should be one line naming %s and read-only, got %q", db, msg)
	}
	if !errors.Is(err, codectx.ErrReadOnly) {
		t.Errorf("index error is not ErrReadOnly: %v", err)
	}
}

// runAsNobody re-runs the named test of this binary as uid/gid 65534. The
// binary is copied where nobody may execute it.
func runAsNobody(t *testing.T, run string, env ...string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary: %v", err)
	}
	binDir := t.TempDir()
	os.Chmod(binDir, 0o755)
	os.Chmod(filepath.Dir(binDir), 0o755)
	bin := filepath.Join(binDir, "child.test")
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	home := t.TempDir()
	os.Chmod(home, 0o777)
	cmd := exec.Command(bin, "-test.run="+run, "-test.count=1", "-test.v")
	cmd.Dir = binDir
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, "HOME="+home, "CODECTX_HOME="+home, "GOCOVERDIR=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(err.Error(), "operation not permitted") {
			t.Skipf("cannot switch to uid 65534 to test permissions as root: %v", err)
		}
		t.Fatalf("child as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("child did not run the checks:\n%s", out)
	}
}
