package codectx

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"codectx/internal/graph"
)

// Graph types re-exported for callers.
type (
	// GraphResult is the sub-graph around a symbol; Text, Mermaid, DOT and
	// Format render it.
	GraphResult = graph.Result
	// GraphNode is a chunk or an unresolved target in a GraphResult.
	GraphNode = graph.Node
	// GraphEdge is one relation in a GraphResult.
	GraphEdge = graph.Edge
	// SymbolNotFoundError carries the closest existing names.
	SymbolNotFoundError = graph.NotFoundError
)

// GraphFormats are the formats GraphResult.Format renders.
var GraphFormats = []string{GraphFormatTree, GraphFormatMermaid, GraphFormatDOT, GraphFormatJSON}

// Graph formats and directions.
const (
	GraphFormatTree    = graph.FormatTree
	GraphFormatMermaid = graph.FormatMermaid
	GraphFormatDOT     = graph.FormatDOT
	GraphFormatJSON    = graph.FormatJSON
	DirectionOut       = graph.DirOut
	DirectionIn        = graph.DirIn
	DirectionBoth      = graph.DirBoth
	// GraphMaxNodes bounds the nodes of one graph.
	GraphMaxNodes = graph.DefaultMaxNodes
)

// ErrSymbolNotFound matches (errors.Is) the error Graph returns for a name
// that is not in the index; errors.As with *SymbolNotFoundError gives the
// suggestions.
var ErrSymbolNotFound = graph.ErrNotFound

// GraphOptions configure Graph.
type GraphOptions struct {
	// Name is a type ("SampleService"), a member ("SampleService.findUserById"),
	// a bare function name, or a file path.
	Name string
	// Direction is "out", "in" or "both" ("" means both).
	Direction string
	// Depth is how many hops to expand; 0 means 1.
	Depth int
	// MinConfidence keeps only edges resolved at least this surely: "exact"
	// (by type, scope or import), "inferred" (one candidate of a named rule),
	// "name" (also calls matched only by name), "all" or "" (everything,
	// external calls included). See GraphConfidences.
	MinConfidence string
}

// GraphConfidences are the accepted GraphOptions.MinConfidence values.
var GraphConfidences = graph.Confidences

// Graph returns the relations (extends, implements, contains, imports,
// calls) around every chunk the name denotes, Depth hops out, at most
// GraphMaxNodes nodes.
func (p *Project) Graph(ctx context.Context, opt GraphOptions) (*GraphResult, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	return graph.Build(ctx, p.db, pr.ID, graph.Options{Name: opt.Name, Direction: opt.Direction, Depth: opt.Depth, MinConfidence: opt.MinConfidence})
}

// Validate rejects an empty name, an unknown direction or confidence and a
// negative depth before the index is consulted: the one validation of a
// graph's options, used by every front end. errors.Is(err, ErrBadOption)
// holds for what it returns.
func (o GraphOptions) Validate() error {
	return badInput(o.validate())
}

func (o GraphOptions) validate() error {
	if strings.TrimSpace(o.Name) == "" {
		return errors.New("name must not be empty: give a type, method, function or file")
	}
	switch o.Direction {
	case "", DirectionOut, DirectionIn, DirectionBoth:
	default:
		return fmt.Errorf("direction must be out, in or both, got %q", o.Direction)
	}
	if o.Depth < 0 {
		return fmt.Errorf("depth must be positive, got %d", o.Depth)
	}
	if o.MinConfidence != "" && !slices.Contains(GraphConfidences, o.MinConfidence) {
		return fmt.Errorf("min_confidence must be one of %s, got %q", strings.Join(GraphConfidences, ", "), o.MinConfidence)
	}
	return nil
}
