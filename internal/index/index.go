// Package index is the incremental indexing pipeline: scan → compare with the
// stored fingerprints → read, hash and parse changed files in a bounded worker
// pool → embed in batches that span files (through the vector cache) → write
// each batch of files in one transaction → resolve relations.
//
// It must not rank, format output for people, or know about commands: the
// caller gets a Summary and progress events.
package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sort"
	"sync"
	"time"

	"codectx/internal/embed"
	"codectx/internal/lang"
	"codectx/internal/query"
	"codectx/internal/scan"
	"codectx/internal/store"
)

// Options configure one run.
type Options struct {
	Root     string // absolute project root
	DB       *store.DB
	Embedder embed.Embedder
	// Threads is the parse worker count; 0 means DefaultThreads.
	Threads int
	// FTS tunes the full-text tokenization of indexed text
	// (query.IndexTextWith); it must be the same on every run of a project.
	FTS query.IndexOptions
	// Rebuild drops the project's rows first.
	Rebuild bool
	// Progress, when set, receives events from the collector goroutine.
	Progress func(Progress)
	// OnWait, when set, is called once if another process (or handle)
	// is writing this project: the run waits for it to finish.
	OnWait func(store.Holder)
	// NoWait makes the run return a *store.BusyError instead of waiting
	// when another process is writing this project.
	NoWait bool
	// AfterCommit, when set, runs once the run's results are committed
	// (before Run returns, only on success), concurrently with what is
	// left of the run: the deferred index builds of a first index. Work
	// that reads the committed state and need not wait for those indexes
	// (side files for search, the grep index) goes here to use a core the
	// single SQLite writer leaves idle.
	AfterCommit func(ctx context.Context)
	Logger      *slog.Logger
}

// Progress is a snapshot of a run.
type Progress struct {
	Phase  string // "wait" (for another writer), "scan", "index", "resolve", "done"
	Holder string // in phase "wait": who holds the project's writer lock
	Done   int    // files processed (changed candidates)
	Total  int    // files to process
	Chunks int    // chunks written so far
}

// Warning is a file that was skipped or failed, with the reason.
type Warning struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Summary is what a run did.
type Summary struct {
	Root        string    `json:"root"`
	DB          string    `json:"db"`
	Model       string    `json:"embedding_model"`
	Scanned     int       `json:"scanned"`
	Changed     int       `json:"changed"`
	Removed     int       `json:"removed"`
	Unchanged   int       `json:"unchanged"`
	Failed      int       `json:"failed"`
	Skipped     int       `json:"skipped"`
	SkippedDirs []string  `json:"skipped_dirs,omitempty"` // dependency and build-output directories left out (scan.Result.SkippedDirs)
	Chunks      int       `json:"chunks"`                 // chunks written by this run
	Relations   int       `json:"relations"`              // relations written by this run
	Resolved    int       `json:"resolved"`               // relation targets (re)resolved by this run
	Embedded    int       `json:"embedded"`               // texts sent to the embedder
	CacheHits   int       `json:"cache_hits"`             // texts whose vector was already cached
	TotalChunks int       `json:"total_chunks"`           // chunks in the project after the run
	ElapsedSec  float64   `json:"elapsed_seconds"`
	Warnings    []Warning `json:"warnings,omitempty"`
}

// DefaultThreads is the worker count when Options.Threads is 0.
func DefaultThreads() int { return min(4, runtime.NumCPU()) }

// job is one file to read, hash and maybe parse.
type job struct {
	file scan.File
	fp   *store.Fingerprint
}

// outcome is what a worker made of a job.
type outcome struct {
	file    scan.File
	record  *store.FileRecord // parsed replacement
	touch   *store.Touch      // same content, new stat
	remove  bool              // indexed before, now unsuitable (binary)
	warning *Warning
	failed  bool
}

// InterruptedError is returned when the run's context ends: what was
// committed before stays (the next run continues from it).
type InterruptedError struct {
	Batches int    // write transactions committed by this run
	Files   int    // files written in them
	Phase   string // where the run was: "index" or "resolve"
	Cause   error  // the context's error
}

func (e *InterruptedError) Error() string {
	var kept string
	switch {
	case e.Batches == 0:
		kept = "nothing was committed"
	case e.Batches == 1:
		kept = fmt.Sprintf("1 batch (%d files) committed and kept", e.Files)
	default:
		kept = fmt.Sprintf("%d batches (%d files) committed and kept", e.Batches, e.Files)
	}
	if e.Phase == "resolve" {
		kept += "; relations are resolved by the next run"
	}
	return "interrupted: " + kept
}

