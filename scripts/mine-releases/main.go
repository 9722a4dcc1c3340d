// Command mine-releases writes a golden set of change requests for a
// project nobody tuned on, from its releases: for each released version
// whose changelog section has exactly one note about the program (not
// dependencies, documentation, tests or CI), and whose source differs from
// the previous release in one to -max-files non-test source files, the
// note is the query and those files (as they are in the newest release)
// are the targets. The set is measured by `codectx eval`, which scores
// tasks of kind "change" by distinct files and splits off those whose
// query names a target (docs/EVAL.md, "Change requests on other projects").
//
// Releases come from the Go module proxy (`go mod download`) or the npm
// registry (`npm pack`); nothing else is fetched. Run on demand:
//
//	go run ./scripts/mine-releases -go go.uber.org/zap -name go-zap > testdata/eval/chg-go-zap.jsonl
//	go run ./scripts/mine-releases -npm qs -name js-qs -dir $SCRATCH/npm-src > testdata/eval/chg-js-qs.jsonl
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"codectx/internal/eval"
	"codectx/internal/scan"
	"codectx/internal/search"
)

type options struct {
	goModule, npmPackage, name, dir, changelog, newest string
	maxFiles                                           int
	dump                                               bool
}

func main() {
	var o options
	flag.StringVar(&o.goModule, "go", "", "Go module path (releases from the module proxy)")
	flag.StringVar(&o.npmPackage, "npm", "", "npm package name (releases from the npm registry)")
	flag.StringVar(&o.name, "name", "", "short name for task ids (default: the module's last element)")
	flag.StringVar(&o.dir, "dir", "", "npm: directory the packages are unpacked into (required with -npm)")
	flag.StringVar(&o.changelog, "changelog", "", "changelog path relative to the newest release (default: found by name)")
	flag.StringVar(&o.newest, "newest", "", "the release to index and take targets from (default: the newest)")
	flag.IntVar(&o.maxFiles, "max-files", 3, "largest number of changed non-test source files in a task")
	flag.BoolVar(&o.dump, "dump", false, "print the parsed changelog and every release's decision to stderr")
	flag.Parse()
	if (o.goModule == "") == (o.npmPackage == "") {
		fmt.Fprintln(os.Stderr, "mine-releases: give exactly one of -go MODULE or -npm PACKAGE")
		os.Exit(2)
	}
	if o.npmPackage != "" && o.dir == "" {
		fmt.Fprintln(os.Stderr, "mine-releases: -npm needs -dir DIR")
		os.Exit(2)
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "mine-releases:", err)
		os.Exit(1)
	}
}

// source fetches releases of one project.
type source interface {
	versions(ctx context.Context) ([]string, error)
	fetch(ctx context.Context, version string) (string, error) // the release's root directory
	rootRef(version string) string                             // the root as a set header writes it
	fetchRef(version string) string                            // what scripts/eval-changes.sh fetches: "go MODULE@VERSION" or "npm PACKAGE@VERSION"
}

