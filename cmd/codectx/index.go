package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, indexCmd, statsCmd) }

// indexMemoryLimit is the soft Go heap limit of `codectx index` unless GOMEMLIMIT is set.
const indexMemoryLimit = 256 << 20

func indexCmd() *cobra.Command {
	var noWait bool
	var asJSON, rebuild bool
	c := &cobra.Command{
		Use:   "index [PATH]",
		Short: "Index a project incrementally (chunks, relations, vectors)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := pathArg(args)
			if os.Getenv("GOMEMLIMIT") == "" {
				// A soft heap limit keeps indexing of huge trees inside a
				// laptop's budget: the GC works harder instead of letting the
				// heap double. Searches (which hold vectors) are not limited.
				debug.SetMemoryLimit(indexMemoryLimit)
			}
			p, err := openProject(root, openWrite, rebuild)
			if err != nil {
				return err
			}
			defer p.Close()
			prog := newProgress(os.Stderr, asJSON)
			onWait := func(h codectx.WriterHolder) {
				fmt.Fprintf(cmd.ErrOrStderr(), "codectx: %s is indexing %s; waiting for it to finish (Ctrl-C stops)\n", h, p.Root())
			}
			sum, err := p.Index(cmd.Context(), codectx.IndexOptions{Rebuild: rebuild, Progress: prog.update, OnWait: onWait, NoWait: noWait})
			prog.finish()
			var intr *codectx.InterruptedError
			if errors.As(err, &intr) {
				return fmt.Errorf("%w; run codectx index again to finish", err)
			}
			if errors.Is(err, codectx.ErrDimensions) {
				return fmt.Errorf("%w; the files written before stay indexed: fix the embedding server, or index with another --embedding-model", err)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), sum)
			}
			printSummary(cmd.OutOrStdout(), cmd.ErrOrStderr(), sum)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	c.Flags().BoolVar(&noWait, "no-wait", false, "when another process is indexing this project, say which and exit instead of waiting for it")
	c.Flags().BoolVar(&rebuild, "rebuild", false, "drop this project's index (or an unusable database file) and index from scratch")
	return c
}

func printSummary(out, errw io.Writer, s *codectx.IndexSummary) {
	const maxWarn = 20
	for i, w := range s.Warnings {
		if i == maxWarn {
			fmt.Fprintf(errw, "warning: … and %d more\n", len(s.Warnings)-maxWarn)
			break
		}
		fmt.Fprintf(errw, "warning: %s: %s\n", w.Path, w.Reason)
	}
	fmt.Fprintf(out, "indexed %s\n", s.Root)
	fmt.Fprintf(out, "  files: %d scanned, %d changed, %d removed, %d unchanged, %d failed, %d skipped\n",
		s.Scanned, s.Changed, s.Removed, s.Unchanged, s.Failed, s.Skipped)
	fmt.Fprintf(out, "  chunks: %d written (%d in index), relations: %d written, %d resolved\n",
		s.Chunks, s.TotalChunks, s.Relations, s.Resolved)
	fmt.Fprintf(out, "  embeddings: %d embedded, %d cache hits (%s)\n", s.Embedded, s.CacheHits, s.Model)
	fmt.Fprintf(out, "  elapsed: %.2fs  db: %s\n", s.ElapsedSec, s.DB)
}

// progress renders index progress: a bar on a terminal, a line every few
// seconds otherwise, nothing for --json.
type progress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	quiet bool
	last  time.Time
	start time.Time
}

func newProgress(w io.Writer, quiet bool) *progress {
	return &progress{w: w, quiet: quiet, start: time.Now(), last: time.Now()}
}

func (p *progress) update(ev codectx.IndexProgress) {
	if p.quiet || ev.Phase != "index" || ev.Total == 0 {
		return
	}
	if f, ok := p.w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if p.bar == nil {
			p.bar = progressbar.NewOptions(ev.Total,
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription("indexing"),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("files"),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		p.bar.Describe(fmt.Sprintf("indexing (%d chunks)", ev.Chunks))
		p.bar.Set(ev.Done)
		return
	}
	if time.Since(p.last) >= 3*time.Second {
		p.last = time.Now()
		el := time.Since(p.start).Seconds()
		rate := float64(ev.Done) / max(el, 0.001)
		eta := float64(ev.Total-ev.Done) / max(rate, 0.001)
		fmt.Fprintf(p.w, "indexing: %d/%d files, %d chunks, %.0f files/s, ETA %.0fs\n", ev.Done, ev.Total, ev.Chunks, rate, eta)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

func statsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "stats [PATH]",
		Short: "Show what the index holds for a project",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := pathArg(args)
			p, err := openProject(root, openRead, false)
			if err != nil {
				return err
			}
			defer p.Close()
			st, err := p.Stats(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), st)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "files: %d\nchunks: %d\nrelations: %d (%d resolved)\nembedding_model: %s\ndb: %s\n",
				st.Files, st.Chunks, st.Relations, st.Resolved, st.EmbeddingModel, st.DB)
			fmt.Fprintf(out, "chunks by language: %s\n", formatCounts(st.ByLanguage))
			fmt.Fprintf(out, "chunks by kind: %s\n", formatCounts(st.ByKind))
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
