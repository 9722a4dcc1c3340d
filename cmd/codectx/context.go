package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, contextCmd) }

func contextCmd() *cobra.Command {
	var noIndex bool
	var (
		root, depth string
		budget, k   int
		asJSON, rw  bool
		keywords    []string
	)
	c := &cobra.Command{
		Use:   "context QUERY",
		Short: "Assemble the code a model should read to answer a question, within a token budget",
		Long: `Build repository context for a question: the top hybrid-search chunks, expanded
along calls (callers and callees) and containment (a method's type header) when
the neighbours are relevant to the question, grouped per file in source order
and cut to a token budget (cl100k_base tokens; never exceeded). --depth auto
picks the hops from the question: "how is X implemented" 2, "who calls X" 1
(callers first), "where is X defined" 0.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			q := strings.TrimSpace(strings.Join(args, " "))
			if q == "" {
				return usagef("context needs a query: codectx context QUERY [--root PATH] [--budget TOKENS] [--depth auto|0|1|2] [--json]")
			}
			if err := checkContextFlags(budget, depth, k); err != nil {
				return err
			}
			p, err := openIndexed(cmd, root, noIndex)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := p.Context(cmd.Context(), codectx.ContextOptions{Query: q, Budget: budget, Depth: depth, Keywords: keywords, K: k, Rewrite: rw})
			if err != nil {
				return queryError(err)
			}
			printWarnings(cmd.ErrOrStderr(), res.Warnings, res.RewriteFallback)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			fmt.Fprint(cmd.OutOrStdout(), res.Text())
			return nil
		},
	}
	f := c.Flags()
	rootFlag(c, &root)
	noIndexFlag(c, &noIndex)
	f.IntVar(&budget, "budget", codectx.DefaultContextBudget, "most tokens (cl100k_base) the context may use")
	f.StringVar(&depth, "depth", "auto", "hops of expansion: auto, 0, 1 or 2")
	f.IntVar(&k, "seeds", codectx.DefaultContextSeeds, "search results to start from")
	f.StringSliceVar(&keywords, "keyword", nil, "extra keyword for the search and the relevance filter (repeatable)")
	f.BoolVar(&asJSON, "json", false, "print the context as JSON (files, chunks, reasons, token count)")
	f.BoolVar(&rw, "rewrite", false, "ask the chat model at LLM_BASE_URL (LLM_MODEL, LLM_API_KEY; LLM_TIMEOUT_MS, default 5000) for likely identifiers and keywords first; if that is not configured or fails, build the context offline (said only with -v); with --depth auto the model's intent picks the depth (implementation 2, usage 1, location 0)")
	return c
}
