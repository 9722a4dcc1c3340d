package mcp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"codectx/internal/store"
)

// TestBackgroundIndexWaitsForWriter: while another process holds the
// project's writer lock (here: this test, as a CLI `codectx index` would),
// the server's background pass waits, index_status says for whom, and the
// pass runs once the lock is released.
func TestBackgroundIndexWaitsForWriter(t *testing.T) {
	root := copyFixture(t)
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	db := filepath.Join(t.TempDir(), "index.db")
	sdb, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	lock, err := sdb.LockWriter(context.Background(), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()

	cs := startServer(t, root, db)
	me := fmt.Sprintf("pid %d", os.Getpid())
	waitFor(t, 30*time.Second, "background pass waiting for the writer", func() bool {
		text, _ := callOK(t, cs, "index_status", map[string]any{})
		return strings.Contains(text, "waiting for "+me)
	})
	lock.Release()
	waitIndexed(t, cs, "server/config.go")
}
