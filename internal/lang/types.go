// Package lang turns one source file into chunks and relations using
// tree-sitter grammars (one parse per file; chunking and relation extraction
// share the tree), with a line-based text fallback for everything else.
//
// It must not touch the file system, the database or the network: it gets
// bytes and returns values.
package lang

import "strings"

// Chunk kinds.
const (
	KindFile     = "file"     // top-level declarations outside types and functions
	KindType     = "type"     // class, interface, enum, record, struct, trait, impl
	KindMethod   = "method"   // method or constructor inside a container
	KindFunction = "function" // free function (or a named arrow function / function expression)
	KindText     = "text"     // line-based fallback chunk
)

// Relation kinds.
const (
	RelImports    = "imports"
	RelExtends    = "extends"
	RelImplements = "implements"
	RelContains   = "contains"
	RelCalls      = "calls"
)

// Chunk is one retrievable unit of a file.
type Chunk struct {
	Kind string
	// Name is "Container.signature" for members (Go "Server.Serve(l net.Listener)",
	// Java "Agent.run(String userInput)"), the bare signature for free functions,
	// the (qualified) type name for types, and a path-derived name for text chunks.
	Name string
	// Symbol is Name without the parameter list ("Server.Serve", "Agent.run",
	// "Outer.Inner"); the key used by relations and graph lookups.
	Symbol     string
	StartLine  int      // 1-based, inclusive
	EndLine    int      // 1-based, inclusive
	Container  string   // enclosing type symbol ("Outer.Inner"), "" at top level
	Extends    []string // what the chunk's type (or its container) extends
	Implements []string // what the chunk's type (or its container) implements
	Decorators []string // annotations / decorators / attributes, as written
	Content    string   // source text of the chunk (doc comment included)
}

// Relation is one edge found in a file. Source is the Symbol of the chunk the
// edge starts from (for imports: "" meaning the file itself). Target is the name
// as written in the code (callee name, type name, module path). Qualifier is
// the receiver/qualifier expression of a call when it is a plain identifier or
// a type name ("this", "self", "repo", "UserRepository"), else "".
type Relation struct {
	Kind      string
	Source    string
	Target    string
	Qualifier string
	Line      int
}

// Result is everything extracted from one file.
type Result struct {
	Language  string
	Chunks    []Chunk
	Relations []Relation
	// Fallback is true when the file was chunked as text (no grammar, parse
	// failure, or errors at the top level).
	Fallback bool
}

// Version names the chunking and relation rules. Bump it whenever Parse
// produces different chunks or relations for the same input: the index then
// re-parses files whose content did not change.
const Version = "2026-11-29.1"

// MaxEmbedChars bounds the text handed to an embedder.
const MaxEmbedChars = 2000

// ContextLine describes where a chunk lives: container, extends/implements and
// decorators. Empty when there is nothing to say.
func (c *Chunk) ContextLine() string {
	var parts []string
	if c.Container != "" {
		parts = append(parts, "in "+c.Container)
	}
	if len(c.Extends) > 0 {
		parts = append(parts, "extends "+strings.Join(c.Extends, ", "))
	}
	if len(c.Implements) > 0 {
		parts = append(parts, "implements "+strings.Join(c.Implements, ", "))
	}
	if len(c.Decorators) > 0 {
		parts = append(parts, "decorators "+strings.Join(c.Decorators, " "))
	}
	return strings.Join(parts, "; ")
}

// EmbedText is the text handed to the embedder: "[kind:name] " + context line
// + content, cut to MaxEmbedChars characters (runes, never mid-rune).
func (c *Chunk) EmbedText() string {
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(c.Kind)
	b.WriteString(":")
	b.WriteString(c.Name)
	b.WriteString("] ")
	if cl := c.ContextLine(); cl != "" {
		b.WriteString(cl)
		b.WriteString("\n")
	}
	b.WriteString(c.Content)
	return TruncateRunes(b.String(), MaxEmbedChars)
}

// TruncateRunes cuts s to at most n runes.
func TruncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
