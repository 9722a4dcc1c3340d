// Package codectx is the public Go API of codectx: open a project, index it,
// and ask it questions (exact search, hybrid search, repository context,
// relation graph). The CLI, the interactive shell, the MCP server and the
// HTTP server are thin layers over this package: every behaviour — option
// validation, the results and their renderings — has one implementation
// here or below it.
//
// The result types are this package's own, with doc comments and stable
// JSON field names (the CLI's --json output, the HTTP API's answers and the
// MCP tools' structured content are these values): each is converted from
// the internal package's type in one function next to its definition, so
// an internal change does not change the API. Renderings that depend on
// the front end take its words as arguments (ReadHint, SearchStyle).
//
// It must not print, parse flags, or exit the process, and its errors name
// no command, flag or tool (the front ends add those hints). It reads
// environment variables in one place only, config.go (ConfigFromEnv), when a
// caller gives no Config.
package codectx

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"codectx/internal/embed"
	"codectx/internal/index"
	"codectx/internal/query"
	"codectx/internal/search"
	"codectx/internal/store"
)

// IndexWarning is a file an index run skipped or could not parse, and why.
type IndexWarning struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// IndexSummary is what an index run did.
type IndexSummary struct {
	Root      string `json:"root"`
	DB        string `json:"db"`
	Model     string `json:"embedding_model"`
	Scanned   int    `json:"scanned"`   // files found by the scan
	Changed   int    `json:"changed"`   // files (re)indexed
	Removed   int    `json:"removed"`   // files gone from the index
	Unchanged int    `json:"unchanged"` // files left as they were
	Failed    int    `json:"failed"`
	Skipped   int    `json:"skipped"`
	// SkippedDirs are the dependency and build-output directories the
	// scan left out (node_modules, vendor; target, build, dist, out beside
	// their tool's project file), topmost only.
	SkippedDirs []string       `json:"skipped_dirs,omitempty"`
	Chunks      int            `json:"chunks"`       // chunks written by this run
	Relations   int            `json:"relations"`    // relations written by this run
	Resolved    int            `json:"resolved"`     // relation targets (re)resolved by this run
	Embedded    int            `json:"embedded"`     // texts sent to the embedder
	CacheHits   int            `json:"cache_hits"`   // texts whose vector was already cached
	TotalChunks int            `json:"total_chunks"` // chunks in the project after the run
	ElapsedSec  float64        `json:"elapsed_seconds"`
	Warnings    []IndexWarning `json:"warnings,omitempty"`
	// SearchFilesError says why the search side files were not written
	// (IndexOptions.PrepareSearch); searches then read every vector.
	SearchFilesError string `json:"search_files_error,omitempty"`
}

func newIndexSummary(s *index.Summary) *IndexSummary {
	return &IndexSummary{Root: s.Root, DB: s.DB, Model: s.Model, Scanned: s.Scanned, Changed: s.Changed, Removed: s.Removed,
		Unchanged: s.Unchanged, Failed: s.Failed, Skipped: s.Skipped, SkippedDirs: s.SkippedDirs, Chunks: s.Chunks, Relations: s.Relations,
		Resolved: s.Resolved, Embedded: s.Embedded, CacheHits: s.CacheHits, TotalChunks: s.TotalChunks, ElapsedSec: s.ElapsedSec,
		Warnings: convertSlice(s.Warnings, func(w index.Warning) IndexWarning { return IndexWarning(w) })}
}

// Text describes the run in a few lines (its warnings are left to the
// caller: they are many on a large tree).
func (s *IndexSummary) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "indexed %s\n", s.Root)
	fmt.Fprintf(&b, "  files: %d scanned, %d changed, %d removed, %d unchanged, %d failed, %d skipped\n",
		s.Scanned, s.Changed, s.Removed, s.Unchanged, s.Failed, s.Skipped)
	if n := len(s.SkippedDirs); n > 0 {
		shown := s.SkippedDirs[:min(n, 4)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		fmt.Fprintf(&b, "  not indexed: %s%s (dependencies or build output; a line such as !%s/ in .codectxignore brings one in)\n",
			strings.Join(shown, "/, ")+"/", more, path.Base(s.SkippedDirs[0]))
	}
	fmt.Fprintf(&b, "  chunks: %d written this run, %d in the index\n", s.Chunks, s.TotalChunks)
	fmt.Fprintf(&b, "  relations: %d written this run, %d targets resolved\n", s.Relations, s.Resolved)
	fmt.Fprintf(&b, "  embeddings: %d embedded, %d from the cache (%s)\n", s.Embedded, s.CacheHits, s.Model)
	fmt.Fprintf(&b, "  elapsed: %.2fs  db: %s\n", s.ElapsedSec, s.DB)
	return b.String()
}

