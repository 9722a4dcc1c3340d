package index

import (
	"bytes"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"codectx/internal/lang"
)

// The method sets of standard-library types that project interfaces and
// structs embed (type Transport interface { Read(…); io.Closer }, type
// conn struct{ net.Conn }, type bufWriter struct{ *bufio.Writer }) are read
// from the Go installation's own source ($GOROOT/src, go/build.Default's
// GOROOT), parsed by internal/lang like project files: the files the
// default build compiles, test files left out. They are used only when
// the package is not part of the project (indexing $GOROOT/src reads io
// as a project package). Without the source (no Go installation) such an
// embedded type's method set is unknown, as any other package's is.

// goStdPkg is what one standard-library package declares: per type its
// methods (name → signature in the notation of type facts, types of
// other packages and of its own as "PATH#T") and embedded types ("PATH#T"),
// and which types are interfaces; files holds the sources not parsed yet.
// A file is parsed only once a type it may declare, or declare methods
// of, is asked for (goStdMentions): net/http is large, and a project
// embeds one or two of its types.
type goStdPkg struct {
	path    string
	files   map[string][]byte
	methods map[string]map[string]string
	embeds  map[string][]string
	iface   map[string]bool
}

var goStdCache struct {
	sync.Mutex
	pkgs map[string]*goStdPkg // import path → package (nil: no source)
}

// goStdSet is the method set (exported methods) of the standard-library
// type ref ("PATH#T" or a predeclared "!error"): declared, promoted
// through embedded types and embedded interfaces. ok is false when a part
// of it is not known; iface reports whether the type is an interface.
func goStdSet(ref string) (ms map[string]string, iface, ok bool) {
	ms = map[string]string{}
	iface, ok = goStdAdd(ref, 0, ms)
	return ms, iface, ok
}

func goStdAdd(ref string, depth int, out map[string]string) (iface, ok bool) {
	pkgPath, name, qualified := strings.Cut(strings.TrimPrefix(ref, "*"), "#")
	switch {
	case strings.HasPrefix(ref, "!"):
		pkgPath, name = "builtin", ref[1:] // the predeclared types' declarations
	case !qualified || !goStdPath(pkgPath):
		return false, false
	}
	if depth > 8 {
		return false, false
	}
	goStdCache.Lock()
	p := goStdLoad(pkgPath)
	if p == nil {
		goStdCache.Unlock()
		return false, false
	}
	p.parse(name)
	ms, embeds, iface := p.methods[name], slices.Clone(p.embeds[name]), p.iface[name]
	slices.Sort(embeds)
	goStdCache.Unlock()
	if ms == nil && len(embeds) == 0 && !iface {
		return false, false
	}
	for m, sig := range ms {
		if _, ok := out[m]; !ok {
			out[m] = sig
		}
	}
	ok = true
	for _, e := range embeds {
		if _, eok := goStdAdd(e, depth+1, out); !eok {
			ok = false
		}
	}
	return iface, ok
}

// goStdPath reports whether an import path is a standard-library one (its
// first element has no dot).
func goStdPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return p != "" && !strings.Contains(first, ".")
}

// goStdLoad reads a standard-library package's source once per process
// (goStdCache held).
func goStdLoad(pkgPath string) *goStdPkg {
	if p, seen := goStdCache.pkgs[pkgPath]; seen {
		return p
	}
	if goStdCache.pkgs == nil {
		goStdCache.pkgs = map[string]*goStdPkg{}
	}
	var p *goStdPkg
	if build.Default.GOROOT != "" {
		dir := filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(pkgPath))
		entries, _ := os.ReadDir(dir) // none: no source, no method sets
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			if src, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
				if p == nil {
					p = &goStdPkg{path: pkgPath, files: map[string][]byte{}, methods: map[string]map[string]string{},
						embeds: map[string][]string{}, iface: map[string]bool{}}
				}
				p.files[n] = src
			}
		}
	}
	goStdCache.pkgs[pkgPath] = p
	return p
}

// goStdMentions reports whether Go source may declare the type name or a
// method of it: "type N", a line starting "\tN" (a type group), a
// receiver "(r *N)", "(N)", "(r N[T])". A false yes costs a parse only.
func goStdMentions(src []byte, name string) bool {
	for _, pat := range [...]string{"type " + name, "\t" + name + " ", "\t" + name + "[",
		"*" + name + ")", " " + name + ")", "(" + name + ")", "*" + name + "[", " " + name + "["} {
		if bytes.Contains(src, []byte(pat)) {
			return true
		}
	}
	return false
}

// parse folds in the facts of the files, in the default build, that may
// declare name or its methods (goStdCache held).
func (p *goStdPkg) parse(name string) {
	names := make([]string, 0, len(p.files))
	for n, src := range p.files {
		if goStdMentions(src, name) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	// a type of the package itself: "@T" in a signature, "T" in a reference
	own := func(s string) string { return strings.ReplaceAll(s, "@", p.path+"#") }
	ref := func(r string) string {
		if r == "" || strings.ContainsAny(r, "#!") {
			return r
		}
		return p.path + "#" + r
	}
	for _, n := range names {
		res := lang.Parse(path.Join(p.path, n), "go", p.files[n])
		delete(p.files, n)
		built := ""
		for _, f := range res.Facts {
			if f.Kind == lang.FactBuild {
				built = f.Name
			}
		}
		if !goBuildsIn(&build.Default, n, built) {
			continue
		}
		for _, f := range res.Facts {
			switch {
			case f.Kind == lang.FactIMethod && exported(f.Name):
				p.iface[f.Owner] = true
				p.add(f.Owner, f.Name, own(f.Sig))
			case f.Kind == lang.FactIMethod:
				p.iface[f.Owner] = true
			case f.Kind == lang.FactIEmbed:
				p.iface[f.Owner] = true
				p.embeds[f.Owner] = append(p.embeds[f.Owner], ref(f.Type))
			case f.Kind == lang.FactField && f.Sig == "embed":
				p.embeds[f.Owner] = append(p.embeds[f.Owner], ref(f.Type))
			case f.Kind == lang.FactResult && f.Owner != "" && exported(f.Name):
				p.add(f.Owner, f.Name, own(f.Sig))
			}
		}
	}
}

func (p *goStdPkg) add(owner, m, sig string) {
	if p.methods[owner] == nil {
		p.methods[owner] = map[string]string{}
	}
	p.methods[owner][m] = sig
}
