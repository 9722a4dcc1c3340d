// Package scan walks a project and decides which files belong to it: skipped
// directories, .gitignore/.codectxignore rules (git's own list inside a work
// tree), known extensions, size limit and symbolic links.
//
// It must not read file contents beyond what ignore rules need, parse code, or
// touch the database.
package scan

// File is one candidate file of a project.
type File struct {
	Path    string // relative to the root, forward slashes
	Abs     string // absolute path on disk
	Size    int64
	ModTime int64  // mtime in Unix nanoseconds
	Lang    string // LanguageOf(Path)
}

// Skip is a file left out, with the reason (for warnings).
type Skip struct {
	Path   string
	Reason string
}
