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
// as a project package). Without the source (no Go installation) the
// tables compiled in (goStdKnown) give the interfaces and types projects
// embed most; any other is unknown, as any other package's type is.

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
		return goStdKnown(ref, out)
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

// goStdKnown adds the method set of ref from the tables compiled in, for a
// machine without the Go installation's source (no $GOROOT/src): the
// standard-library interfaces and concrete types projects embed most. The
// source, when present, is the authority and these are not read.
func goStdKnown(ref string, out map[string]string) (iface, ok bool) {
	ref = strings.TrimPrefix(ref, "*")
	ms, iface := goStdInterfaces[ref], true
	if ms == nil {
		ms, iface = goStdTypes[ref], false
	}
	if ms == nil {
		return false, false
	}
	for m, sig := range ms {
		if _, ok := out[m]; !ok {
			out[m] = sig
		}
	}
	return iface, true
}

// goStdInterfaces are the method sets of standard-library interfaces that
// project interfaces and structs often embed (type Transport interface {
// Read(…); io.Closer }, type conn struct{ net.Conn }), keyed by the
// reference a type fact writes for them ("PATH#T", "!error"), with
// signatures in the notation of type facts (types of other packages as
// "PATH#T"): facts of the Go language's standard library, like the Python
// builtins of internal/lang, naming nothing of any project.
var goStdInterfaces = map[string]map[string]string{
	"!error":          {"Error": "()(string)"},
	"io#Reader":       {"Read": "([]byte)(int,error)"},
	"io#Writer":       {"Write": "([]byte)(int,error)"},
	"io#Closer":       {"Close": "()(error)"},
	"io#Seeker":       {"Seek": "(int64,int)(int64,error)"},
	"io#ReaderAt":     {"ReadAt": "([]byte,int64)(int,error)"},
	"io#WriterAt":     {"WriteAt": "([]byte,int64)(int,error)"},
	"io#ReaderFrom":   {"ReadFrom": "(io#Reader)(int64,error)"},
	"io#WriterTo":     {"WriteTo": "(io#Writer)(int64,error)"},
	"io#ByteReader":   {"ReadByte": "()(byte,error)"},
	"io#ByteWriter":   {"WriteByte": "(byte)(error)"},
	"io#ByteScanner":  {"ReadByte": "()(byte,error)", "UnreadByte": "()(error)"},
	"io#RuneReader":   {"ReadRune": "()(rune,int,error)"},
	"io#RuneScanner":  {"ReadRune": "()(rune,int,error)", "UnreadRune": "()(error)"},
	"io#StringWriter": {"WriteString": "(string)(int,error)"},
	"io#ReadCloser":   {"Read": "([]byte)(int,error)", "Close": "()(error)"},
	"io#WriteCloser":  {"Write": "([]byte)(int,error)", "Close": "()(error)"},
	"io#ReadWriter":   {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)"},
	"io#ReadSeeker":   {"Read": "([]byte)(int,error)", "Seek": "(int64,int)(int64,error)"},
	"io#WriteSeeker":  {"Write": "([]byte)(int,error)", "Seek": "(int64,int)(int64,error)"},
	"io#ReadWriteCloser": {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)",
		"Close": "()(error)"},
	"io#ReadSeekCloser": {"Read": "([]byte)(int,error)", "Seek": "(int64,int)(int64,error)",
		"Close": "()(error)"},
	"io#ReadWriteSeeker": {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)",
		"Seek": "(int64,int)(int64,error)"},
	"fmt#Stringer":               {"String": "()(string)"},
	"fmt#GoStringer":             {"GoString": "()(string)"},
	"sort#Interface":             {"Len": "()(int)", "Less": "(int,int)(bool)", "Swap": "(int,int)"},
	"encoding#TextMarshaler":     {"MarshalText": "()([]byte,error)"},
	"encoding#TextUnmarshaler":   {"UnmarshalText": "([]byte)(error)"},
	"encoding#BinaryMarshaler":   {"MarshalBinary": "()([]byte,error)"},
	"encoding#BinaryUnmarshaler": {"UnmarshalBinary": "([]byte)(error)"},
	"encoding/json#Marshaler":    {"MarshalJSON": "()([]byte,error)"},
	"encoding/json#Unmarshaler":  {"UnmarshalJSON": "([]byte)(error)"},
	"flag#Value":                 {"String": "()(string)", "Set": "(string)(error)"},
	"net/http#Handler":           {"ServeHTTP": "(net/http#ResponseWriter,*net/http#Request)"},
	"net/http#RoundTripper":      {"RoundTrip": "(*net/http#Request)(*net/http#Response,error)"},
	"net/http#Flusher":           {"Flush": "()"},
	"context#Context": {"Deadline": "()(time#Time,bool)", "Done": "()(<-chan struct{})",
		"Err": "()(error)", "Value": "(any)(any)"},
	"net#Conn": {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)", "Close": "()(error)",
		"LocalAddr": "()(net#Addr)", "RemoteAddr": "()(net#Addr)", "SetDeadline": "(time#Time)(error)",
		"SetReadDeadline": "(time#Time)(error)", "SetWriteDeadline": "(time#Time)(error)"},
	"net#Addr": {"Network": "()(string)", "String": "()(string)"},
	"hash#Hash": {"Write": "([]byte)(int,error)", "Sum": "([]byte)([]byte)", "Reset": "()",
		"Size": "()(int)", "BlockSize": "()(int)"},
}

