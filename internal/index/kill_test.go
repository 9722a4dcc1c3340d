package index

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"codectx/internal/lang"
	"codectx/internal/store"
)

// killTree is a Go module of 600 files in 20 packages: each file calls a
// function of its own package and a method of a type declared in the next
// package, so relations cross files and packages.
func killTree() map[string]string {
	files := map[string]string{"go.mod": "module example.com/kill\n\ngo 1.22\n"}
	const n = 600
	for i := range n {
		pkg, next := i%20, (i+1)%20
		files[fmt.Sprintf("pkg%02d/f%03d.go", pkg, i)] = fmt.Sprintf(`package pkg%02d

import other "example.com/kill/pkg%02d"

// F%d does thing %d.
func F%d() int { return G%d() }

func G%d() int { return %d }

type T%d struct{ o *other.T%d }

func NewT%d() *T%d { return &T%d{} }

func (t *T%d) M() int { return t.o.M() + NewT%d().N() }

func (t *T%d) N() int { return %d }
`, pkg, next, i, i, i, i, i, i, i, (i+1)%n, i, i, i, i, i, i, i)
	}
	return files
}

// TestKillChildMidRun kills (SIGKILL) a child process that indexes a
// repository at several points: after the first, third and fifth committed
// batch, and during relation resolution (after the edges are computed,
// before they are written), and once more during the resolution of the run
// that recovers from a kill. After each kill the database must be
// consistent and the next run must end with the same files, chunks and
// relations as a clean index of the tree.
func TestKillChildMidRun(t *testing.T) {
	if os.Getenv("CODECTX_KILL_CHILD") != "" {
		t.Skip("child mode")
	}
	tree := killTree()
	wantFiles, wantChunks, wantRels := cleanSets(t, tree)

	survived := 0
	points := [][]string{{"batch:1"}, {"batch:3"}, {"batch:5"}, {"resolve:1"}, {"batch:2", "resolve:1"}}
	for _, seq := range points {
		name := strings.Join(seq, "+")
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tree)
			dbPath := filepath.Join(t.TempDir(), "index.db")
			for _, at := range seq {
				killChildAt(t, root, dbPath, at)
				db, err := store.Open(context.Background(), dbPath, store.Options{})
				if err != nil {
					t.Fatalf("reopen after kill at %s: %v", at, err)
				}
				assertConsistent(t, db)
				p, err := db.Project(context.Background(), root)
				if err != nil {
					t.Fatal(err)
				}
				if !p.Dirty {
					t.Errorf("kill at %s: an interrupted run must leave the project marked dirty", at)
				}
				db.Close()
			}
			db, err := store.Open(context.Background(), dbPath, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			run(t, db, root, &fakeEmbedder{model: "fake:a"})
			assertConsistent(t, db)
			assertIndexes(t, db)
			if p, _ := db.Project(context.Background(), root); p.Dirty {
				t.Error("project still dirty after a complete run")
			}
			before := t.Failed()
			diffSets(t, "file", fileSet(t, db), wantFiles)
			diffSets(t, "chunk", chunkSet(t, db), wantChunks)
			diffSets(t, "relation", relationSet(t, db), wantRels)
			if !t.Failed() && !before {
				survived++
			}
		})
	}
	t.Logf("kill points survived with a clean-index comparison: %d of %d", survived, len(points))
}

// assertIndexes fails unless every secondary index of the schema exists: a
// first index drops them while it loads (store.BeginBulkLoad), and a run
// after a kill in between must build them again.
func assertIndexes(t *testing.T, db *store.DB) {
	t.Helper()
	for _, name := range []string{"chunks_file", "chunks_project_symbol", "chunks_project_short", "relations_file", "relations_src",
		"relations_dst_kind", "relations_open_target", "relations_contains_target", "relations_orphan", "typefacts_files_project"} {
		var n int
		if err := db.SQL().QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?", name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("index %s missing after a complete run", name)
		}
	}
	var automerge int
	if err := db.SQL().QueryRow("SELECT COALESCE((SELECT v FROM chunks_fts_config WHERE k = 'automerge'), 4)").Scan(&automerge); err != nil {
		t.Fatal(err)
	}
	if automerge == 0 {
		t.Error("full-text automerge still off after a complete run")
	}
}

// killChildAt runs the child indexer until it reaches point ("batch:N":
// after the N-th committed batch, "resolve:N": the N-th resolution has
// computed its edges), where it stops and waits to be killed.
func killChildAt(t *testing.T, root, dbPath, point string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChildHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CODECTX_KILL_CHILD=1", "CODECTX_KILL_ROOT="+root, "CODECTX_KILL_DB="+dbPath, "CODECTX_KILL_AT="+point)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reached := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == "REACHED "+point {
			reached = true
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, out)
	cmd.Wait()
	if !reached {
		t.Fatalf("child finished without reaching %s", point)
	}
}

// TestKillChildHelper is the child side of TestKillChildMidRun: it indexes
// and, at the point named by CODECTX_KILL_AT, prints "REACHED point" and
// blocks until it is killed.
func TestKillChildHelper(t *testing.T) {
	if os.Getenv("CODECTX_KILL_CHILD") == "" {
		t.Skip("only runs as the child of TestKillChildMidRun")
	}
	db, err := store.Open(context.Background(), os.Getenv("CODECTX_KILL_DB"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := os.Getenv("CODECTX_KILL_AT")
	what, nStr, _ := strings.Cut(at, ":")
	want, _ := strconv.Atoi(nStr)
	seen := 0
	crashHook = func(point string) {
		if point != what {
			return
		}
		seen++
		if seen == want {
			fmt.Println("REACHED " + at)
			os.Stdout.Sync()
			select {} // wait for SIGKILL
		}
	}
	Run(context.Background(), Options{Root: os.Getenv("CODECTX_KILL_ROOT"), DB: db, Embedder: &fakeEmbedder{model: "fake:a"}, Threads: 2})
}

// TestFirstIndexAfterKilledBulkLoad: a bulk load killed after a committed
// batch leaves its project's files and no deferred indexes; the first index
// of another project in the same database (not a bulk load: the database
// has files) must build them.
func TestFirstIndexAfterKilledBulkLoad(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	if bulk, err := db.BeginBulkLoad(ctx); err != nil || !bulk {
		t.Fatalf("BeginBulkLoad on an empty database: %v, %v", bulk, err)
	}
	a, err := db.EnsureProject(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// the killed run's one committed batch
	if _, err := db.WriteBatch(ctx, a.ID, "fake:a", store.Batch{Files: []store.FileRecord{{Path: "a.go", Lang: "go", SHA256: "x", Parser: "p",
		Chunks: []store.ChunkRecord{{Chunk: lang.Chunk{Kind: lang.KindFunction, Name: "A()", Symbol: "A", StartLine: 1, EndLine: 2}, TextHash: []byte("h"), Vector: []float32{1, 0, 0, 0}}}}}}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeFiles(t, root, repo)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	assertIndexes(t, db)
}
