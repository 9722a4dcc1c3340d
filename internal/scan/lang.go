package scan

import (
	"bytes"
	"path"
	"strings"
)

// languages is the one extension table of the project: extension (lower
// case, with the dot) → language name. A file whose extension is not here is
// not indexed (glob and grep still see it through Options.AllFiles).
var languages = map[string]string{
	".go":         "go",
	".java":       "java",
	".kt":         "kotlin",
	".kts":        "kotlin",
	".scala":      "scala",
	".py":         "python",
	".pyi":        "python",
	".pyw":        "python",
	".js":         "javascript",
	".jsx":        "javascript",
	".mjs":        "javascript",
	".cjs":        "javascript",
	".ts":         "typescript",
	".mts":        "typescript",
	".cts":        "typescript",
	".tsx":        "tsx",
	".rs":         "rust",
	".c":          "c",
	".h":          "c",
	".cc":         "cpp",
	".cpp":        "cpp",
	".cxx":        "cpp",
	".hpp":        "cpp",
	".hh":         "cpp",
	".hxx":        "cpp",
	".cs":         "csharp",
	".rb":         "ruby",
	".php":        "php",
	".swift":      "swift",
	".sh":         "shell",
	".bash":       "shell",
	".zsh":        "shell",
	".sql":        "sql",
	".md":         "markdown",
	".markdown":   "markdown",
	".xml":        "xml",
	".yaml":       "yaml",
	".yml":        "yaml",
	".toml":       "toml",
	".json":       "json",
	".properties": "properties",
	".gradle":     "gradle",
	".proto":      "protobuf",
	".lua":        "lua",
	".dart":       "dart",
}

// LanguageOf returns the language of a path from its extension (case
// insensitive), or "" when the extension is not a kept one.
func LanguageOf(p string) string {
	ext := path.Ext(p)
	if ext == "" {
		return ""
	}
	if l, ok := languages[ext]; ok {
		return l
	}
	return languages[strings.ToLower(ext)]
}

// BinarySniffLen is how many leading bytes IsBinary needs to look at.
const BinarySniffLen = 4096

// IsBinary reports whether a file whose first bytes are head is binary: a NUL
// byte within the first BinarySniffLen bytes. The indexing pipeline and grep
// share this rule.
func IsBinary(head []byte) bool {
	if len(head) > BinarySniffLen {
		head = head[:BinarySniffLen]
	}
	return bytes.IndexByte(head, 0) >= 0
}
