package index

import (
	"errors"
	"fmt"

	"codectx/internal/embed"
	"codectx/internal/store"
)

// flush embeds what a batch of files needs and writes it in one transaction.
// It runs on the writer goroutine.
func (w *writer) flush(pending []outcome) error {
	if len(pending) == 0 {
		return nil
	}
	var files []*store.FileRecord
	var touches []store.Touch
	for _, o := range pending {
		switch {
		case o.record != nil:
			files = append(files, o.record)
		case o.touch != nil:
			touches = append(touches, *o.touch)
		}
	}
	failed, err := w.embed(files)
	if err != nil {
		return err
	}
	batch := store.Batch{Touches: touches, PendingRelations: true}
	for _, f := range files {
		if failed[f.Path] {
			continue
		}
		batch.Files = append(batch.Files, *f)
	}
	res, err := w.opt.DB.WriteBatch(w.ctx, w.proj.ID, w.model, batch)
	if err != nil {
		return err
	}
	if crashHook != nil {
		crashHook("batch")
	}
	if w.written != nil {
		for i := range batch.Files {
			for j := range batch.Files[i].Chunks {
				if c := &batch.Files[i].Chunks[j]; c.Vector != nil {
					w.written[string(c.TextHash)] = struct{}{}
				}
			}
		}
		if len(w.written) > maxWritten {
			w.written = nil // memory: back to asking the cache
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.batches++
	w.fileIDs = append(w.fileIDs, res.FileIDs...)
	w.names = append(w.names, res.Names...)
	w.sum.Unchanged += len(touches)
	for _, f := range batch.Files {
		w.sum.Changed++
		w.sum.Chunks += len(f.Chunks)
		w.sum.Relations += len(f.Relations)
	}
	return nil
}

// remove deletes the rows of files gone from the tree and of files that
// became unsuitable during the run, in one transaction.
func (w *writer) remove(removed []string) error {
	all := append(removed, w.removeLater...)
	if len(all) == 0 {
		return nil
	}
	res, err := w.opt.DB.WriteBatch(w.ctx, w.proj.ID, w.model, store.Batch{Removed: all})
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.batches++
	w.names = append(w.names, res.Names...)
	w.sum.Removed = len(all)
	return nil
}

// maxWritten bounds the hashes a run remembers (~25 MB); past it, cache
// look-ups go to the database again.
var maxWritten = 1 << 18

// startVectorCache decides how the run finds cached vectors: when the
// cache holds no vector of the model yet, the only hits can be vectors this
// run wrote, so the run remembers their hashes instead of asking the
// database for every chunk.
func (w *writer) startVectorCache() error {
	has, err := w.opt.DB.HasVectors(w.ctx, w.model)
	if err != nil {
		return err
	}
	if !has {
		w.written = map[string]struct{}{}
	}
	return nil
}

// embed fills the Vector of every chunk whose text is not cached yet. Texts
// are embedded in batches that span files; when a batch fails, files are
// retried one by one and those that still fail are returned (they keep their
// previous rows and are retried by the next run).
func (w *writer) embed(files []*store.FileRecord) (map[string]bool, error) {
	p, hits, err := w.pendingTexts(files)
	embedded := 0
	defer func() {
		w.mu.Lock()
		w.sum.CacheHits += hits
		w.sum.Embedded += embedded
		w.mu.Unlock()
	}()
	if p == nil || err != nil {
		return nil, err
	}
	// After the service failed to answer (timeouts, refused connections,
	// after its retries), the rest of the run does not call it again:
	// files that need new vectors fail at once and wait for the next run.
	batchErr := w.unavailable
	if batchErr == nil {
		all := make([]int, len(p.texts))
		for k := range all {
			all[k] = k
		}
		var n int
		n, batchErr, err = w.embedInto(p, all)
		embedded += n
		if err != nil {
			return nil, err
		}
	}
	if batchErr == nil {
		return nil, nil
	}
	if w.ctx.Err() != nil {
		return nil, fmt.Errorf("embed: %w", w.ctx.Err())
	}
	if errors.Is(batchErr, embed.ErrUnavailable) {
		w.unavailable = batchErr
	}
	if w.unavailable != nil {
		w.opt.Logger.Warn("embedding service unavailable; files that need new vectors are left for the next run", "err", batchErr)
	} else {
		w.opt.Logger.Warn("embedding batch failed; retrying file by file", "err", batchErr)
	}
	failed, n, err := w.retryByFile(p)
	embedded += n
	return failed, err
}

// pending are the distinct texts of a batch that have no cached vector,
// each with the chunks that share it.
type pending struct {
	files  []*store.FileRecord
	texts  []string
	owners [][]slot
}

type slot struct{ file, chunk int }

// assign gives text k's vector to every chunk that has that text.
func (p *pending) assign(k int, v []float32) {
	if len(v) == 0 {
		return
	}
	for _, s := range p.owners[k] {
		p.files[s.file].Chunks[s.chunk].Vector = v
	}
}

// pendingTexts finds the texts of files without a cached vector (nil when
// every chunk is cached or there are none) and counts the cache hits,
// repeated texts within the batch included.
func (w *writer) pendingTexts(files []*store.FileRecord) (*pending, int, error) {
	var hashes [][]byte
	for _, f := range files {
		for i := range f.Chunks {
			hashes = append(hashes, f.Chunks[i].TextHash)
		}
	}
	if len(hashes) == 0 {
		return nil, 0, nil
	}
	cached := func(h string) bool { _, ok := w.written[h]; return ok }
	if w.written == nil {
		inDB, err := w.opt.DB.CachedVectors(w.ctx, w.model, hashes)
		if err != nil {
			return nil, 0, err
		}
		cached = func(h string) bool { return inDB[h] }
	}
	p := &pending{files: files}
	hits := 0
	seen := map[string]int{}
	for fi, f := range files {
		for ci := range f.Chunks {
			h := string(f.Chunks[ci].TextHash)
			if cached(h) {
				hits++
				continue
			}
			if k, ok := seen[h]; ok {
				p.owners[k] = append(p.owners[k], slot{fi, ci})
				hits++
				continue
			}
			seen[h] = len(p.texts)
			p.texts = append(p.texts, f.Chunks[ci].EmbedText())
			p.owners = append(p.owners, []slot{{fi, ci}})
		}
	}
	if len(p.texts) == 0 {
		return nil, hits, nil
	}
	return p, hits, nil
}

// embedInto embeds the texts ks of p in the embedder's batch size and
// assigns the vectors. It returns how many were embedded, the first batch
// error (the caller retries or gives up) and a fatal error: vectors of the
// wrong size, which stop the run before anything is written.
func (w *writer) embedInto(p *pending, ks []int) (embedded int, batchErr, fatal error) {
	bs := max(1, w.opt.Embedder.BatchSize())
	for start := 0; start < len(ks); start += bs {
		end := min(start+bs, len(ks))
		batch := make([]string, 0, end-start)
		for _, k := range ks[start:end] {
			batch = append(batch, p.texts[k])
		}
		vecs, err := w.opt.Embedder.Embed(w.ctx, batch)
		if err == nil && len(vecs) != len(batch) {
			err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(batch))
		}
		if err != nil {
			return embedded, err, nil
		}
		if err := w.checkDims(vecs); err != nil {
			return embedded, nil, err // another model behind the same name
		}
		for i, v := range vecs {
			p.assign(ks[start+i], v)
		}
		embedded += len(batch)
	}
	return embedded, nil, nil
}

// retryByFile embeds the texts still without a vector file by file. Files
// whose texts still fail are counted, warned about and returned; every file
// that shares a failed text fails with it.
func (w *writer) retryByFile(p *pending) (map[string]bool, int, error) {
	byFile := map[int][]int{}
	for k, os := range p.owners {
		if p.files[os[0].file].Chunks[os[0].chunk].Vector == nil {
			byFile[os[0].file] = append(byFile[os[0].file], k)
		}
	}
	embedded := 0
	failedFiles := map[int]error{}
	for fi := range p.files {
		ks := byFile[fi]
		if len(ks) == 0 {
			continue
		}
		err := w.unavailable
		if err == nil {
			var n int
			var fatal error
			n, err, fatal = w.embedInto(p, ks)
			embedded += n
			if fatal != nil {
				return nil, embedded, fatal
			}
		}
		if err == nil {
			continue
		}
		if w.ctx.Err() != nil {
			return nil, embedded, fmt.Errorf("embed: %w", w.ctx.Err())
		}
		if errors.Is(err, embed.ErrUnavailable) {
			w.unavailable = err
		}
		for _, k := range ks {
			for _, s := range p.owners[k] {
				failedFiles[s.file] = err
			}
		}
	}
	failed := map[string]bool{}
	for fi, err := range failedFiles {
		failed[p.files[fi].Path] = true
		w.mu.Lock()
		w.sum.Failed++
		w.sum.Warnings = append(w.sum.Warnings, Warning{Path: p.files[fi].Path, Reason: "embedding failed: " + err.Error()})
		w.mu.Unlock()
	}
	return failed, embedded, nil
}

// checkDims refuses vectors whose size differs from the model's recorded
// dimension (or, for a model without one, from the first vectors of this
// run): they would poison the cache and the project's vector matrix.
func (w *writer) checkDims(vecs [][]float32) error {
	for _, v := range vecs {
		if len(v) == 0 {
			continue
		}
		if w.dims == 0 {
			w.dims = len(v)
		}
		if len(v) != w.dims {
			return &store.DimensionError{Model: w.model, Got: len(v), Want: w.dims}
		}
	}
	return nil
}
