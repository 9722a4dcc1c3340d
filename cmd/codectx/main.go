// Command codectx is the CLI: it wires flags to the public codectx API and
// renders results. It holds no behaviour of its own.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"codectx/internal/embed"
	"codectx/pkg/codectx"
)

// usageError marks a mistake in how the command was called (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// global flags
var (
	flagDB      string
	flagVerbose bool
	flagEmbed   struct {
		provider, model, baseURL string
		batch                    int
	}
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "codectx",
		Short:         "Local code-context engine: exact search, hybrid search, relation graph and repository context",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&flagDB, "db", "", "database file (default $CODECTX_HOME/index.db, CODECTX_HOME defaults to ~/.codectx)")
	root.PersistentFlags().BoolVarP(&flagVerbose, "verbose", "v", false, "log diagnostics to stderr")
	pf := root.PersistentFlags()
	pf.StringVar(&flagEmbed.provider, "embedding-provider", "", "embedding provider: local, ollama, openai (glm, zhipu); overrides EMBEDDING_PROVIDER")
	pf.StringVar(&flagEmbed.model, "embedding-model", "", "embedding model; overrides EMBEDDING_MODEL")
	pf.StringVar(&flagEmbed.baseURL, "embedding-base-url", "", "embedding API base URL; overrides EMBEDDING_BASE_URL")
	pf.IntVar(&flagEmbed.batch, "embedding-batch-size", 0, "texts per embedding request; overrides EMBEDDING_BATCH_SIZE")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err.Error()} })
	for _, add := range commands {
		root.AddCommand(add())
	}
	return root
}

// commands is filled by each command file's init.
var commands []func() *cobra.Command

func logger() *slog.Logger {
	level := slog.LevelWarn
	if flagVerbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// openMode says what a command does with the database.
type openMode int

const (
	openWrite    openMode = iota // index: creates the database when missing
	openRead                     // queries: create nothing, read-only files are fine
	openExisting                 // feedback: writes, but only to an existing index
)

// openProject opens root with the global flags.
func openProject(root string, mode openMode, rebuild bool) (*codectx.Project, error) {
	cfg := embedConfig()
	p, err := codectx.Open(root, codectx.Options{DBPath: flagDB, Logger: logger(), Rebuild: rebuild, Embed: &cfg,
		ReadOnly: mode == openRead, MustExist: mode == openExisting})
	var noIndex *codectx.NoIndexError
	if errors.As(err, &noIndex) {
		return nil, fmt.Errorf("%w; run codectx index", err)
	}
	return p, err
}

// embedConfig is the environment's embedding configuration with flags applied.
func embedConfig() embed.Config {
	cfg := embed.ConfigFromEnv()
	if flagEmbed.provider != "" {
		if flagEmbed.provider != cfg.Provider {
			// A different provider starts from its own defaults.
			cfg.Model, cfg.BaseURL = "", ""
		}
		cfg.Provider = flagEmbed.provider
	}
	if flagEmbed.model != "" {
		cfg.Model = flagEmbed.model
	}
	if flagEmbed.baseURL != "" {
		cfg.BaseURL = flagEmbed.baseURL
	}
	if flagEmbed.batch > 0 {
		cfg.BatchSize = flagEmbed.batch
	}
	return cfg
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if path := os.Getenv("CODECTX_CPUPROFILE"); path != "" {
		// Diagnostics for benchmarks: a CPU profile of the whole command.
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	err := newRoot().ExecuteContext(ctx)
	pprof.StopCPUProfile()
	if err == nil {
		return
	}
	msg := strings.TrimSpace(err.Error())
	if i := strings.IndexByte(msg, '\n'); i >= 0 && !flagVerbose {
		msg = msg[:i]
	}
	fmt.Fprintln(os.Stderr, "codectx: "+msg)
	var ue usageError
	switch {
	case errors.As(err, &ue), errors.Is(err, codectx.ErrNotIndexed), errors.Is(err, codectx.ErrNoIndex):
		os.Exit(2)
	case errors.Is(err, context.Canceled):
		os.Exit(130)
	}
	os.Exit(1)
}

// pathArg is the optional PATH argument of a command, "." when absent.
func pathArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return "."
}