func run(ctx context.Context, o options) error {
	var src source
	if o.goModule != "" {
		src = goSource{module: o.goModule}
		if o.name == "" {
			o.name = lastElem(o.goModule)
		}
	} else {
		src = npmSource{pkg: o.npmPackage, dir: o.dir}
		if o.name == "" {
			o.name = o.npmPackage
		}
	}
	all, err := src.versions(ctx)
	if err != nil {
		return err
	}
	var vs []string // releases, oldest first
	for _, v := range all {
		if !strings.Contains(strings.TrimPrefix(v, "v"), "-") {
			vs = append(vs, v)
		}
	}
	sort.SliceStable(vs, func(i, j int) bool { return eval.CompareVersions(vs[i], vs[j]) < 0 })
	if len(vs) < 2 {
		return fmt.Errorf("%d releases: nothing to compare", len(vs))
	}
	newest := vs[len(vs)-1]
	if o.newest != "" {
		newest = o.newest
	}
	newRoot, err := src.fetch(ctx, newest)
	if err != nil {
		return err
	}
	clPath := o.changelog
	if clPath == "" {
		if clPath, err = findChangelog(newRoot); err != nil {
			return err
		}
	}
	text, err := os.ReadFile(filepath.Join(newRoot, clPath))
	if err != nil {
		return err
	}
	rels := eval.ParseChangelog(string(text))
	byVersion := map[string]eval.Release{}
	for _, r := range rels {
		if _, dup := byVersion[r.Version]; !dup {
			byVersion[r.Version] = r
		}
	}
	newFiles, err := sourceFiles(newRoot)
	if err != nil {
		return err
	}

	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	header := map[string]string{"root": src.rootRef(newest), "fetch": src.fetchRef(newest), "note": fmt.Sprintf(
		"Change requests mined by scripts/mine-releases from the releases of %s and its %s: one task per release whose section has exactly one note about the program and whose source changed in 1 to %d non-test files since the previous release; query = the note, targets = those files as they are in %s (the indexed root).",
		o.goModule+o.npmPackage, clPath, o.maxFiles, newest)}
	if err := enc.Encode(header); err != nil {
		return err
	}
	n := 0
	for i := 1; i < len(vs); i++ {
		if eval.CompareVersions(vs[i], newest) > 0 {
			break
		}
		rel, ok := byVersion[strings.TrimPrefix(vs[i], "v")]
		if !ok {
			o.logf("%s: no changelog section", vs[i])
			continue
		}
		var code []eval.ReleaseNote
		for _, nt := range rel.Notes {
			if eval.CodeNote(nt) {
				code = append(code, nt)
			}
		}
		if len(code) != 1 || !eval.DescriptiveSubject(eval.NoteQuery(code[0].Text)) {
			o.logf("%s: %d notes, %d about the program", vs[i], len(rel.Notes), len(code))
			continue
		}
		prevRoot, err := src.fetch(ctx, vs[i-1])
		if err != nil {
			return err
		}
		nextRoot, err := src.fetch(ctx, vs[i])
		if err != nil {
			return err
		}
		changed, err := diffSources(prevRoot, nextRoot, vs[i-1], vs[i])
		if err != nil {
			return err
		}
		if len(changed) == 0 || len(changed) > o.maxFiles {
			o.logf("%s: %d changed source files", vs[i], len(changed))
			continue
		}
		// Every file the release changed must still be there: a task whose
		// answer moved or went away says nothing about the indexed code.
		var targets []eval.Target
		gone := 0
		for _, f := range changed {
			if newFiles[f] != "" {
				targets = append(targets, eval.Target{File: f})
			} else if _, err := os.Stat(filepath.Join(nextRoot, filepath.FromSlash(f))); err == nil {
				gone++
			}
		}
		if gone > 0 || len(targets) == 0 {
			o.logf("%s: %d of the changed files gone from %s", vs[i], gone, newest)
			continue
		}
		// And the change must still be in them: most of the lines the
		// release added are still there in the newest release. A file that
		// kept its name while its code moved elsewhere is not the answer.
		moved := 0
		for _, tg := range targets {
			ok, err := survives(filepath.Join(prevRoot, tg.File), filepath.Join(nextRoot, tg.File), filepath.Join(newRoot, tg.File))
			if err != nil {
				return err
			}
			if !ok {
				moved++
			}
		}
		if moved > 0 {
			o.logf("%s: the change to %d of %d files is no longer in %s", vs[i], moved, len(targets), newest)
			continue
		}
		q := eval.NoteQuery(code[0].Text)
		o.logf("%s: TASK %q → %v", vs[i], q, changed)
		t := eval.Task{ID: o.name + "-" + strings.TrimPrefix(vs[i], "v"), Query: q, Lang: "en", Kind: "change", Targets: targets}
		if err := enc.Encode(t); err != nil {
			return err
		}
		n++
	}
	o.logf("%d tasks from %d releases (%d changelog sections)", n, len(vs), len(rels))
	if n == 0 {
		return errors.New("no task")
	}
	return nil
}

func (o options) logf(format string, args ...any) {
	if o.dump {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

func lastElem(module string) string {
	parts := strings.Split(module, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) >= 2 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	return last
}

// findChangelog is the first file at the root whose name says it is one.
func findChangelog(root string) (string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return "", err
	}
	for _, want := range []string{"changelog", "changes", "history", "news", "releases", "release-notes", "release_notes"} {
		for _, e := range ents {
			base := strings.ToLower(e.Name())
			stem := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, ".md"), ".txt"), ".rst")
			if !e.IsDir() && stem == want {
				return e.Name(), nil
			}
		}
	}
	return "", fmt.Errorf("no changelog at the root of %s (give -changelog)", root)
}

// builtDirs are directory names that by convention hold installed or built
// code: dependencies, bundles and minified copies of the source.
var builtDirs = map[string]bool{"node_modules": true, "dist": true, "min": true, "umd": true, "bundles": true}

// sourceFiles maps each non-test source file under root (slash-separated,
// relative) to a hash of its content.
func sourceFiles(root string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			// Build output (bundles, minified copies) is not what a change edits.
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || builtDirs[d.Name()]) {
				return filepath.SkipDir
			}
			return nil
		}
		if scan.LanguageOf(rel) == "" || search.ClassifyPath(rel) != search.ClassSource ||
			search.IsTestPath(rel) || search.IsDependencyPath(rel) || search.IsStubPath(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
		out[rel] = string(sum[:])
		return nil
	})
	return out, err
}

