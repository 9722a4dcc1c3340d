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
interface to its implementations.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			name := strings.TrimSpace(strings.Join(args, " "))
			if name == "" {
				return usagef("graph needs a name: codectx graph NAME [--root PATH] [--direction out|in|both] [--depth N] [--format tree|mermaid|dot|json] [--min-confidence exact|inferred|name|all]")
			}
			if err := checkGraphFlags(direction, format, depth); err != nil {
				return err
			}
			if !slices.Contains(codectx.GraphConfidences, minConf) {
				return usagef("--min-confidence must be exact, inferred, name or all, got %q", minConf)
			}
			p, err := openProject(root, openRead, false)
			if err != nil {
				return err
			}
			defer p.Close()
			g, err := p.Graph(cmd.Context(), codectx.GraphOptions{Name: name, Direction: direction, Depth: depth, MinConfidence: minConf})
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
	f.StringVar(&direction, "direction", codectx.DirectionBoth, "out (what it uses), in (who uses it) or both")
	f.IntVar(&depth, "depth", 1, fmt.Sprintf("hops to expand (at most %d nodes)", codectx.GraphMaxNodes))
	f.StringVar(&format, "format", codectx.GraphFormatTree, "tree, mermaid, dot or json")
	f.StringVar(&minConf, "min-confidence", "all", "keep edges resolved at least this surely: exact, inferred, name or all")
	return c
}

// checkGraphFlags validates graph's --direction, --format and --depth (the
// CLI and the shell).
func checkGraphFlags(direction, format string, depth int) error {
	switch direction {
	case codectx.DirectionOut, codectx.DirectionIn, codectx.DirectionBoth:
	default:
		return usagef("--direction must be out, in or both, got %q", direction)
	}
	switch format {
	case codectx.GraphFormatTree, codectx.GraphFormatMermaid, codectx.GraphFormatDOT, codectx.GraphFormatJSON:
	default:
		return usagef("--format must be tree, mermaid, dot or json, got %q", format)
	}
	if depth < 1 {
		return usagef("--depth must be at least 1, got %d", depth)
	}
	return nil
}
