package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chzyer/readline"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, shellCmd) }

func shellCmd() *cobra.Command {
	var rootOpt string
	c := &cobra.Command{
		Use:   "shell [PATH]",
		Short: "Interactive prompt: /index, /search, /context, /graph, /grep, /read, /stats",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := pathArg(args, rootOpt)
			if err != nil {
				return err
			}
			p, err := openProject(root, openWrite, false)
			if err != nil {
				return err
			}
			sh := &shell{ctx: cmd.Context(), out: cmd.OutOrStdout(), proj: p}
			defer func() { sh.proj.Close() }()
			return sh.run(os.Stdin)
		},
	}
	rootFlag(c, &rootOpt)
	return c
}

// shell is the interactive prompt: a thin layer over the same API the
// commands use; every line is one call and its rendering.
type shell struct {
	ctx  context.Context
	out  io.Writer
	proj *codectx.Project
	// sent remembers what /context already showed in full in this shell.
	sent codectx.Session
}

const shellHelp = `commands (flags as in the CLI, anywhere on the line):
  /index [path]                  index the current project, or index PATH and switch to it
  /search <query> [-k N] [--mode hybrid|keyword|semantic] [--explain]
                                 hybrid search (a line without a slash searches too)
  /context <query> [--budget N] [--depth auto|0|1|2] [--seeds N]
                                 repository-level context (default 8000 tokens)
  /reset                         /context shows chunks already shown in full again
  /graph <name> [--direction out|in|both] [--depth N]
                                 relations of a type, method or function
  /grep <pattern> [-i] [-w] [-F] [-g GLOB]
                                 exact search (regular expression)
  /read <file> [offset] [limit]  numbered lines of a file
  /stats                         what the index holds
  /help                          this list
  /quit                          leave (also exit, quit, Ctrl-D)`

// run reads lines until /quit or end of input: with line editing and history
// on a terminal, plainly otherwise.
func (s *shell) run(in *os.File) error {
	fmt.Fprintf(s.out, "codectx shell on %s — /help for commands\n", s.proj.Root())
	if term.IsTerminal(int(in.Fd())) {
		home := filepath.Dir(s.proj.DB())
		rl, err := readline.NewEx(&readline.Config{
			Prompt:          "codectx> ",
			HistoryFile:     filepath.Join(home, "shell_history"),
			InterruptPrompt: "^C",
			EOFPrompt:       "/quit",
			AutoComplete: readline.NewPrefixCompleter(
				readline.PcItem("/index"), readline.PcItem("/search"), readline.PcItem("/context"), readline.PcItem("/reset"),
				readline.PcItem("/graph"), readline.PcItem("/grep"), readline.PcItem("/read"),
				readline.PcItem("/stats"), readline.PcItem("/help"), readline.PcItem("/quit"),
			),
		})
		if err != nil {
			return fmt.Errorf("start line editor: %w", err)
		}
		defer rl.Close()
		for {
			line, err := rl.Readline()
			if errors.Is(err, readline.ErrInterrupt) {
				continue
			}
			if err != nil { // io.EOF
				return nil
			}
			if s.exec(line) {
				return nil
			}
		}
	}
	return s.loop(in)
}

// loop runs lines from r without a prompt (pipes, tests).
func (s *shell) loop(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if s.exec(sc.Text()) {
			return nil
		}
	}
	return sc.Err()
}

