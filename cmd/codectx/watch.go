package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"codectx/internal/watch"
	"codectx/pkg/codectx"
)

func init() { commands = append(commands, watchCmd) }

func watchCmd() *cobra.Command {
	var (
		debounce time.Duration
		poll     time.Duration
		rootOpt  string
	)
	c := &cobra.Command{
		Use:   "watch [PATH]",
		Short: "Keep a project's index fresh: re-index incrementally whenever files change (Ctrl-C stops)",
		Long: `Index the project, then watch its files (recursively, skipping ignored,
hidden and vendored directories) and re-index incrementally after each burst
of changes. Each pass that changed something logs one line to stderr. Where
watching is impossible (too many directories, inotify limits, a network file
system) it polls with a stat pass every --poll instead.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := pathArg(args, rootOpt)
			if err != nil {
				return err
			}
			if debounce <= 0 || poll <= 0 {
				return usagef("--debounce and --poll must be positive")
			}
			p, err := openProject(root, openWrite, false)
			if err != nil {
				return err
			}
			defer p.Close()
			_, statErr := p.Stats(cmd.Context())
			errw := cmd.ErrOrStderr()
			first := true
			svc := watch.Start(cmd.Context(), watch.ServiceOptions{
				Root:         p.Root(),
				Indexed:      statErr == nil,
				DBPath:       p.DB(),
				Debounce:     debounce,
				PollInterval: poll,
				Logger:       logger(),
				Run: func(ctx context.Context, progress func(codectx.IndexProgress)) (*codectx.IndexSummary, error) {
					return p.Index(ctx, codectx.IndexOptions{Progress: progress})
				},
				OnPass: func(sum *codectx.IndexSummary, err error) {
					logPass(errw, sum, err, first)
					first = false
				},
			})
			defer svc.Close()
			if ok, why := svc.Watching(); ok {
				fmt.Fprintf(errw, "%s watching %s (%d directories); Ctrl-C stops\n", stamp(), p.Root(), svc.WatchedDirs())
			} else {
				fmt.Fprintf(errw, "%s not watching %s (%s); polling every %s; Ctrl-C stops\n", stamp(), p.Root(), why, poll)
			}
			<-cmd.Context().Done()
			fmt.Fprintf(errw, "%s stopped\n", stamp())
			return nil
		},
	}
	rootFlag(c, &rootOpt)
	c.Flags().DurationVar(&debounce, "debounce", watch.DefaultDebounce, "quiet period after a change before re-indexing")
	c.Flags().DurationVar(&poll, "poll", 5*time.Second, "stat-pass period when the tree cannot be watched")
	return c
}

func stamp() string { return time.Now().Format("15:04:05") }

// logPass prints one line per pass that did something (and the first one).
func logPass(w io.Writer, s *codectx.IndexSummary, err error, first bool) {
	if err != nil {
		fmt.Fprintf(w, "%s index pass failed: %v\n", stamp(), err)
		return
	}
	if !first && s.Changed == 0 && s.Removed == 0 && s.Failed == 0 {
		return
	}
	fmt.Fprintf(w, "%s indexed: %s\n", stamp(), s.Line())
}
