package graph

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Formats accepted by Format.
const (
	FormatTree    = "tree"
	FormatMermaid = "mermaid"
	FormatDOT     = "dot"
	FormatJSON    = "json"
)

// Format renders the graph in one of the formats above.
func (r *Result) Format(format string) (string, error) {
	switch format {
	case "", FormatTree:
		return r.Text(), nil
	case FormatMermaid:
		return r.Mermaid(), nil
	case FormatDOT:
		return r.DOT(), nil
	case FormatJSON:
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return "", fmt.Errorf("encode graph: %w", err)
		}
		return string(b) + "\n", nil
	}
	return "", fmt.Errorf("unknown graph format %q: want tree, mermaid, dot or json", format)
}

// incomingLabel names a relation seen from its target.
var incomingLabel = map[string]string{
	"calls": "called by", "contains": "contained in", "extends": "extended by",
	"implements": "implemented by", "imports": "imported by", "references": "referenced by",
}

// displayNames gives every node a name unique within the result: the
// symbol, the signature when symbols collide (overloads), and the path
// added when signatures collide too.
func (r *Result) displayNames() map[string]string {
	bySym := map[string]int{}
	for _, n := range r.Nodes {
		bySym[n.Name]++
	}
	out := make(map[string]string, len(r.Nodes))
	bySig := map[string]int{}
	for _, n := range r.Nodes {
		d := n.Name
		if bySym[n.Name] > 1 && n.ID != 0 {
			d = n.Signature
		}
		out[n.Key] = d
		bySig[d]++
	}
	for _, n := range r.Nodes {
		if d := out[n.Key]; bySig[d] > 1 && n.ID != 0 {
			out[n.Key] = fmt.Sprintf("%s (%s:%d)", d, n.Path, n.StartLine)
		}
	}
	return out
}

type treeLine struct {
	label, arrow, other, loc string
}

