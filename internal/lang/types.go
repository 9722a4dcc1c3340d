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
	// RelDispatch is a call through an interface method to one of its
	// implementations (dynamic). Never produced by Parse: relation
	// resolution derives it from a resolved call and the implements edges.
	RelDispatch = "dispatch"
	// RelReferences is a Go function or method used as a value, not
	// called (a callback, a handler, a method value). Never produced by
	// Parse: relation resolution derives it from the FactRef facts that
	// resolve to a project function or method.
	RelReferences = "references"
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
//
// Recv, when not empty, is what the extractor knows about the receiver of a
// call or the type of an embedded field, in a small language-neutral form
// that relation resolution evaluates against the project's type facts (see
// Fact). For Go:
//
//	""             bare call: a function (or type conversion) of the package
//	"pkg:PATH"     call qualified by an imported package (import path PATH)
//	"?"            receiver of unknown type (a local whose type is not known)
//	"?local"       call of a local function value
//	"?field"       call of a function-typed field of an anonymous struct
//	BASE SEG...    space-separated: a type reference or value, then selectors
//
// BASE is a type reference ("T" in the file's package, "PATH#T" in an
// imported package, "!T" a predeclared type, "[]"-prefixed for an element
// type), "=F" / "=PATH#F" (the first result of function F), or "$V" /
// "$PATH#V" (package-level variable or typed constant V). SEG is ".f"
// (field f), ".m()" (first result of method m) or "[]" (element of a slice,
// array, map or channel). Python's
// notation is described in internal/index/resolve_py.go, Java's and
// TypeScript/JavaScript's in jtypes.go.
type Relation struct {
	Kind      string
	Source    string
	Target    string
	Qualifier string
	Recv      string
	Line      int
}

// Fact kinds: declarations relation resolution needs to type receivers.
// The comments give Go's meaning; Python, Java and TypeScript/JavaScript
// record their fields, method results, module variables and bodiless
// interface methods with the same kinds (pytypes.go, jtypes.go).
const (
	FactField   = "field"   // Owner struct type has field Name of Type; Sig "embed" when embedded, "func" for a field of function type (Type: what a call of it returns); Name "" and Sig "underlying" (or "alias:" and the aliased type as in signatures) for a named non-struct type or an alias
	FactResult  = "result"  // function (Owner "") or method of Owner: Name, first result Type, Sig
	FactIMethod = "imethod" // interface Owner declares method Name with Sig and first result Type
	FactIEmbed  = "iembed"  // interface Owner embeds interface Type (Go: Sig "[A,B]", the type arguments of an instantiated generic one)
	FactVar     = "var"     // package-level variable (Go: or typed constant) Name of Type
	// FactPackage: the file belongs to package Name, recorded only for an
	// external test package ("x_test", a package of its own beside the
	// directory's package).
	FactPackage = "package"
	// Go records a dot import (import . "PATH") as FactImport with Name "."
	// and Type PATH: the package's names are the file's own.
	// FactTypeParams: generic interface Owner has the type parameters Name
	// (comma-separated, in order), which its method signatures name bare.
	FactTypeParams = "tparams"
	// FactBuild: the file's build constraint (its //go:build line, or
	// its // +build lines joined), Name the expression in //go:build
	// syntax; recorded only for a file that has one.
	FactBuild = "build"
)

// Fact is one type fact declared in a file. Type is a type reference in the
// Recv notation ("T", "PATH#T", "!T", "[]T", or a value form "=F" / "$V"
// when only the initialiser is known). Sig is a normalised signature
// "(int,string)(error)" with parameter names dropped.
type Fact struct {
	Kind  string
	Owner string
	Name  string
	Type  string
	Sig   string
}

// Result is everything extracted from one file.
type Result struct {
	Language  string
	Chunks    []Chunk
	Relations []Relation
	Facts     []Fact
	// Fallback is true when the file was chunked as text (no grammar, parse
	// failure, or errors at the top level).
	Fallback bool
}

// Version names the chunking and relation rules. Bump it whenever Parse
// produces different chunks or relations for the same input: the index then
// re-parses files whose content did not change.
const Version = "2026-12-01.44"

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
