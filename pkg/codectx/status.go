package codectx

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"codectx/internal/index"
	"codectx/internal/scan"
	"codectx/internal/store"
)

// maxStalePaths bounds the paths listed in a Status.
const maxStalePaths = 20

// Staleness counts files whose disk state differs from the index (found by a
// stat pass: size, mtime and embedding model, as Index compares them).
type Staleness struct {
	Changed int `json:"changed"` // indexed, but size or mtime differs (or another model)
	Added   int `json:"added"`   // on disk, not indexed
	Removed int `json:"removed"` // indexed, gone from disk (or now ignored)
	// Paths lists up to 20 of them, sorted.
	Paths []string `json:"paths,omitempty"`
}

// Total is the number of stale files.
func (s Staleness) Total() int { return s.Changed + s.Added + s.Removed }

// Status describes a project's index and how far it lags behind the disk.
type Status struct {
	Root    string `json:"root"`
	DB      string `json:"db"`
	Indexed bool   `json:"indexed"`
	// IndexedAt is when the last index pass finished (zero when never).
	IndexedAt      time.Time `json:"indexed_at,omitzero"`
	Files          int       `json:"files"`
	Chunks         int       `json:"chunks"`
	Relations      int       `json:"relations"`
	EmbeddingModel string    `json:"embedding_model"`  // the model the index was built with
	ConfigModel    string    `json:"configured_model"` // the embedder in use now
	Stale          Staleness `json:"stale"`
}

// Status reports the index's counts and its staleness, found by a stat pass
// over the project (no file is read). It works on a project that was never
// indexed (Indexed false, every file counted as added).
func (p *Project) Status(ctx context.Context) (*Status, error) {
	st := &Status{Root: p.root, DB: p.db.Path(), ConfigModel: p.emb.ModelID()}
	var fps map[string]store.Fingerprint
	pr, err := p.project(ctx)
	switch {
	case errors.Is(err, ErrNotIndexed):
	case err != nil:
		return nil, err
	default:
		stats, err := p.db.Stats(ctx, pr)
		if err != nil {
			return nil, err
		}
		st.Indexed = true
		st.IndexedAt = indexTime(pr.IndexedAt)
		st.Files, st.Chunks, st.Relations = stats.Files, stats.Chunks, stats.Relations
		st.EmbeddingModel = stats.EmbeddingModel
		if fps, err = p.db.Fingerprints(ctx, pr.ID); err != nil {
			return nil, err
		}
	}
	changed, added, removed, err := p.staleFiles(ctx, fps, st.ConfigModel)
	if err != nil {
		return nil, err
	}
	st.Stale.Changed, st.Stale.Added, st.Stale.Removed = len(changed), len(added), len(removed)
	paths := append(append(append([]string(nil), changed...), added...), removed...)
	sort.Strings(paths)
	st.Stale.Paths = paths[:min(len(paths), maxStalePaths)]
	return st, nil
}

// staleFiles compares a stat pass over the project with the stored
// fingerprints with index.Fresh, the predicate Index uses:
// indexed files that changed, files not indexed, and indexed files gone
// from disk (or now ignored), each sorted.
func (p *Project) staleFiles(ctx context.Context, fps map[string]store.Fingerprint, model string) (changed, added, removed []string, err error) {
	sc, err := scan.Scan(ctx, p.root, scan.Options{})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("status: %w", err)
	}
	seen := make(map[string]bool, len(sc.Files))
	for _, f := range sc.Files {
		seen[f.Path] = true
		fp, ok := fps[f.Path]
		switch {
		case !ok:
			added = append(added, f.Path)
		case !index.Fresh(fp, f, model):
			changed = append(changed, f.Path)
		}
	}
	for path := range fps {
		if !seen[path] {
			removed = append(removed, path)
		}
	}
	sort.Strings(changed)
	sort.Strings(added)
	sort.Strings(removed)
	return changed, added, removed, nil
}

// indexTime converts the stored indexed_at (Unix seconds) to a time.
func indexTime(v int64) time.Time {
	if v <= 0 {
		return time.Time{}
	}
	return time.Unix(v, 0)
}

// Text renders the status as the CLI prints it.
func (s *Status) Text() string {
	var b strings.Builder
	if !s.Indexed {
		fmt.Fprintf(&b, "%s is not indexed yet (%d files to index)\n", s.Root, s.Stale.Added)
		fmt.Fprintf(&b, "embedding model: %s\ndb: %s\n", s.ConfigModel, s.DB)
		return b.String()
	}
	fmt.Fprintf(&b, "root: %s\nfiles: %d, chunks: %d, relations: %d\n", s.Root, s.Files, s.Chunks, s.Relations)
	fmt.Fprintf(&b, "embedding model: %s", s.EmbeddingModel)
	if s.ConfigModel != "" && s.ConfigModel != s.EmbeddingModel {
		fmt.Fprintf(&b, " (configured: %s — the next index pass re-embeds)", s.ConfigModel)
	}
	b.WriteString("\n")
	if !s.IndexedAt.IsZero() {
		fmt.Fprintf(&b, "indexed at: %s\n", s.IndexedAt.Format(time.RFC3339))
	}
	if s.Stale.Total() == 0 {
		b.WriteString("stale: none (every file matches the index)\n")
	} else {
		fmt.Fprintf(&b, "stale: %d files (%d changed, %d added, %d removed)", s.Stale.Total(), s.Stale.Changed, s.Stale.Added, s.Stale.Removed)
		if len(s.Stale.Paths) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(s.Stale.Paths, ", "))
			if n := s.Stale.Total() - len(s.Stale.Paths); n > 0 {
				fmt.Fprintf(&b, ", … and %d more", n)
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "db: %s\n", s.DB)
	return b.String()
}
