package scan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// DefaultMaxFileSize is the size limit used when Options.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// Skip reasons.
const (
	ReasonTooLarge   = "too large" // followed by the size and the limit
	ReasonSymlink    = "symbolic link"
	ReasonUnreadable = "unreadable directory"
	ReasonBadName    = "name is not valid UTF-8 (cannot be passed to the tools)"
)

// Options tune a scan.
type Options struct {
	MaxFileSize int64 // 0 means 1 MiB; larger files go to Skipped with reason "too large"
	AllFiles    bool  // keep files of any extension (used by glob/grep); default: only known extensions
	// Sub, when not empty, limits the scan to this directory (slash-separated,
	// relative to the root). Ignore files above it still apply.
	Sub string
	// OnDir, when set, is called with each directory the walk enters ("."
	// for the root), before its entries. It is not called when the list
	// comes from git (Result.Git). A caller keeping a derived index records
	// these directories to notice later that the listing may have changed.
	OnDir func(rel string)
}

// Result is what a scan found.
type Result struct {
	Files   []File // sorted by Path (byte order)
	Skipped []Skip // sorted by Path
	Git     bool   // the candidate list came from git ls-files
	// SkippedDirs are the dependency and build-output directories (named
	// node_modules, vendor, target, build, dist or out) left out of a
	// whole-tree scan, topmost only, sorted; hidden ones are not listed.
	// A walk lists those it meets that no ignore file excludes, a git
	// listing those holding a listed file.
	SkippedDirs []string
}

// skipDirs are directory names never entered, at any depth: dependencies,
// version control, editor state and caches.
var skipDirs = map[string]bool{
	"node_modules": true, "vendor": true, ".git": true, ".idea": true, ".vscode": true, "__pycache__": true,
}

// outputDirs are the names build tools write their output under, each with
// the files that mark a project of such a tool. A directory of that name is
// skipped when its parent holds one of them (target/ beside Cargo.toml or
// pom.xml, dist/ beside package.json or pyproject.toml); anywhere else it is
// source, like Go's go/build and cmd/dist.
var outputDirs = map[string][]string{
	"target": {"Cargo.toml", "pom.xml", "build.sbt"},
	"build": {"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "CMakeLists.txt",
		"meson.build", "setup.py", "pyproject.toml", "package.json", "pubspec.yaml"},
	"dist": {"package.json", "setup.py", "pyproject.toml", ".goreleaser.yml", ".goreleaser.yaml"},
	"out":  {"package.json", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", ".idea"},
}

// SkippedDirNames returns the directory names the scanner never enters
// (hidden directories, names starting with ".", are skipped as well; build
// output directories depend on their parent, see SkippedDir).
func SkippedDirNames() []string {
	out := make([]string, 0, len(skipDirs))
	for d := range skipDirs {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// SkippedDir reports whether the scanner never enters directory rel
// (slash-separated, relative to root, an absolute path): a hidden name, one
// of SkippedDirNames, or a build tool's output directory beside a project
// file of that tool (checked on disk), unless a line of the root's
// .codectxignore re-includes it ("!vendor/", "!.github/"; never .git). cx
// holds the root's .codectxignore files (nil: no re-includes).
func SkippedDir(root, rel string, cx *IgnoreChecker) bool {
	var t *ignoreTree
	if cx != nil {
		t = cx.t
	}
	return skipDir(root, rel, t)
}

func skipDir(root, rel string, cx *ignoreTree) bool {
	if !defaultSkipped(root, rel) {
		return false
	}
	return cx == nil || rel == ".git" || strings.HasSuffix(rel, "/.git") || !cx.reincludes(rel)
}

// defaultSkipped is SkippedDir without re-includes.
func defaultSkipped(root, rel string) bool {
	parent, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		parent, name = rel[:i], rel[i+1:]
	}
	if skipDirs[name] || (strings.HasPrefix(name, ".") && name != "." && name != "..") {
		return true
	}
	for _, marker := range outputDirs[name] {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(parent), marker)); err == nil {
			return true
		}
	}
	return false
}

// SkippedAncestor returns the first directory on rel's path (rel itself
// included when dir is true) that the scanner never enters (SkippedDir).
func SkippedAncestor(root, rel string, dir bool, cx *IgnoreChecker) (string, bool) {
	end := strings.LastIndexByte(rel, '/')
	if dir {
		end = len(rel)
	}
	for i := 0; i < end; {
		j := strings.IndexByte(rel[i:], '/')
		if j < 0 || i+j > end {
			j = end - i
		}
		if d := rel[:i+j]; d != "" && d != "." && SkippedDir(root, d, cx) {
			return d, true
		}
		i += j + 1
	}
	return "", false
}

