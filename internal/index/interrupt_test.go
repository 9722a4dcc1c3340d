package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// cancelEmbedder cancels the run's context on its n-th call.
type cancelEmbedder struct {
	*fakeEmbedder
	n      int32
	calls  atomic.Int32
	cancel context.CancelFunc
}

func (c *cancelEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.calls.Add(1) == c.n {
		c.cancel()
		return nil, ctx.Err()
	}
	return c.fakeEmbedder.Embed(ctx, texts)
}

// TestInterruptSaysWhatWasKept: a run cancelled (Ctrl-C) after its first
// batch was committed says how many batches and files it kept — not a
// driver's "context canceled" — and the database holds exactly those.
func TestInterruptSaysWhatWasKept(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("p%d/f%03d.go", i%10, i)] = fmt.Sprintf("package p\n\n// F%d is %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	writeFiles(t, root, files)
	db := openDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first batch (128 files, one chunk each, 8 texts per call) takes
	// 16 calls; the 20th is inside the second batch.
	emb := &cancelEmbedder{fakeEmbedder: &fakeEmbedder{model: "fake:a"}, n: 20, cancel: cancel}
	_, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("want an InterruptedError, got %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the error should still match context.Canceled: %v", err)
	}
	if ie.Batches != 1 || ie.Files != batchFiles {
		t.Errorf("kept %d batches / %d files, want 1 / %d", ie.Batches, ie.Files, batchFiles)
	}
	if want := fmt.Sprintf("interrupted: 1 batch (%d files) committed and kept", batchFiles); err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if strings.Contains(err.Error(), "context canceled") {
		t.Errorf("message leaks the driver error: %q", err)
	}
	var n int
	db.SQL().QueryRow("SELECT count(*) FROM files").Scan(&n)
	if n != ie.Files {
		t.Errorf("database holds %d files, the message says %d", n, ie.Files)
	}
	assertConsistent(t, db)
}
