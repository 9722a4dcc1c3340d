// Command codectx is the CLI: it wires flags to the public codectx API and
// renders results. It holds no behaviour of its own.
package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

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
		Version:       version(),
		// A word that is not a command is a usage error with the closest
		// commands, like git's "did you mean".
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			return unknownCommand(c, args[0])
		},
		RunE: func(c *cobra.Command, args []string) error { return c.Help() },
		// The environment is read once, before any command runs (help
		// and completion need none, so a bad variable does not stop them).
		PersistentPreRunE: func(c *cobra.Command, args []string) (err error) {
			if flagVerbose {
				// Packages that log through slog's default logger
				// (internal/search, internal/store) report at debug level too.
				slog.SetDefault(logger())
			}
			if c == c.Root() || c.Name() == "help" || c.Name() == cobra.ShellCompRequestCmd ||
				c.Name() == "completion" || (c.HasParent() && c.Parent().Name() == "completion") {
				return nil
			}
			runConfig, err = loadConfig()
			return err
		},
	}
	root.SetVersionTemplate("codectx {{.Version}}\n")
	root.PersistentFlags().StringVar(&flagDB, "db", "", "database file or postgres:// URL (default $CODECTX_DB, else $CODECTX_HOME/index.db, CODECTX_HOME defaults to ~/.codectx)")
	root.PersistentFlags().BoolVarP(&flagVerbose, "verbose", "v", false, "log diagnostics to stderr")
	pf := root.PersistentFlags()
	pf.StringVar(&flagEmbed.provider, "embedding-provider", "", "embedding provider: local, ollama, openai (glm, zhipu); overrides EMBEDDING_PROVIDER")
	pf.StringVar(&flagEmbed.model, "embedding-model", "", "embedding model; overrides EMBEDDING_MODEL")
	pf.StringVar(&flagEmbed.baseURL, "embedding-base-url", "", "embedding API base URL; overrides EMBEDDING_BASE_URL")
	pf.IntVar(&flagEmbed.batch, "embedding-batch-size", 0, "texts per embedding request; overrides EMBEDDING_BATCH_SIZE")
	root.SetFlagErrorFunc(flagError)
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

// rootFlag adds --root, the project a command works on.
func rootFlag(c *cobra.Command, dst *string) {
	c.Flags().StringVar(dst, "root", "", "project root (default: the indexed project or git work tree holding the current directory, else the current directory)")
}

// projectRoot is the absolute project root a command works on: root as
// given (--root or a PATH argument), or, when empty, the nearest indexed
// project at or above the current directory, else the top of its git work
// tree, else the current directory.
func projectRoot(ctx context.Context, root string) (string, error) {
	if root != "" {
		return codectx.ResolveRoot(root)
	}
	db, err := dbPath()
	if err != nil {
		return "", err
	}
	return codectx.FindRoot(ctx, ".", db)
}

// dbPath is the database file: --db, else the configuration's default.
func dbPath() (string, error) {
	if flagDB != "" {
		return flagDB, nil
	}
	return runConfig.DBPath()
}

// openMode says what a command does with the database.
type openMode int

const (
	openWrite     openMode = iota // shell, MCP, watch: creates the database when missing
	openRead                      // queries: create nothing, read-only files are fine
	openExisting                  // feedback: writes, but only to an existing index
	openIndexOnly                 // codectx index: writes, and never serves searches
)

// openProject opens the project at root (see projectRoot) with the global flags.
func openProject(root string, mode openMode, rebuild bool) (*codectx.Project, error) {
	abs, err := projectRoot(context.Background(), root)
	if err != nil {
		return nil, err
	}
	db, err := dbPath()
	if err != nil {
		return nil, err
	}
	cfg := runConfig
	opt := codectx.Options{DBPath: db, Logger: logger(), Rebuild: rebuild, Config: &cfg,
		ReadOnly: mode == openRead, MustExist: mode == openExisting}
	if mode == openIndexOnly {
		opt.CacheKiB = codectx.IndexCacheKiB
	}
	p, err := codectx.Open(abs, opt)
	return p, err
}

// runConfig is the configuration of this run, set by loadConfig before the
// command runs; commands read it, never the environment.
var runConfig codectx.Config

// loadConfig is the environment's configuration (codectx.ConfigFromEnv, the
// one place that reads the variables) with the global flags applied on top.
func loadConfig() (codectx.Config, error) {
	all, err := codectx.ConfigFromEnv(os.Getenv)
	if err != nil {
		return all, err
	}
	cfg := &all.Embed
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
	return all, nil
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
	os.Exit(reportError(os.Stderr, err))
}

// pathArg is the project of a command that takes an optional PATH argument
// as well as --root: whichever was given ("" for neither, see projectRoot).
func pathArg(args []string, root string) (string, error) {
	if len(args) == 1 {
		if root != "" && root != args[0] {
			return "", usagef("give the project once: PATH %q or --root %q", args[0], root)
		}
		return args[0], nil
	}
	return root, nil
}
