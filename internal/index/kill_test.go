package index

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"codectx/internal/store"
)

// TestKillChildMidRun starts a child process that indexes a repository with a
// slow embedder, kills it with SIGKILL once some batches are committed, then
// checks that the database is consistent and that the next run finishes the job.
func TestKillChildMidRun(t *testing.T) {
	if os.Getenv("CODECTX_KILL_CHILD") != "" {
		t.Skip("child mode")
	}
	root := t.TempDir()
	files := map[string]string{}
	const n = 600
	for i := range n {
		files[fmt.Sprintf("pkg%02d/f%03d.go", i%20, i)] = fmt.Sprintf("package p\n\n// F%d does thing %d.\nfunc F%d() int { return G%d() }\n\nfunc G%d() int { return %d }\n", i, i, i, i, i, i)
	}
	writeFiles(t, root, files)
	dbPath := filepath.Join(t.TempDir(), "index.db")

	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChildHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CODECTX_KILL_CHILD=1", "CODECTX_KILL_ROOT="+root, "CODECTX_KILL_DB="+dbPath)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until at least one batch is committed, then kill.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child committed nothing within 60s")
		}
		if c := committedFiles(dbPath); c > 0 && c < n {
			break
		} else if c >= n {
			t.Skip("child finished before it could be killed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	db, err := store.Open(context.Background(), dbPath, store.Options{})
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer db.Close()
	assertConsistent(t, db)
	p, err := db.Project(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Dirty {
		t.Error("an interrupted run must leave the project marked dirty")
	}
	before := committedFiles(dbPath)

	s := run(t, db, root, &fakeEmbedder{model: "fake:a"})
	if s.Unchanged != before || s.Changed != n-before {
		t.Fatalf("next run: %+v (had %d committed)", s, before)
	}
	assertConsistent(t, db)
	if p, _ := db.Project(context.Background(), root); p.Dirty {
		t.Error("project still dirty after a complete run")
	}
	var unresolved int
	db.SQL().QueryRow("SELECT count(*) FROM relations WHERE kind = 'calls' AND dst_chunk IS NULL").Scan(&unresolved)
	if unresolved != 0 {
		t.Errorf("%d calls left unresolved after recovery", unresolved)
	}
}

// TestKillChildHelper is the child side of TestKillChildMidRun.
func TestKillChildHelper(t *testing.T) {
	if os.Getenv("CODECTX_KILL_CHILD") == "" {
		t.Skip("only runs as the child of TestKillChildMidRun")
	}
	db, err := store.Open(context.Background(), os.Getenv("CODECTX_KILL_DB"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb := &fakeEmbedder{model: "fake:a", delay: 20 * time.Millisecond}
	Run(context.Background(), Options{Root: os.Getenv("CODECTX_KILL_ROOT"), DB: db, Embedder: emb, Threads: 2})
}

func committedFiles(dbPath string) int {
	if _, err := os.Stat(dbPath); err != nil {
		return 0
	}
	db, err := store.Open(context.Background(), dbPath, store.Options{ReadOnly: true, BusyTimeoutMS: 200})
	if err != nil {
		return 0
	}
	defer db.Close()
	var c int
	db.SQL().QueryRow("SELECT count(*) FROM files").Scan(&c)
	return c
}
