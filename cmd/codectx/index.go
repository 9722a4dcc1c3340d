package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, indexCmd, statsCmd) }

// The soft Go heap limits of `codectx index` unless GOMEMLIMIT is set:
// indexMemoryLimit while files are parsed and written, resolveMemoryLimit
// from relation resolution on. The Go heap peaks at the end of
// resolution, when the project's symbols, type facts, pending relations
// and the resolver's tables are live (140–157 MB for $GOROOT/src's 98k
// chunks): 192 MiB keeps the heap there under ~170 MB instead of letting
// it grow to ~230 MB (issue 15's 300 MB for the whole process), for
// ~0.5 s more GC work on that tree (1–2 % of the run's CPU;
// docs/BENCHMARKS.md, tenth session). The writing phase's live heap is
// small and keeps the higher limit: its peaks (large files) stay well
// under 300 MB without more collections. A tree whose live heap nears a
// limit pays more GC for it.
const (
	indexMemoryLimit   = 256 << 20
	resolveMemoryLimit = 192 << 20
)

// memoryLimit is the soft Go heap limit for an index run's phase
// (codectx.IndexProgress.Phase).
func memoryLimit(phase string) int64 {
	switch phase {
	case "resolve", "done":
		return resolveMemoryLimit
	}
	return indexMemoryLimit
}

func indexCmd() *cobra.Command {
	var noWait bool
	var asJSON, rebuild bool
	var rootOpt string
	c := &cobra.Command{
		Use:   "index [PATH]",
		Short: "Index a project incrementally (chunks, relations, vectors)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := pathArg(args, rootOpt)
			if err != nil {
				return err
			}
			limit := os.Getenv("GOMEMLIMIT") == ""
			if limit {
				// A soft heap limit keeps indexing of huge trees inside a
				// laptop's budget: the GC works harder instead of letting the
				// heap double. Searches (which hold vectors) are not limited.
				debug.SetMemoryLimit(memoryLimit("scan"))
			}
			p, err := openProject(root, openIndexOnly, rebuild)
			if err != nil {
				return err
			}
			defer p.Close()
			prog := newProgress(os.Stderr, asJSON)
			update := prog.update
			if limit {
				phase := "scan"
				update = func(ev codectx.IndexProgress) { // on one goroutine
					if ev.Phase != phase {
						phase = ev.Phase
						debug.SetMemoryLimit(memoryLimit(phase))
					}
					prog.update(ev)
				}
			}
			onWait := func(h codectx.WriterHolder) {
				fmt.Fprintf(cmd.ErrOrStderr(), "codectx: %s is indexing %s; waiting for it to finish (Ctrl-C stops)\n", h, p.Root())
			}
			sum, err := p.Index(cmd.Context(), codectx.IndexOptions{Rebuild: rebuild, Progress: update, OnWait: onWait, NoWait: noWait, PrepareSearch: true})
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
			// Best effort: without the files the next search reads every vector.
			if sum.SearchFilesError != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "codectx: warning: %s\n", sum.SearchFilesError)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), sum)
			}
			printSummary(cmd.OutOrStdout(), cmd.ErrOrStderr(), sum)
			return nil
		},
	}
	rootFlag(c, &rootOpt)
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
	fmt.Fprint(out, s.Text())
}

// progress renders index progress on stderr: a bar on a terminal, a line
// every few seconds otherwise, nothing for --json. It speaks from the first
// event (the scan), so a large tree never sits silent.
type progress struct {
	w     io.Writer
	tty   bool
	bar   *progressbar.ProgressBar
	quiet bool
	last  time.Time
	start time.Time
	phase string
}

func newProgress(w io.Writer, quiet bool) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &progress{w: w, tty: tty, quiet: quiet, start: time.Now()}
}

func (p *progress) update(ev codectx.IndexProgress) {
	if p.quiet {
		return
	}
	first := ev.Phase != p.phase
	p.phase = ev.Phase
	switch ev.Phase {
	case "scan":
		fmt.Fprintln(p.w, "scanning files…")
		return
	case "resolve":
		p.finish()
		fmt.Fprintf(p.w, "resolving relations (%s written)…\n", plural(ev.Chunks, "chunk"))
		return
	case "index":
	default:
		return
	}
	if ev.Total == 0 {
		return
	}
	if p.tty {
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
		p.bar.Describe(fmt.Sprintf("indexing (%s)", plural(ev.Chunks, "chunk")))
		p.bar.Set(ev.Done)
		return
	}
	if !first && time.Since(p.last) < 3*time.Second {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "indexing: %d/%s, %s%s\n", ev.Done, plural(ev.Total, "file"), plural(ev.Chunks, "chunk"), p.rate(ev))
}

// rate is ", N files/s, ETA Ns" once enough is done for the estimate to
// mean something (the first files are the cheap ones), "" before.
func (p *progress) rate(ev codectx.IndexProgress) string {
	el := time.Since(p.start).Seconds()
	if el < 2 || ev.Done < 20 || ev.Done*50 < ev.Total {
		return ""
	}
	rate := float64(ev.Done) / el
	return fmt.Sprintf(", %.0f files/s, ETA %.0fs", rate, float64(ev.Total-ev.Done)/rate)
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func statsCmd() *cobra.Command {
	var asJSON bool
	var rootOpt string
	c := &cobra.Command{
		Use:   "stats [PATH]",
		Short: "Show what the index holds for a project",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := pathArg(args, rootOpt)
			if err != nil {
				return err
			}
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
			fmt.Fprint(cmd.OutOrStdout(), st.Text())
			return nil
		},
	}
	rootFlag(c, &rootOpt)
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
