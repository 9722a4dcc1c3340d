package codectx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"codectx/internal/graph"
)

// GraphNode is a chunk, a file, or an unresolved target in a GraphResult.
type GraphNode struct {
	Key       string `json:"key"`            // "c<chunk id>", or "u<n>" for an unresolved target
	ID        int64  `json:"id,omitempty"`   // chunk id; 0 for an unresolved target
	Name      string `json:"name"`           // symbol, or the target as written
	Signature string `json:"signature"`      // chunk name with parameters; the name for an unresolved target
	Kind      string `json:"kind,omitempty"` // chunk kind
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Resolved  bool   `json:"resolved"`
	Root      bool   `json:"root,omitempty"`     // matched the name asked for
	Depth     int    `json:"depth"`              // hops from the nearest root
	Expanded  bool   `json:"expanded,omitempty"` // its relations were followed
}

// GraphEdge is one relation between two nodes of a GraphResult.
type GraphEdge struct {
	From     string `json:"from"` // node key of the source
	To       string `json:"to"`   // node key of the target
	Kind     string `json:"kind"` // extends, implements, contains, imports, calls, dispatch, references
	Path     string `json:"path"` // file the relation is written in
	Line     int    `json:"line"` // line of the relation in Path
	Resolved bool   `json:"resolved"`
	// Resolution says how the target was found: exact, inferred, name,
	// external, unresolved ("" for imports and file containment).
	Resolution string `json:"resolution,omitempty"`
	// Detail adds to Resolution: the rule, the external package, the
	// number of same-named candidates, "dynamic" for dispatch edges.
	Detail string `json:"detail,omitempty"`
}

// GraphResult is the sub-graph around the chunks a name denotes; Text,
// Mermaid, DOT and Format render it.
type GraphResult struct {
	Name      string      `json:"name"`
	Direction string      `json:"direction"`
	Depth     int         `json:"depth"`
	Roots     []string    `json:"roots"` // keys of the nodes the name matched
	Nodes     []GraphNode `json:"nodes"`
	Edges     []GraphEdge `json:"edges"`
	Truncated bool        `json:"truncated,omitempty"` // GraphMaxNodes cut the graph
	Note      string      `json:"note,omitempty"`

	src *graph.Result
}

func newGraphResult(r *graph.Result) *GraphResult {
	return &GraphResult{Name: r.Name, Direction: r.Direction, Depth: r.Depth, Roots: r.Roots, Truncated: r.Truncated, Note: r.Note,
		Nodes: convertSlice(r.Nodes, func(n graph.Node) GraphNode {
			return GraphNode{Key: n.Key, ID: n.ID, Name: n.Name, Signature: n.Signature, Kind: n.Kind, Path: n.Path,
				StartLine: n.StartLine, EndLine: n.EndLine, Resolved: n.Resolved, Root: n.Root, Depth: n.Depth, Expanded: n.Expanded}
		}),
		Edges: convertSlice(r.Edges, func(e graph.Edge) GraphEdge {
			return GraphEdge{From: e.From, To: e.To, Kind: e.Kind, Path: e.Path, Line: e.Line, Resolved: e.Resolved,
				Resolution: e.Resolution, Detail: e.Detail}
		}),
		src: r}
}

// Text renders the graph as an indented tree per root (the result as Graph
// returned it; "" for a GraphResult made otherwise).
func (r *GraphResult) Text() string {
	if r.src == nil {
		return ""
	}
	return r.src.Text()
}

// Mermaid renders the graph as a Mermaid flowchart ("" for a GraphResult
// not returned by Graph).
func (r *GraphResult) Mermaid() string {
	if r.src == nil {
		return ""
	}
	return r.src.Mermaid()
}

// DOT renders the graph for Graphviz ("" for a GraphResult not returned by
// Graph).
func (r *GraphResult) DOT() string {
	if r.src == nil {
		return ""
	}
	return r.src.DOT()
}

// Format renders the graph in one of GraphFormats (JSON: this value,
// indented, as the HTTP API answers it); an unknown format is an error.
func (r *GraphResult) Format(format string) (string, error) {
	switch {
	case format == GraphFormatJSON:
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return "", fmt.Errorf("encode graph: %w", err)
		}
		return string(b) + "\n", nil
	case r.src == nil:
		return "", nil
	}
	return r.src.Format(format)
}

// SymbolNotFoundError is Graph's error for a name that matches nothing in
// the index; Suggestions are the closest existing names.
// errors.Is(err, ErrSymbolNotFound) matches it.
type SymbolNotFoundError struct {
	Name        string
	Suggestions []string
}

func (e *SymbolNotFoundError) Error() string {
	return (&graph.NotFoundError{Name: e.Name, Suggestions: e.Suggestions}).Error()
}

// Is makes errors.Is(err, ErrSymbolNotFound) true.
func (e *SymbolNotFoundError) Is(target error) bool { return target == ErrSymbolNotFound }

// GraphFormats are the formats GraphResult.Format renders.
var GraphFormats = []string{GraphFormatTree, GraphFormatMermaid, GraphFormatDOT, GraphFormatJSON}

// Graph formats and directions.
const (
	GraphFormatTree    = "tree"
	GraphFormatMermaid = "mermaid"
	GraphFormatDOT     = "dot"
	GraphFormatJSON    = "json"
	DirectionOut       = "out"
	DirectionIn        = "in"
	DirectionBoth      = "both"
	// GraphMaxNodes bounds the nodes of one graph.
	GraphMaxNodes = 200
)

// ErrSymbolNotFound matches (errors.Is) the error Graph returns for a name
// that is not in the index; errors.As with *SymbolNotFoundError gives the
// suggestions.
var ErrSymbolNotFound = errors.New("symbol not found")

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
var GraphConfidences = []string{"exact", "inferred", "name", "all"}

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
	r, err := graph.Build(ctx, p.db, pr.ID, graph.Options{Name: opt.Name, Direction: opt.Direction, Depth: opt.Depth, MinConfidence: opt.MinConfidence})
	if nf, ok := errors.AsType[*graph.NotFoundError](err); ok {
		return nil, &SymbolNotFoundError{Name: nf.Name, Suggestions: nf.Suggestions}
	}
	if err != nil {
		return nil, err
	}
	return newGraphResult(r), nil
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
