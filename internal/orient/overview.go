package orient

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"codectx/internal/assemble"
	"codectx/internal/store"
)

// OverviewBudget is the most tokens an overview uses; packages are dropped
// from the end of their list until it fits.
const OverviewBudget = 1500

// Overview limits.
const (
	maxPackages    = 30
	maxEntryPoints = 12
	maxHubs        = 10
)

// LangSize is one language's share of a project.
type LangSize struct {
	Lang  string `json:"lang"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// Package is a top-level directory (module, package) of a project.
type Package struct {
	Path  string `json:"path"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
	// Summary is one line: the package doc comment, the README's first
	// paragraph, or its most central names.
	Summary string `json:"summary"`
	Source  string `json:"source"` // doc, readme or names
}

// EntryPoint is a main function, CLI command, HTTP handler or central
// exported API symbol.
type EntryPoint struct {
	Kind string `json:"kind"` // main, handler, command, api
	Ref
}

// Hub is a symbol many others depend on.
type Hub struct {
	Ref
	FanIn int `json:"fan_in"`
}

// TestLayout describes where the tests are.
type TestLayout struct {
	Files int            `json:"files"`
	Dirs  map[string]int `json:"dirs"` // directory → test files
}

// Freshness is how current the index is.
type Freshness struct {
	Commit     string   `json:"commit,omitempty"` // HEAD when in git
	Subject    string   `json:"subject,omitempty"`
	Dirty      []string `json:"dirty,omitempty"` // work-tree changes git reports
	IndexedAt  int64    `json:"indexed_at"`
	StaleFiles []string `json:"stale_files,omitempty"` // differ from the index
}

// OverviewResult is a project overview; Text() renders it.
type OverviewResult struct {
	Root        string       `json:"root"`
	Files       int          `json:"files"`
	Symbols     int          `json:"symbols"`
	Relations   int          `json:"resolved_relations"`
	Languages   []LangSize   `json:"languages"`
	Packages    []Package    `json:"packages"`
	EntryPoints []EntryPoint `json:"entry_points"`
	Hubs        []Hub        `json:"hubs"`
	Tests       TestLayout   `json:"tests"`
	Freshness   Freshness    `json:"freshness"`
	Tokens      int          `json:"tokens"`
	Omitted     int          `json:"omitted_packages,omitempty"`
	text        string
}

// Text is the rendered overview.
func (o *OverviewResult) Text() string { return o.text }

// OverviewOptions configure BuildOverview.
type OverviewOptions struct {
	Root      string
	IndexedAt int64
	Stale     []string // files whose disk state differs from the index
	Git       bool
}

// BuildOverview summarises a project from its index (and git, when the
// project is in a work tree).
func BuildOverview(ctx context.Context, db *store.DB, projectID int64, g *Graph, opt OverviewOptions) (*OverviewResult, error) {
	sizes, langs, err := db.FileSizes(ctx, projectID)
	if err != nil {
		return nil, err
	}
	o := &OverviewResult{Root: opt.Root, Files: len(sizes), Symbols: len(g.Chunks), Relations: len(g.Edges),
		Tests: TestLayout{Dirs: map[string]int{}}}
	byLang := map[string]*LangSize{}
	for p, n := range sizes {
		l := langs[p]
		if l == "" {
			l = "other"
		}
		if byLang[l] == nil {
			byLang[l] = &LangSize{Lang: l}
		}
		byLang[l].Files++
		byLang[l].Bytes += n
		if isTest(p) {
			o.Tests.Files++
			o.Tests.Dirs[path.Dir(p)]++
		}
	}
	for _, ls := range byLang {
		o.Languages = append(o.Languages, *ls)
	}
	sort.Slice(o.Languages, func(a, b int) bool {
		if o.Languages[a].Bytes != o.Languages[b].Bytes {
			return o.Languages[a].Bytes > o.Languages[b].Bytes
		}
		return o.Languages[a].Lang < o.Languages[b].Lang
	})
	rank := g.PageRank(nil)
	o.Packages = packages(opt.Root, g, rank, sizes, langs)
	o.EntryPoints = entryPoints(g, rank)
	o.Hubs = hubs(g)
	o.Freshness = Freshness{IndexedAt: opt.IndexedAt, StaleFiles: opt.Stale}
	if opt.Git {
		if out, err := git(ctx, opt.Root, "log", "-1", "--format=%H%x00%s"); err == nil {
			c, s, _ := strings.Cut(strings.TrimSpace(string(out)), "\x00")
			o.Freshness.Commit, o.Freshness.Subject = c, s
		}
		if out, err := git(ctx, opt.Root, "status", "--porcelain", "-z", "--", "."); err == nil {
			for _, e := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
				if len(e) > 3 {
					o.Freshness.Dirty = append(o.Freshness.Dirty, e[3:])
				}
			}
		}
	}
	// Fit the budget by dropping the smallest packages.
	all := o.Packages
	for k := len(all); ; k-- {
		o.Packages, o.Omitted = all[:k], len(all)-k
		o.text = o.render()
		if o.Tokens, err = assemble.CountTokens(o.text); err != nil {
			return nil, err
		}
		if o.Tokens <= OverviewBudget || k == 0 {
			break
		}
	}
	return o, nil
}

