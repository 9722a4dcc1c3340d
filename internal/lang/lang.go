package lang

import (
	"sync"
	"unsafe"

	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// langEntry ties a scanner language name to its grammar (built lazily).
type langEntry struct {
	ptr  func() unsafe.Pointer
	sp   *spec
	once sync.Once
	g    *grammar
}

var languages = map[string]*langEntry{
	"go":         {ptr: tsgo.Language, sp: goSpec},
	"java":       {ptr: tsjava.Language, sp: javaSpec},
	"python":     {ptr: tspython.Language, sp: pythonSpec},
	"javascript": {ptr: tsjs.Language, sp: jsSpec},
	"typescript": {ptr: tsts.LanguageTypescript, sp: jsSpec},
	"tsx":        {ptr: tsts.LanguageTSX, sp: jsSpec},
	"rust":       {ptr: tsrust.Language, sp: rustSpec},
	"c":          {ptr: tsc.Language, sp: cSpec},
	"cpp":        {ptr: tscpp.Language, sp: cppSpec},
	"csharp":     {ptr: tscsharp.Language, sp: csharpSpec},
	"ruby":       {ptr: tsruby.Language, sp: rubySpec},
	"php":        {ptr: tsphp.LanguagePHP, sp: phpSpec},
}

// Supported reports whether language has AST chunking.
func Supported(language string) bool {
	_, ok := languages[language]
	return ok
}

// grammarFor returns the grammar of a supported language, or nil.
func grammarFor(language string) *grammar {
	e := languages[language]
	if e == nil {
		return nil
	}
	e.once.Do(func() { e.g = newGrammar(language, e.ptr(), e.sp) })
	return e.g
}