// goStdTypes are the method sets (pointer receivers included) of
// standard-library concrete types that project structs often embed
// (type lockedBuffer struct{ sync.Mutex; bytes.Buffer }), in the notation
// of goStdInterfaces.
var goStdTypes = map[string]map[string]string{
	"bytes#Buffer": {"Available": "()(int)", "AvailableBuffer": "()([]byte)", "Bytes": "()([]byte)", "Cap": "()(int)",
		"Grow": "(int)", "Len": "()(int)", "Next": "(int)([]byte)", "Read": "([]byte)(int,error)",
		"ReadByte": "()(byte,error)", "ReadBytes": "(byte)([]byte,error)", "ReadFrom": "(io#Reader)(int64,error)",
		"ReadRune": "()(rune,int,error)", "ReadString": "(byte)(string,error)", "Reset": "()", "String": "()(string)",
		"Truncate": "(int)", "UnreadByte": "()(error)", "UnreadRune": "()(error)", "Write": "([]byte)(int,error)",
		"WriteByte": "(byte)(error)", "WriteRune": "(rune)(int,error)", "WriteString": "(string)(int,error)",
		"WriteTo": "(io#Writer)(int64,error)"},
	"bufio#Writer": {"Available": "()(int)", "AvailableBuffer": "()([]byte)", "Buffered": "()(int)", "Flush": "()(error)",
		"ReadFrom": "(io#Reader)(int64,error)", "Reset": "(io#Writer)", "Size": "()(int)", "Write": "([]byte)(int,error)",
		"WriteByte": "(byte)(error)", "WriteRune": "(rune)(int,error)", "WriteString": "(string)(int,error)"},
	"bufio#Reader": {"Buffered": "()(int)", "Discard": "(int)(int,error)", "Peek": "(int)([]byte,error)",
		"Read": "([]byte)(int,error)", "ReadByte": "()(byte,error)", "ReadBytes": "(byte)([]byte,error)",
		"ReadLine": "()([]byte,bool,error)", "ReadRune": "()(rune,int,error)", "ReadSlice": "(byte)([]byte,error)",
		"ReadString": "(byte)(string,error)", "Reset": "(io#Reader)", "Size": "()(int)", "UnreadByte": "()(error)",
		"UnreadRune": "()(error)", "WriteTo": "(io#Writer)(int64,error)"},
	"strings#Builder": {"Cap": "()(int)", "Grow": "(int)", "Len": "()(int)", "Reset": "()", "String": "()(string)",
		"Write": "([]byte)(int,error)", "WriteByte": "(byte)(error)", "WriteRune": "(rune)(int,error)",
		"WriteString": "(string)(int,error)"},
	"strings#Reader": {"Len": "()(int)", "Read": "([]byte)(int,error)", "ReadAt": "([]byte,int64)(int,error)",
		"ReadByte": "()(byte,error)", "ReadRune": "()(rune,int,error)", "Reset": "(string)",
		"Seek": "(int64,int)(int64,error)", "Size": "()(int64)", "UnreadByte": "()(error)", "UnreadRune": "()(error)",
		"WriteTo": "(io#Writer)(int64,error)"},
	"sync#Mutex": {"Lock": "()", "TryLock": "()(bool)", "Unlock": "()"},
	"sync#RWMutex": {"Lock": "()", "RLock": "()", "RLocker": "()(sync#Locker)", "RUnlock": "()", "TryLock": "()(bool)",
		"TryRLock": "()(bool)", "Unlock": "()"},
}