// packageDir is the unit a file belongs to: its first directory, or its
// first two when the first is a conventional container (internal, pkg,
// cmd, src, lib, packages, apps).
func packageDir(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) == 1 {
		return "."
	}
	switch parts[0] {
	case "internal", "pkg", "cmd", "src", "lib", "packages", "apps", "crates", "modules":
		if len(parts) > 2 {
			return parts[0] + "/" + parts[1]
		}
	}
	return parts[0]
}

func packages(root string, g *Graph, rank []float64, sizes map[string]int64, langs map[string]string) []Package {
	units := map[string]*Package{}
	for p, n := range sizes {
		if !ownCode(p) {
			continue
		}
		d := packageDir(p)
		if units[d] == nil {
			units[d] = &Package{Path: d}
		}
		units[d].Files++
		units[d].Bytes += n
	}
	best := map[string][]int{}
	for _, i := range order(rank) {
		c := g.Chunks[i]
		if !ownCode(c.Path) || !exported(c) {
			continue
		}
		d := packageDir(c.Path)
		if len(best[d]) < 4 {
			best[d] = append(best[d], i)
		}
	}
	var out []Package
	for d, u := range units {
		if s := docLine(root, d, sizes, langs); s != "" {
			u.Summary, u.Source = s, "doc"
		} else if s := readmeLine(filepath.Join(root, filepath.FromSlash(d))); s != "" && d != "." {
			u.Summary, u.Source = s, "readme"
		} else {
			var names []string
			for _, i := range best[d] {
				names = append(names, g.Chunks[i].Symbol)
			}
			u.Summary, u.Source = strings.Join(names, ", "), "names"
		}
		out = append(out, *u)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Bytes != out[b].Bytes {
			return out[a].Bytes > out[b].Bytes
		}
		return out[a].Path < out[b].Path
	})
	if len(out) > maxPackages {
		out = out[:maxPackages]
	}
	return out
}

// docLine is the first sentence of a package's doc comment: Go "// Package
// x …" in a file directly in the directory, or a Python __init__.py
// docstring.
func docLine(root, dir string, sizes map[string]int64, langs map[string]string) string {
	var files []string
	for p := range sizes {
		if path.Dir(p) == dir && ownCode(p) {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	for _, p := range files {
		switch {
		case langs[p] == "go":
			if s := goPackageDoc(filepath.Join(root, filepath.FromSlash(p))); s != "" {
				return s
			}
		case path.Base(p) == "__init__.py":
			if s := pyDocstring(filepath.Join(root, filepath.FromSlash(p))); s != "" {
				return s
			}
		}
	}
	return ""
}

func goPackageDoc(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var doc []string
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(t, "// Package ") || strings.HasPrefix(t, "// Command ") || (len(doc) > 0 && strings.HasPrefix(t, "//")):
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(t, "//")))
		case strings.HasPrefix(t, "package "):
			return firstSentence(strings.Join(doc, " "))
		case t == "" || strings.HasPrefix(t, "//"):
			doc = nil
		default:
			return ""
		}
	}
	return ""
}

func pyDocstring(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(s, q) {
			body, _, _ := strings.Cut(s[3:], q)
			return firstSentence(strings.Join(strings.Fields(body), " "))
		}
	}
	return ""
}

// readmeLine is the first paragraph line of a README in dir that is not a
// heading, badge or HTML.
func readmeLine(dir string) string {
	for _, name := range []string{"README.md", "README.rst", "README.txt", "README"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			t := strings.TrimSpace(line)
			if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "[!") || strings.HasPrefix(t, "<") ||
				strings.HasPrefix(t, "=") || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "```") {
				continue
			}
			return firstSentence(t)
		}
	}
	return ""
}

// firstSentence cuts s after its first ". " and to 160 runes.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}