// Line describes the run in one line (for logs of repeated passes).
func (s *IndexSummary) Line() string {
	return fmt.Sprintf("%d files scanned, %d changed, %d removed, %d unchanged, %d failed; %d chunks written (%d in index); %.2fs",
		s.Scanned, s.Changed, s.Removed, s.Unchanged, s.Failed, s.Chunks, s.TotalChunks, s.ElapsedSec)
}

// IndexProgress is where an index run is, reported to
// IndexOptions.Progress.
type IndexProgress struct {
	Phase  string // "wait" (for another writer), "scan", "index", "resolve", "done"
	Holder string // in phase "wait": who holds the project's writer lock
	Done   int    // files processed (changed candidates)
	Total  int    // files to process
	Chunks int    // chunks written so far
}

// Stats counts what the index holds for a project.
type Stats struct {
	Files          int            `json:"files"`
	Chunks         int            `json:"chunks"`
	Relations      int            `json:"relations"`
	Resolved       int            `json:"resolved_relations"`
	EmbeddingModel string         `json:"embedding_model"`
	DB             string         `json:"db"`
	IndexedAt      int64          `json:"indexed_at"` // Unix seconds of the last finished run
	ByLanguage     map[string]int `json:"chunks_by_language"`
	ByKind         map[string]int `json:"chunks_by_kind"`
}

// Text lists the counts, one per line, the chunks per language and kind
// most first.
func (s *Stats) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "files: %d\nchunks: %d\nrelations: %d (%d resolved)\nembedding_model: %s\ndb: %s\n",
		s.Files, s.Chunks, s.Relations, s.Resolved, s.EmbeddingModel, s.DB)
	fmt.Fprintf(&b, "chunks by language: %s\n", formatCounts(s.ByLanguage))
	fmt.Fprintf(&b, "chunks by kind: %s\n", formatCounts(s.ByKind))
	return b.String()
}