// diffSources lists the source files added, changed or removed between
// two releases, sorted. A file whose only difference is the release's
// version number (a version constant) did not change.
func diffSources(prev, next, prevVersion, nextVersion string) ([]string, error) {
	a, err := sourceFiles(prev)
	if err != nil {
		return nil, err
	}
	b, err := sourceFiles(next)
	if err != nil {
		return nil, err
	}
	var out []string
	for f, h := range b {
		if a[f] == h {
			continue
		}
		if a[f] != "" {
			same, err := sameButVersion(filepath.Join(prev, f), filepath.Join(next, f), prevVersion, nextVersion)
			if err != nil {
				return nil, err
			}
			if same {
				continue
			}
		}
		out = append(out, f)
	}
	for f := range a {
		if _, ok := b[f]; !ok {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, nil
}

// sameButVersion reports whether two files differ only where the first
// names the previous release's version and the second the next one's.
func sameButVersion(a, b, prevVersion, nextVersion string) (bool, error) {
	x, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	pv, nv := strings.TrimPrefix(prevVersion, "v"), strings.TrimPrefix(nextVersion, "v")
	return bytes.Equal(bytes.ReplaceAll(x, []byte(pv), []byte(nv)), y), nil
}

// survives reports whether at least half of the lines a release added to
// a file (next against prev; a new file's every line) are still in the
// newest release's copy. Blank lines and lines of punctuation alone do not
// count; lines are compared without surrounding white space.
func survives(prev, next, newest string) (bool, error) {
	lines := func(p string) (map[string]int, error) {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return map[string]int{}, nil
		}
		if err != nil {
			return nil, err
		}
		m := map[string]int{}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); strings.ContainsFunc(l, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				m[l]++
			}
		}
		return m, nil
	}
	a, err := lines(prev)
	if err != nil {
		return false, err
	}
	b, err := lines(next)
	if err != nil {
		return false, err
	}
	c, err := lines(newest)
	if err != nil {
		return false, err
	}
	added, kept := 0, 0
	for l, n := range b {
		if extra := n - a[l]; extra > 0 {
			added += extra
			kept += min(extra, c[l])
		}
	}
	return added == 0 || 2*kept >= added, nil
}

type goSource struct{ module string }

func (g goSource) versions(ctx context.Context) ([]string, error) {
	out, err := output(ctx, "go", "list", "-m", "-versions", g.module)
	if err != nil {
		return nil, fmt.Errorf("go list -m -versions %s: %w", g.module, err)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return nil, fmt.Errorf("%s: no versions", g.module)
	}
	return f[1:], nil
}

func (g goSource) fetch(ctx context.Context, v string) (string, error) {
	out, err := output(ctx, "go", "mod", "download", "-json", g.module+"@"+v)
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", g.module, v, err)
	}
	var d struct{ Dir, Error string }
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	if d.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", g.module, v, d.Error)
	}
	return d.Dir, nil
}

// rootRef names the module cache with $HOME, as the other sets do.
func (g goSource) rootRef(v string) string {
	esc := ""
	for _, r := range g.module {
		if r >= 'A' && r <= 'Z' {
			esc += "!" + string(r+'a'-'A')
		} else {
			esc += string(r)
		}
	}
	return "$HOME/go/pkg/mod/" + esc + "@" + v
}

func (g goSource) fetchRef(v string) string { return "go " + g.module + "@" + v }

type npmSource struct{ pkg, dir string }

func (n npmSource) fetchRef(v string) string { return "npm " + n.pkg + "@" + v }

func (n npmSource) versions(ctx context.Context) ([]string, error) {
	out, err := output(ctx, "npm", "view", n.pkg, "versions", "--json")
	if err != nil {
		return nil, fmt.Errorf("npm view %s versions: %w", n.pkg, err)
	}
	var vs []string
	if err := json.Unmarshal(out, &vs); err != nil {
		return nil, err
	}
	return vs, nil
}

func (n npmSource) fetch(ctx context.Context, v string) (string, error) {
	dest := filepath.Join(n.dir, n.pkg+"@"+v)
	root := filepath.Join(dest, "package")
	if _, err := os.Stat(root); err == nil {
		return root, nil
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return "", err
	}
	out, err := output(ctx, "npm", "pack", "--silent", "--pack-destination", dest, n.pkg+"@"+v)
	if err != nil {
		return "", fmt.Errorf("npm pack %s@%s: %w", n.pkg, v, err)
	}
	tgz := filepath.Join(dest, strings.TrimSpace(lastLine(string(out))))
	if _, err := output(ctx, "tar", "-xzf", tgz, "-C", dest); err != nil {
		return "", fmt.Errorf("unpack %s: %w", tgz, err)
	}
	if err := os.Remove(tgz); err != nil {
		return "", err
	}
	return root, nil
}

func (n npmSource) rootRef(v string) string {
	return "$SCRATCH/npm-src/" + n.pkg + "@" + v + "/package"
}

// output runs a command and returns its standard output; a failure's
// error carries the first line the command wrote to standard error.
func output(ctx context.Context, name string, args ...string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(bytes.TrimSpace(ee.Stderr)) > 0 {
		first, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
		err = fmt.Errorf("%w: %s", err, first)
	}
	return out, err
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