// exec runs one line and reports whether the shell should end. Errors are
// printed as one line; the shell goes on.
func (s *shell) exec(line string) bool {
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	cmd, arg := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		cmd, arg = line[:i], strings.TrimSpace(line[i+1:])
	}
	switch {
	case line == "exit" || line == "quit" || line == "q":
		return true
	case line == "help" || line == "?":
		cmd = "/help"
	case !strings.HasPrefix(cmd, "/"):
		cmd, arg = "/search", line
	}
	var err error
	switch cmd {
	case "/quit", "/exit", "/q":
		return true
	case "/help", "/?":
		fmt.Fprintln(s.out, shellHelp)
	case "/index":
		err = s.index(arg)
	case "/search":
		err = s.search(arg)
	case "/context":
		err = s.context(arg)
	case "/reset":
		s.sent.Reset()
		fmt.Fprintln(s.out, "/context will show every chunk again")
	case "/graph":
		err = s.graph(arg)
	case "/grep":
		err = s.grep(arg)
	case "/read":
		err = s.read(arg)
	case "/stats":
		err = s.stats()
	default:
		err = fmt.Errorf("unknown command %s (try /help)", cmd)
	}
	if err != nil {
		msg := firstLine(err.Error())
		if hint := shellErrorHint(err); hint != "" {
			msg += "; " + hint
		}
		fmt.Fprintln(s.out, "error: "+msg)
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (s *shell) index(arg string) error {
	if arg == "" {
		sum, err := s.proj.Index(s.ctx, codectx.IndexOptions{})
		if err != nil {
			return err
		}
		printSummary(s.out, s.out, sum)
		return nil
	}
	p, err := openProject(arg, openWrite, false)
	if err != nil {
		return fmt.Errorf("%w; staying on %s", err, s.proj.Root())
	}
	sum, err := p.Index(s.ctx, codectx.IndexOptions{})
	if err != nil {
		p.Close()
		return fmt.Errorf("%w; staying on %s", err, s.proj.Root())
	}
	printSummary(s.out, s.out, sum)
	if sum.TotalChunks == 0 {
		p.Close()
		fmt.Fprintf(s.out, "%s has nothing to index; staying on %s\n", p.Root(), s.proj.Root())
		return nil
	}
	s.proj.Close()
	s.proj = p
	fmt.Fprintf(s.out, "switched to %s\n", p.Root())
	return nil
}

// shellArgs splits a shell command's argument into its flags, defined by
// define with the CLI's names, and the remaining words (the query).
func shellArgs(cmd, arg string, define func(*pflag.FlagSet)) (string, error) {
	fs := pflag.NewFlagSet(cmd, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	define(fs)
	if err := fs.Parse(strings.Fields(arg)); err != nil {
		return "", fmt.Errorf("%s: %w (try /help)", cmd, err)
	}
	return strings.Join(fs.Args(), " "), nil
}

func (s *shell) search(arg string) error {
	opt := codectx.SearchOptions{K: codectx.DefaultSearchK, Mode: codectx.ModeHybrid, Ranker: codectx.RankerDefault}
	q, err := shellArgs("/search", arg, func(fs *pflag.FlagSet) {
		fs.IntVarP(&opt.K, "k", "k", opt.K, "")
		fs.StringVar(&opt.Mode, "mode", opt.Mode, "")
		fs.StringVar(&opt.Ranker, "ranker", opt.Ranker, "")
		fs.BoolVar(&opt.Explain, "explain", false, "")
	})
	if err != nil {
		return err
	}
	if q == "" {
		return errors.New("usage: /search <query> [-k N] [--mode hybrid|keyword|semantic] [--explain]")
	}
	opt.Query = q
	if err := checkSearch(opt); err != nil {
		return err
	}
	res, err := s.proj.Search(s.ctx, opt)
	if err != nil {
		return err
	}
	printSearch(s.out, res)
	if len(res.Results) > 0 {
		h := res.Results[0]
		fmt.Fprintf(s.out, "\nnext: /read %s %d %d\n", shellQuote(h.File), h.StartLine, h.EndLine-h.StartLine+1)
	}
	return nil
}

func (s *shell) context(arg string) error {
	opt := codectx.ContextOptions{Budget: codectx.DefaultContextBudget, Depth: "auto", K: codectx.DefaultContextSeeds}
	q, err := shellArgs("/context", arg, func(fs *pflag.FlagSet) {
		fs.IntVar(&opt.Budget, "budget", opt.Budget, "")
		fs.StringVar(&opt.Depth, "depth", opt.Depth, "")
		fs.IntVar(&opt.K, "seeds", opt.K, "")
	})
	if err != nil {
		return err
	}
	if q == "" {
		return errors.New("usage: /context <query> [--budget N] [--depth auto|0|1|2] [--seeds N]")
	}
	if err := checkContextFlags(opt.Budget, opt.Depth, opt.K); err != nil {
		return err
	}
	opt.Query, opt.Session = q, &s.sent
	res, err := s.proj.Context(s.ctx, opt)
	if err != nil {
		return err
	}
	fmt.Fprint(s.out, ensureNewline(res.Text()))
	return nil
}

func (s *shell) graph(arg string) error {
	opt := codectx.GraphOptions{Direction: codectx.DirectionBoth, Depth: 1}
	name, err := shellArgs("/graph", arg, func(fs *pflag.FlagSet) {
		fs.StringVar(&opt.Direction, "direction", opt.Direction, "")
		fs.IntVar(&opt.Depth, "depth", opt.Depth, "")
	})
	if err != nil {
		return err
	}
	if name == "" {
		return errors.New("usage: /graph <name> [--direction out|in|both] [--depth N]")
	}
	opt.Name = name
	if err := opt.Validate(); err != nil {
		return err
	}
	res, err := s.proj.Graph(s.ctx, opt)
	if err != nil {
		return err
	}
	fmt.Fprint(s.out, ensureNewline(res.Text()))
	return nil
}

func (s *shell) grep(arg string) error {
	var opt codectx.GrepOptions
	pattern, err := shellArgs("/grep", arg, func(fs *pflag.FlagSet) {
		fs.BoolVarP(&opt.IgnoreCase, "ignore-case", "i", false, "")
		fs.BoolVarP(&opt.Word, "word-regexp", "w", false, "")
		fs.BoolVarP(&opt.Fixed, "fixed", "F", false, "")
		fs.StringVarP(&opt.Glob, "glob", "g", "", "")
	})
	if err != nil {
		return err
	}
	if pattern == "" {
		return errors.New("usage: /grep <pattern> [-i] [-w] [-F] [-g GLOB]")
	}
	opt.Pattern = pattern
	res, err := s.proj.Grep(s.ctx, opt)
	if err != nil {
		return err
	}
	fmt.Fprint(s.out, ensureNewline(res.Render(shellReadHint)))
	return nil
}

func (s *shell) read(arg string) error {
	f := strings.Fields(arg)
	if len(f) == 0 || len(f) > 3 {
		return errors.New("usage: /read <file> [offset] [limit]")
	}
	opt := codectx.ReadOptions{File: f[0]}
	for i, dst := range []*int{&opt.Offset, &opt.Limit} {
		if len(f) > i+1 {
			n, err := strconv.Atoi(f[i+1])
			if err != nil || n < 1 {
				return fmt.Errorf("usage: /read <file> [offset] [limit]: %q is not a positive number", f[i+1])
			}
			*dst = n
		}
	}
	res, err := s.proj.Read(s.ctx, opt)
	if err != nil {
		return err
	}
	fmt.Fprint(s.out, ensureNewline(res.Render(shellReadHint)))
	return nil
}

func (s *shell) stats() error {
	st, err := s.proj.Stats(s.ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "project: %s\n%s", s.proj.Root(), st.Text())
	return nil
}
