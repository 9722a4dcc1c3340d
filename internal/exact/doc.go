// Package exact answers exact questions about a project without any index:
// Glob lists files by doublestar pattern, Grep searches lines by regular
// expression or fixed string, Read returns numbered lines of one file. The
// CLI, the MCP server and the Go API all call these three functions; every
// result has snake_case JSON tags and a Text() rendering meant for agents
// (budgeted, with hints on how to narrow or continue).
//
// Grep has two engines with the same output (paths relative to the project
// root with forward slashes, files in byte order of their path, lines in
// order, the same budgets and text): "rg" runs ripgrep's JSON stream with its
// rules aligned to internal/scan, "native" scans with internal/scan and
// searches in parallel with Go's regexp. "auto" (the default) uses rg when it
// is on PATH and starts, native otherwise. The package reads no environment
// variable: a default engine (CODECTX_GREP_ENGINE) is the caller's to pass
// in GrepOptions.Engine, as pkg/codectx does. A caller holding a trigram
// index (internal/grepindex, passed as GrepOptions.Index) narrows the
// search to the files it selects, which the native engine then searches:
// engine "index", the same lines as a full search.
//
// Every path is confined to the project root by ResolveInRoot (".." that
// leaves the root, absolute paths elsewhere and symbolic links resolving
// outside are refused), and every file is then opened by openInRoot, which
// refuses a symbolic link anywhere on the resolved path at the moment of
// opening (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS on Linux, a check of
// the open descriptor elsewhere), so a file swapped for a link during a
// call is never read. ripgrep opens files by path, so each file it reports
// is read again that way and only the lines it really holds are kept. File
// selection follows internal/scan, so glob and grep see the same files as
// the indexer (any extension).
//
// Typical use:
//
//	res, err := exact.Grep(ctx, exact.GrepOptions{Root: root, Pattern: `func .*Context`, Glob: "*.go"})
//	if err != nil { return err }
//	fmt.Print(res.Text())
//	for _, s := range res.SuggestedReads {
//		page, err := exact.Read(ctx, exact.ReadOptions{Root: root, File: s.Path, Offset: s.Offset, Limit: s.Limit})
//		...
//	}
//
// It must not open or write the index or database (an index is only used
// when the caller passes one), write into the project,
// follow symbolic links out of the root, or print: callers render results.
package exact
