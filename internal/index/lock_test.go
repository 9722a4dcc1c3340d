package index

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codectx/internal/store"
)

// gateEmbedder blocks its first Embed call until release is closed,
// telling entered when it starts waiting.
type gateEmbedder struct {
	*fakeEmbedder
	entered chan struct{}
	release chan struct{}
	first   bool
}

func (g *gateEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if !g.first {
		g.first = true
		close(g.entered)
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.fakeEmbedder.Embed(ctx, texts)
}

// TestSecondWriterWaits: while one run writes a project, a second run on
// the same project (another handle on the same file, as another process
// would have) waits and names the holder; readers are not blocked; the
// second run starts after the first and finds nothing left to do.
func TestSecondWriterWaits(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	dbPath := filepath.Join(t.TempDir(), "index.db")
	open := func() *store.DB {
		db, err := store.Open(context.Background(), dbPath, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	db1, db2, reader := open(), open(), open()

	gate := &gateEmbedder{fakeEmbedder: &fakeEmbedder{model: "fake:a"}, entered: make(chan struct{}), release: make(chan struct{})}
	type result struct {
		sum *Summary
		err error
	}
	first := make(chan result, 1)
	go func() {
		s, err := Run(context.Background(), Options{Root: root, DB: db1, Embedder: gate, Threads: 2})
		first <- result{s, err}
	}()
	<-gate.entered // the first run holds the lock and is mid-batch

	// Readers never block on a writer.
	if _, err := reader.Project(context.Background(), root); err != nil {
		t.Fatalf("reader during a write: %v", err)
	}

	waited := make(chan store.Holder, 1)
	second := make(chan result, 1)
	go func() {
		s, err := Run(context.Background(), Options{Root: root, DB: db2, Embedder: &fakeEmbedder{model: "fake:a"}, Threads: 2,
			OnWait: func(h store.Holder) { waited <- h }})
		second <- result{s, err}
	}()
	select {
	case h := <-waited:
		if h.PID != os.Getpid() {
			t.Errorf("holder pid %d, want %d", h.PID, os.Getpid())
		}
	case r := <-second:
		close(gate.release)
		t.Fatalf("the second writer ran while the first held the project (err %v)", r.err)
	}
	close(gate.release)
	r1, r2 := <-first, <-second
	if r1.err != nil || r2.err != nil {
		t.Fatalf("runs: %v / %v", r1.err, r2.err)
	}
	if r2.sum.Changed != 0 || r2.sum.Unchanged != r1.sum.Changed {
		t.Errorf("second run should find the first one's work done: %+v", r2.sum)
	}
	assertConsistent(t, db1)
}

// TestWriterLockAcrossProcesses: a child process holds the project's writer
// lock; a run in this process waits, names the child's pid, and proceeds
// once the child releases the lock — or is killed with SIGKILL.
func TestWriterLockAcrossProcesses(t *testing.T) {
	if os.Getenv("CODECTX_LOCK_CHILD") != "" {
		t.Skip("child mode")
	}
	for _, how := range []string{"release", "kill", "no-wait"} {
		t.Run(how, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, repo)
			dbPath := filepath.Join(t.TempDir(), "index.db")
			db, err := store.Open(context.Background(), dbPath, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()

			cmd := exec.Command(os.Args[0], "-test.run=^TestWriterLockChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "CODECTX_LOCK_CHILD="+dbPath, "CODECTX_LOCK_ROOT="+root)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "locked\n" {
				t.Fatalf("child: %q %v", line, err)
			}

			if how == "no-wait" {
				_, err := Run(context.Background(), Options{Root: root, DB: db, Embedder: &fakeEmbedder{model: "fake:a"}, NoWait: true})
				var busy *store.BusyError
				if !errors.As(err, &busy) || busy.Holder.PID != cmd.Process.Pid {
					t.Fatalf("--no-wait should report the child (pid %d) as the writer, got %v", cmd.Process.Pid, err)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
					t.Errorf("message %q does not name the pid", err)
				}
				stdin.Close()
				cmd.Wait()
				return
			}
			var holder store.Holder
			s, err := Run(context.Background(), Options{Root: root, DB: db, Embedder: &fakeEmbedder{model: "fake:a"}, Threads: 2,
				OnWait: func(h store.Holder) {
					holder = h
					if how == "kill" {
						cmd.Process.Kill()
					} else {
						stdin.Close()
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			if holder.PID != cmd.Process.Pid {
				t.Errorf("holder pid %d, want the child's %d", holder.PID, cmd.Process.Pid)
			}
			if s.Changed == 0 {
				t.Errorf("the run after the holder left indexed nothing: %+v", s)
			}
		})
	}
}

// TestWriterLockChild is the child side of TestWriterLockAcrossProcesses:
// it takes the lock, says so, and holds it until stdin closes.
func TestWriterLockChild(t *testing.T) {
	dbPath := os.Getenv("CODECTX_LOCK_CHILD")
	if dbPath == "" {
		t.Skip("only runs as a child of TestWriterLockAcrossProcesses")
	}
	db, err := store.Open(context.Background(), dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := db.LockWriter(context.Background(), os.Getenv("CODECTX_LOCK_ROOT"), nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("locked")
	var b [1]byte
	os.Stdin.Read(b[:])
	l.Release()
}
