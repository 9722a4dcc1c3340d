package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func init() { commands = append(commands, feedbackCmd) }

func feedbackCmd() *cobra.Command {
	var root, up, down string
	var list, clear, asJSON bool
	c := &cobra.Command{
		Use:   "feedback [QUERY] (--up RESULT | --down RESULT | --list | --clear)",
		Short: "Record that a search result was good or bad for a query (it is promoted or demoted for that query and its paraphrases)",
		Long: `RESULT is FILE:LINE (the location search prints, e.g. client.go:120-160) or
FILE#SYMBOL (e.g. client.go#Client.Do). Judgements never delete anything; they
apply to queries with the same keywords after normalisation.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			q := strings.TrimSpace(strings.Join(args, " "))
			modes := 0
			for _, b := range []bool{up != "", down != "", list, clear} {
				if b {
					modes++
				}
			}
			if modes != 1 {
				return usagef("give exactly one of --up RESULT, --down RESULT, --list, --clear")
			}
			if (up != "" || down != "") && q == "" {
				return usagef("--up and --down need the QUERY the result was for")
			}
			p, err := openProject(root, openExisting, false)
			if err != nil {
				return err
			}
			defer p.Close()
			out := cmd.OutOrStdout()
			switch {
			case list:
				js, err := p.ListFeedback(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(out, js)
				}
				if len(js) == 0 {
					fmt.Fprintln(out, "no feedback recorded")
				}
				for _, j := range js {
					v := "up  "
					if j.Vote < 0 {
						v = "down"
					}
					fmt.Fprintf(out, "%s  %s  %s#%s  %q\n", time.Unix(j.CreatedAt, 0).Format("2006-01-02 15:04"), v, j.Path, j.Symbol, j.Query)
				}
				return nil
			case clear:
				n, err := p.ClearFeedback(cmd.Context())
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "cleared %d judgements\n", n)
				return nil
			}
			id, vote := up, 1
			if down != "" {
				id, vote = down, -1
			}
			j, err := p.Feedback(cmd.Context(), q, id, vote)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(out, j)
			}
			fmt.Fprintln(out, j.Text())
			return nil
		},
	}
	f := c.Flags()
	rootFlag(c, &root)
	f.StringVar(&up, "up", "", "RESULT that was good for the query")
	f.StringVar(&down, "down", "", "RESULT that was bad for the query")
	f.BoolVar(&list, "list", false, "list recorded judgements")
	f.BoolVar(&clear, "clear", false, "forget every judgement of the project")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