func entryPoints(g *Graph, rank []float64) []EntryPoint {
	var out []EntryPoint
	seen := map[int]bool{}
	add := func(kind string, i int) {
		if !seen[i] && len(out) < maxEntryPoints {
			seen[i] = true
			out = append(out, EntryPoint{Kind: kind, Ref: refOf(g.Chunks[i])})
		}
	}
	idx := order(rank)
	for _, i := range idx {
		c := g.Chunks[i]
		if !ownCode(c.Path) {
			continue
		}
		if (c.Kind == "function" || c.Kind == "method") && (c.Short == "main" || c.Symbol == "main") {
			add("main", i)
		}
	}
	for _, i := range idx {
		c := g.Chunks[i]
		if !ownCode(c.Path) || (c.Kind != "function" && c.Kind != "method") {
			continue
		}
		switch {
		case strings.Contains(c.Name, "ResponseWriter") || c.Short == "ServeHTTP":
			add("handler", i)
		case strings.HasPrefix(c.Path, "cmd/") && strings.HasSuffix(c.Short, "Cmd"):
			add("command", i)
		}
		if len(out) >= maxEntryPoints/2 {
			break
		}
	}
	n := 0
	for _, i := range idx {
		c := g.Chunks[i]
		if !ownCode(c.Path) || !exported(c) || isMember(c) && !isType(c) && c.Kind != "method" {
			continue
		}
		if n >= 5 {
			break
		}
		if !seen[i] {
			add("api", i)
			n++
		}
	}
	return out
}

func hubs(g *Graph) []Hub {
	type cand struct{ i, fan int }
	var list []cand
	for i, c := range g.Chunks {
		if !ownCode(c.Path) {
			continue
		}
		seen := map[int]bool{}
		for _, a := range g.in[i] {
			if definiteKind(a.kind) {
				seen[a.to] = true
			}
		}
		if len(seen) > 0 {
			list = append(list, cand{i, len(seen)})
		}
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].fan > list[b].fan })
	var out []Hub
	for _, c := range list[:min(len(list), maxHubs)] {
		out = append(out, Hub{Ref: refOf(g.Chunks[c.i]), FanIn: c.fan})
	}
	return out
}

func (o *OverviewResult) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# project overview: %d files, %d symbols, %d resolved relations\n", o.Files, o.Symbols, o.Relations)
	b.WriteString("\nlanguages: ")
	var parts []string
	for _, l := range o.Languages {
		parts = append(parts, fmt.Sprintf("%s %d files (%s)", l.Lang, l.Files, humanBytes(l.Bytes)))
	}
	b.WriteString(strings.Join(parts, ", "))
	b.WriteString("\n\npackages\n")
	for _, p := range o.Packages {
		fmt.Fprintf(&b, "  %s (%d files, %s)", p.Path, p.Files, humanBytes(p.Bytes))
		if p.Summary != "" {
			b.WriteString(": " + p.Summary)
		}
		b.WriteString("\n")
	}
	if o.Omitted > 0 {
		fmt.Fprintf(&b, "  … %d smaller packages\n", o.Omitted)
	}
	if len(o.EntryPoints) > 0 {
		b.WriteString("\nentry points\n")
	}
	for _, e := range o.EntryPoints {
		fmt.Fprintf(&b, "  %s: %s (%s:%d)\n", e.Kind, e.Symbol, e.Path, e.Line)
	}
	if len(o.Hubs) > 0 {
		b.WriteString("\nhub symbols (fan-in)\n")
	}
	for _, h := range o.Hubs {
		fmt.Fprintf(&b, "  %s (%s:%d) %d\n", h.Symbol, h.Path, h.Line, h.FanIn)
	}
	fmt.Fprintf(&b, "\ntests: %d files", o.Tests.Files)
	if len(o.Tests.Dirs) > 0 {
		dirs := make([]string, 0, len(o.Tests.Dirs))
		for d := range o.Tests.Dirs {
			dirs = append(dirs, d)
		}
		sort.Slice(dirs, func(a, b int) bool {
			if o.Tests.Dirs[dirs[a]] != o.Tests.Dirs[dirs[b]] {
				return o.Tests.Dirs[dirs[a]] > o.Tests.Dirs[dirs[b]]
			}
			return dirs[a] < dirs[b]
		})
		var ds []string
		for _, d := range dirs[:min(len(dirs), 8)] {
			ds = append(ds, fmt.Sprintf("%s %d", d, o.Tests.Dirs[d]))
		}
		if len(dirs) > 8 {
			ds = append(ds, fmt.Sprintf("… %d more directories", len(dirs)-8))
		}
		fmt.Fprintf(&b, " in %s", strings.Join(ds, ", "))
	}
	b.WriteString("\n\nfreshness: ")
	f := o.Freshness
	if f.Commit != "" {
		fmt.Fprintf(&b, "HEAD %s %q, %d uncommitted changes; ", f.Commit[:min(12, len(f.Commit))], f.Subject, len(f.Dirty))
	}
	if len(f.StaleFiles) == 0 {
		b.WriteString("the index matches the work tree")
	} else {
		list := f.StaleFiles[:min(len(f.StaleFiles), 5)]
		fmt.Fprintf(&b, "%d files changed since indexing (%s", len(f.StaleFiles), strings.Join(list, ", "))
		if len(f.StaleFiles) > 5 {
			b.WriteString(", …")
		}
		b.WriteString("); the index lags behind them")
	}
	b.WriteString("\n")
	return b.String()
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
