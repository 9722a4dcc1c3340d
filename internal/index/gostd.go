package index

import (
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
// and which types are interfaces.
type goStdPkg struct {
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
	p := goStdLoad(pkgPath)
	if p == nil || depth > 8 {
		return false, false
	}
	ms, declared := p.methods[name]
	if !declared && len(p.embeds[name]) == 0 && !p.iface[name] {
		return false, false
	}
	for m, sig := range ms {
		if _, ok := out[m]; !ok {
			out[m] = sig
		}
	}
	ok = true
	for _, e := range p.embeds[name] {
		if _, eok := goStdAdd(e, depth+1, out); !eok {
			ok = false
		}
	}
	return p.iface[name], ok
}

// goStdPath reports whether an import path is a standard-library one (its
// first element has no dot).
func goStdPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return p != "" && !strings.Contains(first, ".")
}

// goStdLoad parses a standard-library package's source once per process.
func goStdLoad(pkgPath string) *goStdPkg {
	goStdCache.Lock()
	defer goStdCache.Unlock()
	if p, seen := goStdCache.pkgs[pkgPath]; seen {
		return p
	}
	if goStdCache.pkgs == nil {
		goStdCache.pkgs = map[string]*goStdPkg{}
	}
	p := goStdParse(pkgPath)
	goStdCache.pkgs[pkgPath] = p
	return p
}

func goStdParse(pkgPath string) *goStdPkg {
	if build.Default.GOROOT == "" {
		return nil
	}
	dir := filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(pkgPath))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	p := &goStdPkg{methods: map[string]map[string]string{}, embeds: map[string][]string{}, iface: map[string]bool{}}
	// a type of the package itself: "@T" in a signature, "T" in a reference
	own := func(s string) string { return strings.ReplaceAll(s, "@", pkgPath+"#") }
	ref := func(r string) string {
		if r == "" || strings.ContainsAny(r, "#!") {
			return r
		}
		return pkgPath + "#" + r
	}
	found := false
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		res := lang.Parse(path.Join(pkgPath, n), "go", src)
		built := ""
		for _, f := range res.Facts {
			if f.Kind == lang.FactBuild {
				built = f.Name
			}
		}
		if !goBuildsIn(&build.Default, n, built) {
			continue
		}
		found = true
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
	if !found {
		return nil
	}
	for _, es := range p.embeds {
		slices.Sort(es)
	}
	return p
}

func (p *goStdPkg) add(owner, m, sig string) {
	if p.methods[owner] == nil {
		p.methods[owner] = map[string]string{}
	}
	p.methods[owner][m] = sig
}