// Text renders the tree format: for each expanded node a header line, then
// one line per relation, prefixed with the node's name:
//
//	SampleService  [type] svc/SampleService.java:16-70
//	SampleService ├── contains --> SampleService.findUserById  (svc/SampleService.java:28)
//	SampleService └── extends  --> BaseService  (unresolved)
func (r *Result) Text() string {
	names := r.displayNames()
	var b strings.Builder
	first := true
	for _, n := range r.Nodes {
		if !n.Expanded {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		me := names[n.Key]
		fmt.Fprintf(&b, "%s  [%s] %s:%d-%d\n", me, n.Kind, n.Path, n.StartLine, n.EndLine)
		var lines []treeLine
		if r.Direction != DirIn {
			for _, e := range r.Edges {
				if e.From != n.Key {
					continue
				}
				t := r.Node(e.To)
				loc := edgeNote(e)
				if e.Resolved && t != nil {
					loc = fmt.Sprintf("%s:%d", t.Path, t.StartLine)
					if n := edgeNote(e); n != "" {
						loc += ", " + n
					}
				}
				lines = append(lines, treeLine{e.Kind, "-->", names[e.To], loc})
			}
		}
		if r.Direction != DirOut {
			var in []Edge
			for _, e := range r.Edges {
				if e.To == n.Key && e.From != n.Key {
					in = append(in, e)
				}
			}
			sort.SliceStable(in, func(i, j int) bool {
				a, b := in[i], in[j]
				if kindOrder[a.Kind] != kindOrder[b.Kind] {
					return kindOrder[a.Kind] < kindOrder[b.Kind]
				}
				if a.Path != b.Path {
					return a.Path < b.Path
				}
				return a.Line < b.Line
			})
			for _, e := range in {
				loc := fmt.Sprintf("%s:%d", e.Path, e.Line)
				if n := edgeNote(e); n != "" {
					loc += ", " + n
				}
				label := incomingLabel[e.Kind]
				if label == "" {
					label = e.Kind + " from"
				}
				lines = append(lines, treeLine{label, "<--", names[e.From], loc})
			}
		}
		if len(lines) == 0 {
			fmt.Fprintf(&b, "%s └── (no relations)\n", me)
			continue
		}
		w := 0
		for _, l := range lines {
			w = max(w, len(l.label))
		}
		for i, l := range lines {
			glyph := "├──"
			if i == len(lines)-1 {
				glyph = "└──"
			}
			fmt.Fprintf(&b, "%s %s %-*s %s %s  (%s)\n", me, glyph, w, l.label, l.arrow, l.other, l.loc)
		}
	}
	if r.Note != "" {
		fmt.Fprintf(&b, "\nnote: %s\n", r.Note)
	}
	return b.String()
}

// diagramIDs gives every node an identifier safe in Mermaid and DOT:
// "n_" plus its display name with every character other than ASCII
// letters, digits and '_' replaced by '_', numbered when that collides.
func (r *Result) diagramIDs(names map[string]string) map[string]string {
	out := make(map[string]string, len(r.Nodes))
	used := map[string]bool{}
	for _, n := range r.Nodes {
		var b strings.Builder
		b.WriteString("n_")
		for _, c := range names[n.Key] {
			if c < 128 && (c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				b.WriteRune(c)
			} else {
				b.WriteByte('_')
			}
		}
		id := strings.TrimRight(b.String(), "_")
		if used[id] {
			for i := 2; ; i++ {
				if cand := fmt.Sprintf("%s_%d", id, i); !used[cand] {
					id = cand
					break
				}
			}
		}
		used[id] = true
		out[n.Key] = id
	}
	return out
}

// mermaidEscape makes text safe inside a quoted Mermaid label: the
// characters Mermaid would interpret are written as entity codes.
func mermaidEscape(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ").Replace(s)
}

// Mermaid renders a flowchart: solid arrows for resolved relations, dotted
// ones for unresolved, roots drawn thick and unresolved targets dashed.
func (r *Result) Mermaid() string {
	names := r.displayNames()
	ids := r.diagramIDs(names)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	var roots, unres []string
	for _, n := range r.Nodes {
		if n.Resolved {
			fmt.Fprintf(&b, "    %s[\"%s<br/>%s\"]\n", ids[n.Key], mermaidEscape(names[n.Key]), mermaidEscape(fmt.Sprintf("%s:%d", n.Path, n.StartLine)))
		} else {
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", ids[n.Key], mermaidEscape(names[n.Key]+" (unresolved)"))
			unres = append(unres, ids[n.Key])
		}
		if n.Root {
			roots = append(roots, ids[n.Key])
		}
	}
	for _, e := range r.Edges {
		arrow := "-->"
		if !e.Resolved {
			arrow = "-.->"
		}
		fmt.Fprintf(&b, "    %s %s|%s| %s\n", ids[e.From], arrow, edgeLabel(e), ids[e.To])
	}
	if len(roots) > 0 {
		b.WriteString("    classDef root stroke-width:3px;\n")
		fmt.Fprintf(&b, "    class %s root;\n", strings.Join(roots, ","))
	}
	if len(unres) > 0 {
		b.WriteString("    classDef unresolved stroke-dasharray: 5 5;\n")
		fmt.Fprintf(&b, "    class %s unresolved;\n", strings.Join(unres, ","))
	}
	return b.String()
}

// dotQuote quotes a string for Graphviz: "…" with '"' and '\' escaped and
// newlines as \n.
func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// DOT renders a Graphviz digraph with the same nodes and edges as Mermaid.
func (r *Result) DOT() string {
	names := r.displayNames()
	ids := r.diagramIDs(names)
	var b strings.Builder
	b.WriteString("digraph codectx {\n    rankdir=LR;\n    node [shape=box, fontname=\"monospace\"];\n")
	for _, n := range r.Nodes {
		attrs := ""
		label := names[n.Key]
		if n.Resolved {
			label += fmt.Sprintf("\n%s:%d", n.Path, n.StartLine)
		} else {
			label += "\n(unresolved)"
			attrs = ", style=dashed"
		}
		if n.Root {
			attrs += ", penwidth=2"
		}
		fmt.Fprintf(&b, "    %s [label=%s%s];\n", ids[n.Key], dotQuote(label), attrs)
	}
	for _, e := range r.Edges {
		attrs := ""
		if !e.Resolved {
			attrs = ", style=dashed"
		}
		fmt.Fprintf(&b, "    %s -> %s [label=%s%s];\n", ids[e.From], ids[e.To], dotQuote(edgeLabel(e)), attrs)
	}
	b.WriteString("}\n")
	return b.String()
}

// edgeNote says how an edge's target was found when it is not an exact
// resolution: "inferred", "name", "external PKG", "unresolved" ("" for
// exact edges and for rows resolution does not apply to).
func edgeNote(e Edge) string {
	switch {
	case e.Resolved && (e.Resolution == "" || e.Resolution == "exact"):
		return ""
	case e.Resolved:
		return e.Resolution
	case e.Resolution == "external" && e.Detail != "":
		return "external " + e.Detail
	case e.Resolution == "external" || e.Resolution == "name":
		return e.Resolution
	}
	return "unresolved"
}

// edgeLabel is an edge's kind, with its resolution when it is not exact
// and the target is resolved ("calls (inferred)").
func edgeLabel(e Edge) string {
	if n := edgeNote(e); n != "" && e.Resolved {
		return e.Kind + " (" + n + ")"
	}
	return e.Kind
}