func (e *InterruptedError) Unwrap() error { return e.Cause }

// Run indexes opt.Root incrementally. When ctx ends, the error is an
// *InterruptedError (matching ctx's error) saying what was kept.
func Run(ctx context.Context, opt Options) (sum *Summary, err error) {
	start := time.Now()
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opt.Threads <= 0 {
		opt.Threads = DefaultThreads()
	}
	model := opt.Embedder.ModelID()
	sum = &Summary{Root: opt.Root, DB: opt.DB.Path(), Model: model}
	progress := func(p Progress) {
		if opt.Progress != nil {
			opt.Progress(p)
		}
	}
	// One writer per project: wait for another run (a CLI index, a
	// watcher, an MCP server's background pass) to finish first.
	lock, err := opt.DB.LockWriter(ctx, opt.Root, func(h store.Holder) error {
		if opt.NoWait {
			return &store.BusyError{Holder: h, Root: opt.Root}
		}
		progress(Progress{Phase: "wait", Holder: h.String()})
		if opt.OnWait != nil {
			opt.OnWait(h)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	var w *writer
	phase := "index"
	defer func() {
		if err != nil && ctx.Err() != nil {
			ie := &InterruptedError{Phase: phase, Cause: ctx.Err()}
			if w != nil {
				w.mu.Lock()
				ie.Batches, ie.Files = w.batches, w.sum.Changed
				w.mu.Unlock()
			}
			opt.Logger.Debug("index interrupted", "err", err)
			err = ie
		}
	}()
	progress(Progress{Phase: "scan"})
	pl, err := plan(ctx, opt, model, sum)
	if err != nil {
		return nil, err
	}
	// A first index into an empty database builds the secondary indexes
	// once at the end; any other run first rebuilds those a killed bulk
	// load left missing.
	bulk := false
	if pl.fresh {
		bulk, err = opt.DB.BeginBulkLoad(ctx)
	}
	if err == nil && !bulk {
		err = opt.DB.EnsureIndexes(ctx)
	}
	if err != nil {
		return nil, err
	}
	// finishBulk ends a bulk load (on every return: a run that failed after
	// writing still leaves a usable database) and waits for AfterCommit.
	var after chan struct{}
	finishBulk := func() error {
		var ierr error
		if bulk && ctx.Err() == nil {
			bulk = false
			ierr = opt.DB.EnsureIndexes(ctx)
			opt.Logger.Debug("deferred indexes built", "elapsed", time.Since(start))
		}
		if after != nil {
			<-after
			after = nil
			opt.Logger.Debug("after-commit work done", "elapsed", time.Since(start))
		}
		return ierr
	}
	defer func() {
		if ierr := finishBulk(); err == nil {
			err = ierr
		}
	}()

	w = &writer{opt: opt, ctx: ctx, proj: pl.proj, model: model, dims: pl.dims, sum: sum, progress: progress, total: len(pl.jobs)}
	if err := w.startVectorCache(); err != nil {
		return sum, err
	}
	if err := w.process(pl.jobs); err != nil {
		return sum, err
	}
	if err := w.remove(pl.removed); err != nil {
		return sum, err
	}
	// What only the writing phase needed goes before resolution, the
	// run's largest heap: the hashes of the vectors written, and the free
	// pages the parsers left in the C heap.
	w.written = nil
	released := lang.ReleaseMemory()
	opt.Logger.Debug("files written", "files", len(pl.jobs), "c_heap_released", released, "elapsed", time.Since(start))

	phase = "resolve"
	progress(Progress{Phase: "resolve", Done: w.done, Total: len(pl.jobs), Chunks: sum.Chunks})
	if pl.fullResolve || len(w.fileIDs) > 0 || len(w.names) > 0 {
		// Resolution is recomputed for the whole project: an edge's target
		// depends on type facts of other files, and the result must not
		// depend on which files changed or in which order.
		n, err := Resolve(ctx, opt.DB, pl.proj.ID, opt.Root)
		if err != nil {
			return sum, err
		}
		sum.Resolved = n
		opt.Logger.Debug("relations resolved", "targets", n, "elapsed", time.Since(start))
	}
	if err := opt.DB.FinishRun(ctx, pl.proj.ID, model); err != nil {
		return sum, err
	}
	if opt.AfterCommit != nil {
		after = make(chan struct{})
		go func() {
			defer close(after)
			opt.AfterCommit(ctx)
		}()
	}
	if n, err := opt.DB.ChunkCount(ctx, pl.proj.ID); err == nil {
		sum.TotalChunks = n
	}
	if err := finishBulk(); err != nil {
		return sum, err
	}
	sort.SliceStable(sum.Warnings, func(i, j int) bool { return sum.Warnings[i].Path < sum.Warnings[j].Path })
	sum.ElapsedSec = time.Since(start).Seconds()
	progress(Progress{Phase: "done", Done: w.done, Total: len(pl.jobs), Chunks: sum.Chunks})
	return sum, nil
}

// runPlan is what a run has to do, from the scan and the stored fingerprints.
type runPlan struct {
	proj        *store.Project
	dims        int      // the model's recorded vector size, 0 if none yet
	jobs        []job    // files to read (new, or changed stat)
	removed     []string // indexed files no longer in the tree
	fresh       bool     // the project had no files: a first index
	fullResolve bool     // every edge must be resolved (first index, or an unfinished run)
}

// plan rebuilds the project when asked, scans the tree and compares it with
// the stored fingerprints; it fills the scan counts of sum.
func plan(ctx context.Context, opt Options, model string, sum *Summary) (*runPlan, error) {
	if opt.Rebuild {
		if p, err := opt.DB.Project(ctx, opt.Root); err == nil {
			if err := opt.DB.DeleteProject(ctx, p.ID); err != nil {
				return nil, err
			}
		} else if !errors.Is(err, store.ErrNoProject) {
			return nil, err
		}
	}
	// The stored fingerprints of a known project are read while the tree
	// is walked (a database read beside file system calls: most of a
	// no-change run); a project row is created only once the scan worked.
	type stored struct {
		proj *store.Project
		fps  map[string]store.Fingerprint
		err  error
	}
	known := make(chan stored, 1)
	go func() {
		var r stored
		if r.proj, r.err = opt.DB.Project(ctx, opt.Root); r.err == nil {
			r.fps, r.err = opt.DB.Fingerprints(ctx, r.proj.ID)
		} else if errors.Is(r.err, store.ErrNoProject) {
			r.err = nil
		}
		known <- r
	}()
	sc, err := scan.Scan(ctx, opt.Root, scan.Options{})
	prev := <-known
	if err != nil {
		return nil, err
	}
	if prev.err != nil {
		return nil, prev.err
	}
	for _, s := range sc.Skipped {
		sum.Warnings = append(sum.Warnings, Warning{Path: s.Path, Reason: s.Reason})
	}
	sum.Skipped = len(sc.Skipped)
	sum.SkippedDirs = sc.SkippedDirs
	sum.Scanned = len(sc.Files)

	pl := &runPlan{proj: prev.proj}
	fps := prev.fps
	if pl.proj == nil {
		if pl.proj, err = opt.DB.EnsureProject(ctx, opt.Root); err != nil {
			return nil, err
		}
		if fps, err = opt.DB.Fingerprints(ctx, pl.proj.ID); err != nil {
			return nil, err
		}
	}
	pl.fresh = len(fps) == 0
	pl.fullResolve = pl.proj.Dirty || pl.fresh
	if pl.dims, err = opt.DB.ModelDims(ctx, model); err != nil {
		return nil, err
	}
	present := make(map[string]bool, len(sc.Files))
	for _, f := range sc.Files {
		present[f.Path] = true
		fp, ok := fps[f.Path]
		if ok && Fresh(fp, f, model) {
			sum.Unchanged++
			continue
		}
		j := job{file: f}
		if ok {
			j.fp = &fp
		}
		pl.jobs = append(pl.jobs, j)
	}
	for p := range fps {
		if !present[p] {
			pl.removed = append(pl.removed, p)
		}
	}
	return pl, nil
}

// writer owns the collector side of a run: batching, embedding, writing.
type writer struct {
	opt   Options
	ctx   context.Context
	proj  *store.Project
	model string
	dims  int // the model's vector size: recorded, or learned from this run's first vectors
	// unavailable is set once the embedding service failed to answer:
	// later batches do not call it again.
	unavailable error
	sum         *Summary
	progress    func(Progress)
	total       int
	done        int

	mu          sync.Mutex // guards sum, batches, fileIDs and names (collector and writer goroutines)
	batches     int        // write transactions committed
	fileIDs     []int64
	names       []string
	removeLater []string
	// written, when the vector cache held nothing of the model at the
	// start, holds the text hashes whose vectors this run wrote: the only
	// possible cache hits (see startVectorCache).
	written map[string]struct{}
}

const (
	batchFiles  = 128
	batchChunks = 4096
)

func (w *writer) process(jobs []job) error {
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	threads := w.opt.Threads
	// A bounded window: at most threads×4 files are queued, being parsed or
	// waiting for the collector, so memory stays flat on huge trees.
	in := make(chan job, threads)
	out := make(chan outcome, threads*2)
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range in {
				o := work(j, w.model, w.opt.FTS)
				select {
				case out <- o:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()

	// The writer goroutine embeds and commits full batches while the
	// collector keeps taking parsed files: parsing and writing overlap.
	batches := make(chan []outcome, 1)
	writeErr := make(chan error, 1)
	go func() {
		var first error
		for b := range batches {
			if first != nil {
				continue // drain after a failure
			}
			if err := w.flush(b); err != nil {
				first = err
				cancel()
			}
		}
		writeErr <- first
	}()
	var pending []outcome
	pendingN := 0
	last := time.Now()
	for o := range out {
		w.done++
		w.mu.Lock()
		if o.warning != nil {
			w.sum.Warnings = append(w.sum.Warnings, *o.warning)
		}
		if o.failed {
			w.sum.Failed++
		}
		chunks := w.sum.Chunks
		w.mu.Unlock()
		switch {
		case o.failed:
		case o.remove:
			w.removeLater = append(w.removeLater, o.file.Path)
		default:
			pending = append(pending, o)
			if o.record != nil {
				pendingN += len(o.record.Chunks)
			}
		}
		if len(pending) >= batchFiles || pendingN >= batchChunks {
			select {
			case batches <- pending:
			case <-ctx.Done():
			}
			pending, pendingN = nil, 0
		}
		if time.Since(last) > 100*time.Millisecond {
			last = time.Now()
			w.progress(Progress{Phase: "index", Done: w.done, Total: w.total, Chunks: chunks})
		}
	}
	if len(pending) > 0 && ctx.Err() == nil {
		batches <- pending
	}
	close(batches)
	if err := <-writeErr; err != nil {
		return err
	}
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("index interrupted: %w", err)
	}
	return nil
}

// work reads, hashes and parses one file and tokenizes its chunks for
// full-text search with fts. It runs on the worker goroutines.
func work(j job, model string, fts query.IndexOptions) outcome {
	o := outcome{file: j.file}
	src, err := os.ReadFile(j.file.Abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			o.warning = &Warning{Path: j.file.Path, Reason: "vanished during the run"}
			o.remove = j.fp != nil
			return o
		}
		o.warning = &Warning{Path: j.file.Path, Reason: "unreadable: " + err.Error()}
		o.failed = true
		return o
	}
	if scan.IsBinary(src[:min(len(src), 4096)]) {
		o.warning = &Warning{Path: j.file.Path, Reason: "binary file"}
		o.remove = j.fp != nil
		return o
	}
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	if j.fp != nil && j.fp.SHA256 == hash && j.fp.Model == model && j.fp.Parser == lang.Version {
		// Same content and model: only the stat changed.
		o.touch = &store.Touch{Path: j.file.Path, Size: j.file.Size, MTime: j.file.ModTime}
		return o
	}
	res := lang.Parse(j.file.Path, j.file.Lang, src)
	rec := &store.FileRecord{
		Path: j.file.Path, Lang: j.file.Lang, Size: j.file.Size, MTime: j.file.ModTime,
		SHA256: hash, Parser: lang.Version, Fallback: res.Fallback, Relations: res.Relations, Facts: res.Facts,
		Chunks: make([]store.ChunkRecord, len(res.Chunks)),
	}
	ftsPath := query.IndexTextWith(j.file.Path, fts)
	for i, c := range res.Chunks {
		h := sha256.Sum256([]byte(c.EmbedText()))
		rec.Chunks[i] = store.ChunkRecord{
			Chunk:    c,
			TextHash: h[:],
			FTSName:  query.IndexTextWith(c.Name, fts),
			FTSPath:  ftsPath,
			FTSBody:  query.IndexTextWith(c.ContextLine()+"\n"+c.Content, fts),
		}
	}
	o.record = rec
	return o
}

// Fresh reports whether a file's stored fingerprint still describes the file
// on disk for the given embedding model: same size and modification time,
// same model, same chunker version. It is the one staleness predicate: a run
// skips fresh files without reading them, and status counts the others as
// changed.
func Fresh(fp store.Fingerprint, f scan.File, model string) bool {
	return fp.Size == f.Size && fp.MTime == f.ModTime && fp.Model == model && fp.Parser == lang.Version
}