// formatCounts is "go 12, python 3": most first, then by name.
func formatCounts(m map[string]int) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(m[b], m[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// InterruptedError is Index's error when its context ends: it says what
// was committed and kept (the next run continues from it), and unwraps to
// the context's error.
type InterruptedError struct {
	Batches int    // write transactions committed by the run
	Files   int    // files written in them
	Phase   string // where the run was: "index" or "resolve"
	Cause   error  // the context's error
}

func (e *InterruptedError) Error() string { return (*index.InterruptedError)(e).Error() }

// Unwrap returns the context's error.
func (e *InterruptedError) Unwrap() error { return e.Cause }

// WriterHolder is the process holding a project's writer lock.
type WriterHolder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Root    string    `json:"root"`
	Since   time.Time `json:"since"`
}

// String names the holder for people: "pid 4242 (codectx index) since 10:01:02".
func (h WriterHolder) String() string { return store.Holder(h).String() }

// ErrNotIndexed means the project has no index yet: run Index first.
var ErrNotIndexed = errors.New("project is not indexed yet")

// ErrCorrupt matches an error from a database file that is not a usable
// codectx database (Options.Rebuild removes it).
var ErrCorrupt = store.ErrCorrupt

// ErrNewerSchema matches an error from a database written by a newer
// codectx (Options.Rebuild removes it).
var ErrNewerSchema = store.ErrNewerSchema

// Embedder turns texts into vectors: the built-in local provider, Ollama,
// an OpenAI-compatible API, or a caller's own implementation.
type Embedder interface {
	// Embed returns one vector per input text, in input order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// ModelID is "provider:model", recorded with every indexed file.
	ModelID() string
	// Dims is the vector dimension.
	Dims() int
	// BatchSize is the preferred number of texts per Embed call.
	BatchSize() int
}

// EmbedConfig selects and configures an embedding provider (see
// Config.Embed and the EMBEDDING_* variables).
type EmbedConfig struct {
	Provider  string        // local (default), ollama, openai; glm and zhipu are aliases of openai
	Model     string        // "" = the provider's default
	BaseURL   string        // "" = the provider's default
	APIKey    string        // sent as "Authorization: Bearer"; never printed
	BatchSize int           // texts per request; 0 = 32
	Dims      int           // expected vector size; 0 = the model's default or the first answer's
	Timeout   time.Duration // one request attempt; 0 = 120 s
}

// Describe is the configuration for people, the key redacted.
func (c EmbedConfig) Describe() string { return c.internal().Describe() }

// NewEmbedder builds the embedder cfg describes (the batch size defaulted
// as Open does), without calling it.
func NewEmbedder(cfg EmbedConfig) (Embedder, error) {
	return embed.New(Config{Embed: cfg}.embedConfig())
}

// CheckEmbedder sends one short text through e and checks the answer (a
// vector of e's dimension); its error says what failed.
func CheckEmbedder(ctx context.Context, e Embedder) error { return embed.Check(ctx, e) }

func (c EmbedConfig) internal() embed.Config {
	return embed.Config{Provider: c.Provider, Model: c.Model, BaseURL: c.BaseURL, APIKey: c.APIKey,
		BatchSize: c.BatchSize, Dims: c.Dims, Timeout: c.Timeout}
}

// Options configure Open.
type Options struct {
	// DBPath is the database file; "" means Config.DBPath()
	// (index.db in CODECTX_HOME, default ~/.codectx).
	DBPath string
	// Config holds the settings the environment may give (embedding
	// provider, parse threads, grep engine, query rewriting, …); nil means
	// ConfigFromEnv(os.Getenv), and a bad variable is Open's error. A
	// caller that reads no environment passes &Config{} (the defaults).
	Config *Config
	// Embedder, when set, is used instead of building one from Config.Embed.
	Embedder Embedder
	// Logger for diagnostics; nil discards them.
	Logger *slog.Logger
	// Rebuild removes an unusable (corrupt, newer-schema) database file before opening.
	Rebuild bool
	// ReadOnly opens an existing index only to read it: nothing is created
	// (a missing database is a *NoIndexError), and a database file or
	// directory this process cannot write is opened read-only (Index and
	// other writes then fail with ErrReadOnly).
	ReadOnly bool
	// MustExist opens an existing index for writing (feedback) without
	// ever creating one: a missing database is a *NoIndexError.
	MustExist bool
	// CacheKiB is the database's page cache per connection in KiB (SQLite;
	// PostgreSQL ignores it); 0 means 32 MiB, which keeps searches warm. A
	// process that only indexes can take less: `codectx index` uses
	// IndexCacheKiB.
	CacheKiB int
}

// IndexCacheKiB is the page cache per connection `codectx index` opens
// with: a cold index of $GOROOT/src peaks at ~346 MB instead of ~411 MB
// with the default, at the same CPU time (docs/BENCHMARKS.md).
const IndexCacheKiB = 8 << 10

// NoIndexError is Open's error when the database file does not exist and
// the caller asked not to create it; errors.Is(err, ErrNoIndex) matches it.
type NoIndexError struct {
	Path string // the database file
}

func (e *NoIndexError) Error() string { return (&store.NoIndexError{Path: e.Path}).Error() }

// Is makes errors.Is(err, ErrNoIndex) true.
func (e *NoIndexError) Is(target error) bool { return target == ErrNoIndex }

// ErrNoIndex matches a *NoIndexError.
var ErrNoIndex = store.ErrNoIndex

// ErrDimensions is matched by the error of an index run whose embedder
// returned vectors of another size than the model's recorded dimension.
var ErrDimensions = store.ErrDimensions

// ErrReadOnly is matched by errors from writes to a database (file or
// directory) this process may not write.
var ErrReadOnly = store.ErrReadOnly

// Project is an open project: a root directory and the database holding its index.
type Project struct {
	root string
	db   *store.DB
	emb  embed.Embedder
	opt  Options
	cfg  Config
	log  *slog.Logger
}

// Open validates root and opens the database (creating it when needed).
func Open(root string, opt Options) (*Project, error) {
	abs, err := ResolveRoot(root)
	if err != nil {
		return nil, err
	}
	var cfg Config
	if opt.Config != nil {
		cfg = *opt.Config
	} else if cfg, err = envConfig(); err != nil {
		return nil, err
	}
	if opt.DBPath == "" {
		if opt.DBPath, err = cfg.DBPath(); err != nil {
			return nil, err
		}
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	emb := opt.Embedder
	if emb == nil {
		if emb, err = embed.New(cfg.embedConfig()); err != nil {
			return nil, err
		}
	}
	ctx := context.Background()
	sopt := store.Options{MustExist: opt.ReadOnly || opt.MustExist, CacheKiB: opt.CacheKiB}
	db, err := store.Open(ctx, opt.DBPath, sopt)
	if opt.ReadOnly && errors.Is(err, store.ErrReadOnly) {
		db, err = store.Open(ctx, opt.DBPath, store.Options{ReadOnly: true, CacheKiB: opt.CacheKiB})
	}
	if err != nil && opt.Rebuild && (errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrNewerSchema)) {
		log.Warn("removing unusable database", "db", opt.DBPath, "err", err)
		if rerr := store.Remove(opt.DBPath); rerr != nil {
			return nil, rerr
		}
		db, err = store.Open(ctx, opt.DBPath, store.Options{CacheKiB: opt.CacheKiB})
	}
	if nie, ok := errors.AsType[*store.NoIndexError](err); ok {
		return nil, &NoIndexError{Path: nie.Path}
	}
	if err != nil {
		return nil, err
	}
	return &Project{root: abs, db: db, emb: emb, opt: opt, cfg: cfg, log: log}, nil
}

// ResolveRoot makes root absolute and checks that it is a directory.
func ResolveRoot(root string) (string, error) {
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", root, err)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	st, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: no such directory", root)
		}
		return "", fmt.Errorf("%s: %w", root, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s: not a directory", root)
	}
	return abs, nil
}

