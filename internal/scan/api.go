// Package scan walks a project and decides which files belong to it: skipped
// directories, .gitignore/.codectxignore rules (git's own list inside a work
// tree), known extensions, size limit and symbolic links.
//
// Inside a git work tree the candidates come from `git ls-files --cached
// --others --exclude-standard`; elsewhere (or when git is missing or fails) a
// walk applies root and nested .gitignore files the way git does. On top of
// both: directories named node_modules, vendor, .git, .idea, .vscode,
// __pycache__ and every hidden directory are skipped, and so are build output
// directories (target, build, dist, out) beside a project file of a tool that
// writes there (Cargo.toml, pom.xml, package.json, build.gradle, …; see
// SkippedDir) — elsewhere such a name is source, like Go's go/build; a
// negated line of the root's .codectxignore re-includes a skipped directory
// (never .git);
// .codectxignore files (root and nested, gitignore syntax) exclude more;
// only known extensions are kept (unless Options.AllFiles); symbolic links
// are never followed and, like files over the size limit and files or
// directories whose names are not valid UTF-8 (such a path cannot travel
// through JSON, so the tools could not open it), are reported in
// Result.Skipped. Both modes give the same answer on the same tree.
//
// The package also holds what other packages must share with the scanner:
// the extension table (LanguageOf), the binary rule (IsBinary) and the
// gitignore matcher (ParsePattern, IgnoreChecker).
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
