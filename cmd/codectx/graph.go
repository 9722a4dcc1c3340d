package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, graphCmd) }

func graphCmd() *cobra.Command {
	var noIndex bool
	var (
		root, direction, format, minConf string
		depth                            int
	)
	c := &cobra.Command{
		Use:   "graph NAME",
		Short: "Show the relations of a type, method or function (extends, implements, contains, imports, calls)",
		Long: `Look NAME up in the index — a type (SampleService), a member
(SampleService.findUserById), a bare function name or a file path — and show
what it is related to: what it extends, implements, contains, imports and
calls, and who calls, contains or extends it. Resolved targets are shown with
path:line, unresolved ones are marked. Several matches are shown each.

Every edge says how its target was found: exact (by type, scope or import),
inferred (the only candidate of a named rule), name (several candidates:
never shown as resolved), external (outside the project, with the package
when known) or unresolved. --min-confidence exact|inferred|name|all keeps
only edges at least that sure; dispatch edges are calls through an
interface to its implementations; references edges are Go functions and
methods used as values (a callback, a handler, a method value), not called.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			name := strings.TrimSpace(strings.Join(args, " "))
			if name == "" {
				return usagef("graph needs a name: codectx graph NAME [--root PATH] [--direction out|in|both] [--depth N] [--format tree|mermaid|dot|json] [--min-confidence exact|inferred|name|all]")
			}
			opt := codectx.GraphOptions{Name: name, Direction: direction, Depth: depth, MinConfidence: minConf}
			if err := opt.Validate(); err != nil {
				return usagef("%v", err)
			}
			if !slices.Contains(codectx.GraphFormats, format) {
				return usagef("format must be one of %s, got %q", strings.Join(codectx.GraphFormats, ", "), format)
			}
			p, err := openIndexed(cmd, root, noIndex)
			if err != nil {
				return err
			}
			defer p.Close()
			g, err := p.Graph(cmd.Context(), opt)
			if err != nil {
				return err // an unknown name is one line with the closest names
			}
			out, err := g.Format(format)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), out)
			return nil
		},
	}
	f := c.Flags()
	rootFlag(c, &root)
	noIndexFlag(c, &noIndex)
	f.StringVar(&direction, "direction", codectx.DirectionBoth, "out (what it uses), in (who uses it) or both")
	f.IntVar(&depth, "depth", 1, fmt.Sprintf("hops to expand (at most %d nodes)", codectx.GraphMaxNodes))
	f.StringVar(&format, "format", codectx.GraphFormatTree, "tree, mermaid, dot or json")
	f.StringVar(&minConf, "min-confidence", "all", "keep edges resolved at least this surely: exact, inferred, name or all")
	return c
}
