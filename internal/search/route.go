package search

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"codectx/internal/query"
)

// Routes of a query.
const (
	// RouteLookup is a question about where or how something is done:
	// chunks are ranked, up to PerFile per file.
	RouteLookup = "lookup"
	// RouteChange is a change request or bug report (long prose, an error
	// message or stack trace, "should", "instead of", "when … then"): it
	// is answered at file level, one entry per file with its best chunk as
	// evidence.
	RouteChange = "change"
)

// longProseWords is the word count from which a query is prose rather than
// a question: a bug report or a commit-message-like change description.
const longProseWords = 30

// frame is a stack-trace frame or a file:line reference in a query.
type frame struct {
	file string // path as written (relative, or a suffix of the indexed path)
	line int    // 0 when unknown
	fn   string // function name, "" when unknown
}

// route is what a query asks for, read from its text alone.
type route struct {
	kind string // RouteLookup or RouteChange
	// aboutDocs, aboutBuild and aboutData turn the matching non-source
	// demotion off.
	aboutDocs, aboutBuild, aboutData, aboutGenerated bool
	// idents are code identifiers of the query (exact lookup by symbol).
	idents []string
	// paths are file paths named in the query (exact lookup by path suffix).
	paths  []string
	frames []frame
	// areas are the areas of a commit-style area prefix: one ("internal/
	// store: …", "fix(http): …") or a list ("net/http, net/url: …").
	areas []area
	// callee is the identifier whose callers or users the query asks for
	// ("who calls X", "where is X used", "X 在哪里被调用"; callerQuestion),
	// "" when it asks for none.
	callee string
}

// area is one area of a commit-style prefix: name is its last component,
// lower case ("internal/store" → "store"), the directory or package the
// change is in; parent is the component before it, if any ("mm/slub" →
// "mm"), when the area may be a file of that directory.
type area struct{ name, parent string }

// maxAreas bounds the areas read from one prefix.
const maxAreas = 4

// The routing expressions are compiled on first use (sync.OnceValue), as
// are those of the other packages a query goes through: a one-shot command
// that never routes a query (grep, read, index) does not compile them.
var (
	// Go / generic "path/file.ext:123" (optionally ":col"), also inside
	// "at foo (src/x.js:12:5)".
	reFileLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z0-9_./\\-]+\.[A-Za-z0-9]{1,5}):(\d+)`) })
	// Python: File "x/y.py", line 12, in func
	rePyFrame = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`File "([^"]+)", line (\d+)(?:, in ([A-Za-z_][A-Za-z0-9_<>]*))?`)
	})
	// Java/Kotlin/C#: at com.x.Foo.bar(Foo.java:12)
	reJVMFrame = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`at ([A-Za-z_$][\w$.<>]*)\(([\w$.-]+\.(?:java|kt|scala|groovy)):(\d+)\)`)
	})
	// Go panics: "pkg.(*T).Method(...)" or "pkg.Func(...)" lines.
	reGoFrame = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s(])([A-Za-z_][\w/-]*(?:\.[A-Za-z_]\w*)*\.(?:\(\*?[A-Za-z_]\w*\)\.)?[A-Za-z_]\w*)\(`)
	})
	// A path-like token: has a directory separator or a source extension.
	rePath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s"'(\x60])((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\.[A-Za-z0-9]{1,5}|[A-Za-z0-9_-]+\.(?:go|py|java|kt|js|jsx|ts|tsx|rs|c|h|cc|cpp|hpp|cs|rb|php|swift|scala|lua|dart|sh))\b`)
	})
	// Error-message shapes.
	reError = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\b(panic|traceback|exception|segfault|stack ?trace|nil pointer|null ?pointer|undefined is not|cannot read propert|unexpected|crash(es|ed)?|regression|broken)\b|\b\w*(error|exception):\s|\bfail(s|ed|ing)? (to|with|on|when)\b)`)
	})
	// A commit-style change description: an area prefix ("store: …",
	// "fix(http): …", "net/http: …") or an imperative change verb first
	// ("add …", "fix …", "remove …"), as commit subjects and task titles
	// are written.
	reAreaPrefix = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z][\w./-]*(?:, ?[A-Za-z][\w./-]*)*)(?:\(([\w./-]+)\))?!?: +\S`)
	})
	reImperative = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(add|fix|remove|drop|delete|support|make|allow|avoid|handle|implement|refactor|rename|move|replace|skip|keep|stop|ensure|prevent|improve|update|change|expose|introduce|deprecate|reduce|simplify|split|reject|rewrite|speed up|clean up)(s|es|ed|d)?\s`)
	})
	// A prefix that is a message level or error name, not an area.
	reMessageLevel = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(error|exception|panic|fatal|warning|warn|traceback|note|info|debug)$`)
	})
	// Questions about the callers or users of a named identifier; the
	// first group that matched is the identifier (callerQuestion).
	reCallerOf = sync.OnceValue(func() *regexp.Regexp {
		const id = `([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`
		return regexp.MustCompile(`(?i)\b(?:who|what|which\s+\w+(?:\s+\w+)?)\s+(?:calls|uses|invokes|call|use|invoke)\s+(?:the\s+)?` + id +
			`|\b(?:callers|call\s+sites|usages)\s+(?:of|for)\s+(?:the\s+)?` + id +
			`|\bwhere\s+(?:is|are)\s+(?:the\s+)?` + id + `\s+(?:\w+\s+)?(?:called|used|invoked)\b` +
			`|` + id + `[^，。？！,.?!;；]{0,10}?被(?:哪些|什么)?(?:地方|方法|函数|代码|位置)?(?:调用|用到|使用|引用)` +
			`|(?:哪些|什么)(?:地方|方法|函数|代码)(?:会)?(?:调用|用到|使用)了?\s*` + id +
			`|谁(?:在)?(?:调用|使用|用)了?\s*` + id +
			`|` + id + `\s*的调用(?:方|者|处)`)
	})
	// The same Chinese phrases without an identifier next to them ("哪些
	// 地方调用了它"): the query's only identifier is then the one meant.
	reCallerPhrase = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`被(?:哪些|什么)?(?:地方|方法|函数|代码|位置)?(?:调用|用到|使用|引用)|(?:哪些|什么)(?:地方|方法|函数|代码)(?:会)?(?:调用|用到|使用)了?|谁(?:在)?(?:调用|使用)|调用(?:方|者|处)`)
	})
	// Change-request phrasing.
	reChange = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\bshould(n't| not)?\b|\binstead of\b|\bexpected\b.*\b(got|but|instead)\b|\bdoes(n't| not)\b|\bdo(n't| not) (work|handle|support)|\bwhen\b.{3,120}\bthen\b|\bno longer\b|\bwrong(ly)?\b|\bincorrect(ly)?\b|\bbug\b|\badd support for\b|\ballow (users? )?to\b|应该|而不是|报错|异常|崩溃)`)
	})
)