// Root is the project's absolute root directory.
func (p *Project) Root() string { return p.root }

// DB is the database file path.
func (p *Project) DB() string { return p.db.Path() }

// Embedder is the embedding provider in use.
func (p *Project) Embedder() Embedder { return p.emb }

// Close releases the database.
func (p *Project) Close() error { return p.db.Close() }

// IndexOptions configure Index.
type IndexOptions struct {
	Rebuild  bool
	Progress func(IndexProgress)
	// OnWait is called once when another process is writing this project;
	// Index waits for it (ctx cancels the wait).
	OnWait func(WriterHolder)
	// NoWait returns an error matching ErrBusy, naming the other process,
	// instead of waiting for it.
	NoWait bool
	// PrepareSearch also writes what makes a search in a new process cheap
	// (see Project.PrepareSearch), while the end of the run (the deferred
	// indexes of a first index, the grep index) still works. A short-lived
	// indexing command sets it; long-lived processes need not, as their
	// first search writes the files. A failure there costs only speed: it
	// is reported in IndexSummary.SearchFilesError, not as Index's error.
	PrepareSearch bool
}

// ErrBusy is matched by Index's error under NoWait when another process is
// writing the project.
var ErrBusy = store.ErrBusy

// Index brings the project's index up to date incrementally. On an error
// the summary (when not nil) says what was done before it; when ctx ends
// the error is an *InterruptedError.
func (p *Project) Index(ctx context.Context, opt IndexOptions) (*IndexSummary, error) {
	io := index.Options{
		Root: p.root, DB: p.db, Embedder: p.emb, Threads: p.cfg.Threads, FTS: query.IndexOptions{WholeCJK: p.cfg.WholeCJK},
		Rebuild: opt.Rebuild, NoWait: opt.NoWait, Logger: p.log,
	}
	if opt.Progress != nil {
		io.Progress = func(pr index.Progress) { opt.Progress(IndexProgress(pr)) }
	}
	if opt.OnWait != nil {
		io.OnWait = func(h store.Holder) { opt.OnWait(WriterHolder(h)) }
	}
	// The grep index and the search side files read only the committed
	// state: they are written beside the end of the run (the deferred
	// indexes of a first index), one after the other. Each holds tens of
	// MB while it is built (the trigram postings; the chunks' metadata)
	// at the moment the process holds most, and the run's end already
	// keeps both cores busy with the index builds.
	var prepErr error
	io.AfterCommit = func(ctx context.Context) {
		p.updateGrepIndex(ctx)
		if opt.PrepareSearch {
			prepErr = p.PrepareSearch(ctx)
		}
	}
	s, err := index.Run(ctx, io)
	if ie, ok := errors.AsType[*index.InterruptedError](err); ok {
		err = (*InterruptedError)(ie)
	}
	var sum *IndexSummary
	if s != nil {
		sum = newIndexSummary(s) // what was done before an error, too
		if prepErr != nil {
			sum.SearchFilesError = prepErr.Error()
		}
	}
	return sum, err
}

// PrepareSearch writes what makes a search in a new process cheap (the
// quantised vector file of the index's current state) when it is missing.
// A short-lived indexing command calls it after Index; long-lived processes
// need not, as their first search writes it.
func (p *Project) PrepareSearch(ctx context.Context) error {
	pr, err := p.project(ctx)
	if err != nil {
		return err
	}
	if err := search.Prepare(ctx, p.db, pr); err != nil {
		return fmt.Errorf("prepare search: %w", err)
	}
	return nil
}

// Stats counts what the index holds for this project.
func (p *Project) Stats(ctx context.Context) (*Stats, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	st, err := p.db.Stats(ctx, pr)
	if err != nil {
		return nil, err
	}
	return (*Stats)(st), nil
}

// Indexed reports whether the project has finished an index run in its
// database (a cheap check: one row is read).
func (p *Project) Indexed(ctx context.Context) (bool, error) {
	_, err := p.project(ctx)
	if errors.Is(err, ErrNotIndexed) {
		return false, nil
	}
	return err == nil, err
}

func (p *Project) project(ctx context.Context) (*store.Project, error) {
	pr, err := p.db.Project(ctx, p.root)
	if errors.Is(err, store.ErrNoProject) || (err == nil && pr.IndexedAt == 0) {
		return nil, ErrNotIndexed
	}
	return pr, err
}
