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
	batch := store.Batch{Touches: touches}
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

// embed fills the Vector of every chunk whose text is not cached yet. Texts
// are embedded in batches that span files; when a batch fails, files are
// retried one by one and those that still fail are returned (they keep their
// previous rows and are retried by the next run).
func (w *writer) embed(files []*store.FileRecord) (map[string]bool, error) {
	var hashes [][]byte
	for _, f := range files {
		for i := range f.Chunks {
			hashes = append(hashes, f.Chunks[i].TextHash)
		}
	}
	if len(hashes) == 0 {
		return nil, nil
	}
	hits, embedded := 0, 0
	defer func() {
		w.mu.Lock()
		w.sum.CacheHits += hits
		w.sum.Embedded += embedded
		w.mu.Unlock()
	}()
	cached, err := w.opt.DB.CachedVectors(w.ctx, w.model, hashes)
	if err != nil {
		return nil, err
	}
	type slot struct{ file, chunk int }
	// One text per distinct hash not cached; every chunk with that hash shares the vector.
	var texts []string
	var owners [][]slot
	seen := map[string]int{}
	for fi, f := range files {
		for ci := range f.Chunks {
			h := string(f.Chunks[ci].TextHash)
			if cached[h] {
				hits++
				continue
			}
			if k, ok := seen[h]; ok {
				owners[k] = append(owners[k], slot{fi, ci})
				hits++
				continue
			}
			seen[h] = len(texts)
			texts = append(texts, f.Chunks[ci].EmbedText())
			owners = append(owners, []slot{{fi, ci}})
		}
	}
	assign := func(k int, v []float32) {
		if len(v) == 0 {
			return
		}
		for _, s := range owners[k] {
			files[s.file].Chunks[s.chunk].Vector = v
		}
	}
	bs := max(1, w.opt.Embedder.BatchSize())
	// After the service failed to answer (timeouts, refused connections,
	// after its retries), the rest of the run does not call it again:
	// files that need new vectors fail at once and wait for the next run.
	batchErr := w.unavailable
	for start := 0; start < len(texts) && batchErr == nil; start += bs {
		end := min(start+bs, len(texts))
		vecs, err := w.opt.Embedder.Embed(w.ctx, texts[start:end])
		if err == nil && len(vecs) != end-start {
			err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), end-start)
		}
		if err == nil {
			if err := w.checkDims(vecs); err != nil {
				return nil, err // another model behind the same name: stop, write nothing
			}
		}
		if err != nil {
			batchErr = err
			break
		}
		for i, v := range vecs {
			assign(start+i, v)
		}
		embedded += end - start
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
	// Retry file by file: texts whose vector is still missing, grouped by file.
	failed := map[string]bool{}
	failedFiles := map[int]error{}
	byFile := map[int][]int{}
	for k, os := range owners {
		if files[os[0].file].Chunks[os[0].chunk].Vector == nil {
			byFile[os[0].file] = append(byFile[os[0].file], k)
		}
	}
	for fi := range files {
		ks := byFile[fi]
		if len(ks) == 0 {
			continue
		}
		err := w.unavailable
		for start := 0; start < len(ks) && err == nil; start += bs {
			end := min(start+bs, len(ks))
			batch := make([]string, 0, end-start)
			for _, k := range ks[start:end] {
				batch = append(batch, texts[k])
			}
			var vecs [][]float32
			vecs, err = w.opt.Embedder.Embed(w.ctx, batch)
			if err == nil && len(vecs) != len(batch) {
				err = errors.New("embedder returned the wrong number of vectors")
			}
			if err == nil {
				if err := w.checkDims(vecs); err != nil {
					return nil, err
				}
			}
			if err == nil {
				for i, v := range vecs {
					assign(ks[start+i], v)
				}
				embedded += len(batch)
			}
		}
		if err != nil {
			if w.ctx.Err() != nil {
				return nil, fmt.Errorf("embed: %w", w.ctx.Err())
			}
			if errors.Is(err, embed.ErrUnavailable) {
				w.unavailable = err
			}
			// Every file that shares one of these texts fails with it.
			for _, k := range ks {
				for _, s := range owners[k] {
					failedFiles[s.file] = err
				}
			}
		}
	}
	for fi, err := range failedFiles {
		failed[files[fi].Path] = true
		w.mu.Lock()
		w.sum.Failed++
		w.sum.Warnings = append(w.sum.Warnings, Warning{Path: files[fi].Path, Reason: "embedding failed: " + err.Error()})
		w.mu.Unlock()
	}
	return failed, nil
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