// Words that say a question is about documentation, builds, data files or
// generated code.
var (
	docWords       = wordSet("doc docs documentation document readme guide manual tutorial changelog markdown 文档 说明")
	buildWords     = wordSet("build builds compile compiler dependency dependencies pom gradle maven makefile cmake dockerfile docker ci pipeline workflow lockfile package.json go.mod cargo 构建 编译 依赖")
	dataWords      = wordSet("config configuration settings setting yaml yml json toml xml properties locale locales translation translations i18n l10n 配置 翻译")
	generatedWords = wordSet("generated codegen protobuf proto 生成")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// routeQuery reads what a query asks for.
func routeQuery(raw string, groups []termGroup) route {
	r := route{kind: RouteLookup}
	for _, g := range groups {
		for _, t := range g.terms {
			r.aboutDocs = r.aboutDocs || docWords[t.Text]
			r.aboutBuild = r.aboutBuild || buildWords[t.Text]
			r.aboutData = r.aboutData || dataWords[t.Text]
			r.aboutGenerated = r.aboutGenerated || generatedWords[t.Text]
		}
	}
	type at struct {
		file string
		line int
	}
	seenFrame := map[at]bool{}
	addFrame := func(f frame) {
		f.file = strings.TrimPrefix(strings.ReplaceAll(f.file, `\`, "/"), "./")
		if k := (at{f.file, f.line}); !seenFrame[k] {
			seenFrame[k] = true
			r.frames = append(r.frames, f)
		}
	}
	for _, m := range rePyFrame().FindAllStringSubmatch(raw, -1) {
		n, _ := strconv.Atoi(m[2])
		addFrame(frame{file: m[1], line: n, fn: m[3]})
	}
	for _, m := range reJVMFrame().FindAllStringSubmatch(raw, -1) {
		n, _ := strconv.Atoi(m[3])
		fn := m[1]
		if i := strings.LastIndexByte(fn, '.'); i >= 0 {
			fn = fn[i+1:]
		}
		addFrame(frame{file: m[2], line: n, fn: fn})
	}
	for _, m := range reFileLine().FindAllStringSubmatch(raw, -1) {
		if n, err := strconv.Atoi(m[2]); err == nil && !looksLikeHostPort(m[1]) {
			addFrame(frame{file: m[1], line: n})
		}
	}
	for _, m := range reGoFrame().FindAllStringSubmatch(raw, -1) {
		fn := m[1]
		if i := strings.LastIndexByte(fn, '.'); i >= 0 {
			fn = fn[i+1:]
		}
		r.idents = appendNew(r.idents, fn)
	}
	for _, f := range r.frames {
		if f.fn != "" && f.fn != "<module>" {
			r.idents = appendNew(r.idents, f.fn)
		}
	}
	for _, m := range rePath().FindAllStringSubmatch(raw, -1) {
		if !looksLikeHostPort(m[1]) {
			r.paths = appendNew(r.paths, strings.TrimPrefix(m[1], "./"))
		}
	}
	for _, id := range query.Parse(raw).Identifiers {
		// Paths and dotted module names are not symbols; "a.b" identifiers
		// are looked up by their last component.
		if strings.ContainsAny(id, "/") || rePath().MatchString(" "+id) || isNumber(id) {
			continue
		}
		r.idents = appendNew(r.idents, id)
	}
	keywords := make([]string, 0, len(groups))
	for _, g := range groups {
		keywords = append(keywords, g.keyword)
	}
	r.callee = callerQuestion(raw, r.idents, keywords)
	words := len(strings.Fields(raw))
	if m := reAreaPrefix().FindStringSubmatch(raw); m != nil && !reMessageLevel().MatchString(m[1]) {
		list := m[1]
		if m[2] != "" {
			list = m[2] // "fix(http): …": the scope names the area
		}
		for a := range strings.SplitSeq(list, ",") {
			parts := strings.Split(strings.ToLower(strings.Trim(strings.TrimSpace(a), "/.")), "/")
			if len(r.areas) == maxAreas || parts[len(parts)-1] == "" {
				break
			}
			ar := area{name: parts[len(parts)-1]}
			if len(parts) > 1 {
				ar.parent = parts[len(parts)-2]
			}
			r.areas = append(r.areas, ar)
		}
	}
	if words >= longProseWords || len(r.frames) > 0 || reError().MatchString(raw) || reChange().MatchString(raw) ||
		reAreaPrefix().MatchString(raw) || reImperative().MatchString(raw) {
		r.kind = RouteChange
	}
	return r
}

// callerQuestion returns the identifier whose callers or users a query
// asks for: the object of "who calls", "callers of", "where is … called",
// "… 在哪里被调用", "哪些地方调用了 …" and the like, when it looks like code
// (in idents) or, in the English phrasings, is a keyword of the query
// (words: "who calls urlopen" names a function whose name is a plain
// word); or, when the query asks
// that in Chinese without naming it there ("… 这个方法，被哪些地方调用"), the
// query's only identifier. "" when the query asks for no callers.
func callerQuestion(raw string, idents, words []string) string {
	for _, m := range reCallerOf().FindAllStringSubmatchIndex(raw, -1) {
		for i := 2; i+1 < len(m); i += 2 {
			if m[i] < 0 {
				continue
			}
			g := raw[m[i]:m[i+1]]
			// "在 X 里是在哪里被调用": in X, not X, is called.
			after := strings.TrimSpace(raw[m[i+1]:])
			// A plain word only as the object of the English phrasings (the
			// first three groups), where it directly follows the verb.
			plain := i <= 6 && slices.Contains(words, g)
			if !(slices.Contains(idents, g) || plain) || strings.HasPrefix(after, "里") || strings.HasPrefix(after, "中") || strings.HasPrefix(after, "内") {
				continue
			}
			return g
		}
	}
	if len(idents) == 1 && reCallerPhrase().MatchString(raw) {
		return idents[0]
	}
	return ""
}

// pathWords are the lower-case words of a path's directories and file
// stem, each whole and split at "_", "-" and ".": "internal/store/read_go.go"
// gives internal, store, read_go, read, go.
func pathWords(p string) map[string]bool {
	out := map[string]bool{}
	dir, base := path.Split(strings.ToLower(p))
	parts := strings.Split(strings.Trim(dir, "/"), "/")
	parts = append(parts, strings.TrimSuffix(base, path.Ext(base)))
	for _, part := range parts {
		if part == "" {
			continue
		}
		out[part] = true
		for _, w := range strings.FieldsFunc(part, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			out[w] = true
		}
	}
	return out
}

// inArea reports whether a path lies in one of the query's areas: a
// directory of the path is named like the area (or one of its "_", "-",
// "." parts is), or the area has a parent component and names the file's
// stem in a directory of that name ("mm/slub" → mm/slub.c). A file stem
// alone does not count: "serve: …" is about the serve package, not every
// serve.go.
func (r route) inArea(p string) bool {
	if len(r.areas) == 0 {
		return false
	}
	dir, base := path.Split(strings.ToLower(p))
	dir = strings.TrimSuffix(dir, "/")
	words := pathWords(dir + "/")
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, a := range r.areas {
		if dir != "" && words[a.name] {
			return true
		}
		if a.parent != "" && path.Base(dir) == a.parent && stem == a.name {
			return true
		}
	}
	return false
}

// looksLikeHostPort reports whether s (before a ":NNN") is a host name or
// address rather than a file: "localhost", "example.com", "10.0.0.1".
func looksLikeHostPort(s string) bool {
	ext := strings.ToLower(path.Ext(s))
	switch ext {
	case ".com", ".org", ".net", ".io", ".dev", ".local", ".internal":
		return true
	}
	if s == "localhost" {
		return true
	}
	digits := strings.Trim(s, "0123456789.")
	return digits == ""
}

func appendNew(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// demotesClass reports whether a file class is demoted for this route.
func (r route) demotesClass(c FileClass) bool {
	switch c {
	case ClassDoc:
		return !r.aboutDocs
	case ClassBuild:
		return !r.aboutBuild
	case ClassData:
		return !r.aboutData
	case ClassGenerated:
		return !r.aboutGenerated
	}
	return false
}

// pathMatches reports whether an indexed path is the file a query names:
// equal, or ending in "/" + the name (a frame's path may be absolute or
// start at another directory).
func pathMatches(indexed, named string) bool {
	if indexed == named || strings.HasSuffix(indexed, "/"+named) {
		return true
	}
	// An absolute or longer path in a trace: its tail is the indexed path.
	return strings.HasSuffix(named, "/"+indexed)
}

// symbolMatches reports whether a chunk is the definition of an identifier
// of the query: the identifier equals the chunk's symbol or short name, or
// its last dotted component equals the short name.
func symbolMatches(symbol, short, ident string) bool {
	if ident == symbol || ident == short {
		return true
	}
	if i := strings.LastIndexByte(ident, '.'); i >= 0 && i+1 < len(ident) {
		return ident[i+1:] == short && len(short) > 2
	}
	return false
}

// versionDir matches a versioned directory name: v2, v10, v1beta1.
var versionDir = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v\d+([a-z]+\d*)?$`) })

// layoutKey is a path with its versioned directories removed, so that
// "lib/v3/codec.go" and "lib/v4/codec.go" share one key.
func layoutKey(p string) string {
	parts := strings.Split(p, "/")
	out := parts[:0:0]
	for i, d := range parts {
		if i < len(parts)-1 && versionDir().MatchString(d) {
			continue
		}
		out = append(out, d)
	}
	return strings.Join(out, "/")
}

// minDuplicateLines is the fewest code lines a chunk needs for identical
// copies in other files to be collapsed into it.
const minDuplicateLines = 3

// collapseDuplicates merges hits that are copies of a better-ranked hit:
// a file with the same content, or the same relative layout under another
// versioned directory (in a change answer, where entries are files); the
// same chunk name with the same content (at least minDuplicateLines code
// lines) or in the same layout (in a lookup answer, where entries are
// chunks). The copy's file is noted in the kept hit's Also.
func collapseDuplicates(hits []Hit, contents map[int64]string, ranked []scored, snap *snapshot, fileLevel bool) []Hit {
	type key struct{ name, s string }
	seen := map[key]int{}
	out := hits[:0:0]
	for i, h := range hits {
		c := &snap.chunks[ranked[i].idx]
		var keys []key
		if fileLevel {
			keys = append(keys, key{"\x00layout", layoutKey(h.File)})
			if sha := snap.fileSHA[c.FileID]; sha != "" {
				keys = append(keys, key{"\x00sha", sha})
			}
		} else {
			keys = append(keys, key{h.Name, layoutKey(h.File)})
		}
		if content := contents[c.ID]; CodeLines(content) >= minDuplicateLines {
			keys = append(keys, key{h.Name, content})
		}
		dup := -1
		for _, k := range keys {
			if j, ok := seen[k]; ok && out[j].File != h.File {
				dup = j
				break
			}
		}
		if dup >= 0 {
			if !slices.Contains(out[dup].Also, h.File) {
				out[dup].Also = append(out[dup].Also, h.File)
			}
			continue
		}
		for _, k := range keys {
			if _, ok := seen[k]; !ok {
				seen[k] = len(out)
			}
		}
		out = append(out, h)
	}
	return out
}

// isNumber reports whether a token is a number (decimal or 0x hex), which
// looks like an identifier to the query parser but names nothing.
func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 0, 64)
	return err == nil
}