// Scan lists the files of the project at root. See the package comment for
// the rules. Only ignore files are read; everything else is an lstat.
func Scan(ctx context.Context, root string, opts Options) (*Result, error) {
	abs, err := checkRoot(root)
	if err != nil {
		return nil, err
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	sub, err := cleanSub(opts.Sub)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	s := &scanner{ctx: ctx, root: abs, opts: opts, sub: sub, fsys: dirFS(abs)}
	s.cx = newIgnoreTree(s.fsys, CodectxIgnoreFile)
	if useGit(abs) {
		ok, err := s.fromGit()
		if err != nil {
			return nil, err
		}
		if ok {
			return s.result(true), nil
		}
		// git failed (or listed nothing): walk instead.
		s.files, s.skipped = nil, nil
	}
	if err := s.walk(); err != nil {
		return nil, err
	}
	return s.result(false), nil
}

// checkRoot returns the absolute root or a clear error.
func checkRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("scan %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("scan: %s: no such directory", root)
	case err != nil:
		return "", fmt.Errorf("scan %s: %w", root, err)
	case !fi.IsDir():
		return "", fmt.Errorf("scan: %s: not a directory", root)
	}
	return abs, nil
}

// cleanSub validates Options.Sub: "" for the whole root.
func cleanSub(sub string) (string, error) {
	sub = strings.Trim(filepath.ToSlash(sub), "/")
	if sub == "" || sub == "." {
		return "", nil
	}
	c := filepath.ToSlash(filepath.Clean(sub))
	if c == ".." || strings.HasPrefix(c, "../") || filepath.IsAbs(sub) {
		return "", fmt.Errorf("sub directory %q is outside the root", sub)
	}
	return c, nil
}

type scanner struct {
	ctx     context.Context
	root    string
	opts    Options
	sub     string
	fsys    fs.FS
	cx      *ignoreTree // .codectxignore
	files   []File
	skipped []Skip
	dirs    map[string]bool // SkippedDirs
}

func (s *scanner) result(git bool) *Result {
	sort.Slice(s.files, func(i, j int) bool { return s.files[i].Path < s.files[j].Path })
	sort.Slice(s.skipped, func(i, j int) bool { return s.skipped[i].Path < s.skipped[j].Path })
	dirs := make([]string, 0, len(s.dirs))
	for d := range s.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return &Result{Files: s.files, Skipped: s.skipped, Git: git, SkippedDirs: dirs}
}

// noteSkippedDir records directory rel, which the rules leave out, in
// SkippedDirs when it is a dependency or build-output directory of a
// whole-tree scan.
func (s *scanner) noteSkippedDir(rel string) {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	if s.sub != "" || (name != "node_modules" && name != "vendor" && outputDirs[name] == nil) {
		return
	}
	if s.dirs == nil {
		s.dirs = map[string]bool{}
	}
	s.dirs[rel] = true
}

// keepName applies the extension rule.
func (s *scanner) keepName(rel string) bool {
	return s.opts.AllFiles || LanguageOf(rel) != ""
}

// sizeText is a byte count for people: "1.5 MiB", "900 KiB", "12 B".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return fmt.Sprintf("%d B", n)
}

// add applies the symlink, type and size rules to a candidate that passed
// the ignore and extension rules.
func (s *scanner) add(rel string, fi fs.FileInfo) {
	mode := fi.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		s.skipped = append(s.skipped, Skip{Path: rel, Reason: ReasonSymlink})
		return
	case !mode.IsRegular():
		return
	case fi.Size() > s.opts.MaxFileSize:
		s.skipped = append(s.skipped, Skip{Path: rel, Reason: fmt.Sprintf("%s (%d bytes, over the %s limit)", ReasonTooLarge, fi.Size(), sizeText(s.opts.MaxFileSize))})
		return
	}
	s.files = append(s.files, File{
		Path:    rel,
		Abs:     filepath.Join(s.root, filepath.FromSlash(rel)),
		Size:    fi.Size(),
		ModTime: fi.ModTime().UnixNano(),
		Lang:    LanguageOf(rel),
	})
}

// skipBadName records a file or directory (dir) whose name is not valid
// UTF-8. Such a path cannot travel through JSON (MCP, --json) unchanged, so
// it is never listed; the skip shows it with the bad bytes as \xNN.
func (s *scanner) skipBadName(rel string, dir bool) {
	p := EscapeInvalidUTF8(rel)
	if dir {
		p += "/"
	}
	s.skipped = append(s.skipped, Skip{Path: p, Reason: ReasonBadName})
}

// EscapeInvalidUTF8 writes the bytes of s that are not valid UTF-8 as \xNN,
// for messages.
func EscapeInvalidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "\\x%02x", s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// inSub reports whether rel (a file or directory) lies inside Options.Sub.
func (s *scanner) inSub(rel string) bool {
	return s.sub == "" || rel == s.sub || strings.HasPrefix(rel, s.sub+"/")
}

// towardSub reports whether directory rel must be entered to reach Sub.
func (s *scanner) towardSub(rel string) bool {
	return s.inSub(rel) || strings.HasPrefix(s.sub, rel+"/")
}

// useGit is UsesGit; tests replace it to force the walk.
var useGit = UsesGit

func dirFS(root string) fs.FS { return os.DirFS(root) }
