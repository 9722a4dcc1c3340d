package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, searchCmd) }

func searchCmd() *cobra.Command {
	var noIndex bool
	var (
		root, mode, ranker string
		k                  int
		asJSON, rw, expl   bool
		keywords           []string
	)
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Hybrid (keyword + semantic) search for the code that answers a question",
		Long: `Search the project's index with a question in natural language (English or
Chinese), identifiers, or both. Results are chunks (functions, methods,
types, file-level declarations) ranked by fusing FTS5 BM25 keyword matches
with embedding similarity; the first lines summarise where to start reading.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			q := strings.TrimSpace(strings.Join(args, " "))
			if q == "" {
				return usagef("search needs a query: codectx search QUERY [--root PATH] [-k N] [--mode hybrid|keyword|semantic] [--ranker default|seed] [--json]")
			}
			if err := checkSearch(codectx.SearchOptions{Query: q, K: k, Mode: mode, Ranker: ranker, Keywords: keywords, Explain: expl}); err != nil {
				return err
			}
			p, err := openIndexed(cmd, root, noIndex)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := p.Search(cmd.Context(), codectx.SearchOptions{Query: q, K: k, Mode: mode, Ranker: ranker, Keywords: keywords, Rewrite: rw, Explain: expl})
			if err != nil {
				return queryError(err)
			}
			printWarnings(cmd.ErrOrStderr(), res.Warnings, res.RewriteFallback)
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), res); err != nil {
					return err
				}
				return noMatchIf(len(res.Results) == 0)
			}
			printSearch(cmd.OutOrStdout(), res)
			if len(res.Results) > 0 {
				h := res.Results[0]
				fmt.Fprintf(cmd.OutOrStdout(), "\nnext: %s\n", cliRead(p.Root(), h.File, h.StartLine, h.EndLine-h.StartLine+1))
			}
			return noMatchIf(len(res.Results) == 0)
		},
	}
	f := c.Flags()
	rootFlag(c, &root)
	noIndexFlag(c, &noIndex)
	f.IntVarP(&k, "k", "k", codectx.DefaultSearchK, fmt.Sprintf("number of results (1..%d)", codectx.MaxSearchK))
	f.StringVar(&mode, "mode", codectx.ModeHybrid, "hybrid, keyword or semantic")
	f.StringVar(&ranker, "ranker", codectx.RankerDefault, "default or seed (the reference fusion)")
	f.StringSliceVar(&keywords, "keyword", nil, "extra keyword to search for (repeatable)")
	f.BoolVar(&asJSON, "json", false, `print {"query","summary","keywords","results":[...]} as JSON`)
	f.BoolVar(&expl, "explain", false, "show the parts of each result's score (keyword, coverage, semantic, kind, length, file, demotions; default ranker)")
	f.BoolVar(&rw, "rewrite", false, "ask the chat model at LLM_BASE_URL (LLM_MODEL, LLM_API_KEY; LLM_TIMEOUT_MS, default 5000) for likely identifiers and keywords first; if that is not configured or fails, search offline (said only with -v)")
	return c
}

// printWarnings prints a result's warnings to w. The note that query
// rewriting fell back to the offline search (rewriteFallback) is printed
// only with -v: the fallback is silent otherwise (it stays in the JSON
// output's warnings).
func printWarnings(w io.Writer, warnings []string, rewriteFallback string) {
	for _, msg := range warnings {
		if msg == rewriteFallback && !flagVerbose {
			continue
		}
		fmt.Fprintln(w, "warning: "+msg)
	}
}

// queryError turns the library's empty-query error (a query of only stop
// words) into a usage error.
func queryError(err error) error {
	if errors.Is(err, codectx.ErrEmptyQuery) {
		return usagef("the query has nothing to search for")
	}
	return err
}

// checkSearch validates a search's options with the library's one
// validation (the same words MCP and the HTTP API answer with).
func checkSearch(opt codectx.SearchOptions) error {
	if err := opt.Validate(); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// checkContextFlags validates context's --budget, --depth and --seeds (the
// CLI and the shell) with the library's check, as a usage error.
func checkContextFlags(budget int, depth string, seeds int) error {
	if err := codectx.CheckContextArgs(budget, depth, seeds); err != nil {
		return usageError{"--" + err.Error()}
	}
	return nil
}

// previewRunes is the preview length in the terminal listing.
const previewRunes = 120

// printSearch lists a search on a terminal (or a pipe): the library's
// rendering, snippets cut, colours where w is a terminal.
func printSearch(w io.Writer, r *codectx.SearchResult) {
	st := styleFor(w)
	fmt.Fprint(w, r.Render(codectx.SearchStyle{
		SnippetRunes: previewRunes,
		Paint: func(part, text string) string {
			switch part {
			case "name":
				return st.name(text)
			case "path":
				return st.path(text)
			}
			return st.dim(text)
		},
		GrepHint: func(pattern string) string {
			return fmt.Sprintf("no confident match; a text search for the rarest words: codectx grep -i '%s'", pattern)
		},
		UnreadHint: func(words []string) string {
			return fmt.Sprintf("not searched for: %s; add English words for them with --keyword WORD", strings.Join(words, ", "))
		},
	}))
}
