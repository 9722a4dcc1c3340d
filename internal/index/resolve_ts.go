package index

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// TypeScript/JavaScript module paths: the file a module path (relative,
// or through a tsconfig.json path alias) stands for.

// tsModule is the first chunk of the file module path p (project-relative,
// without or with an extension) stands for: p itself, p with a source
// extension (a compiled ".js" standing for ".ts"/".tsx"), or p's index file.
func (r *resolver) tsModule(p string) (int, bool) {
	for _, c := range tsCandidates(p) {
		if i, ok := r.byPath[c]; ok {
			return i, true
		}
	}
	return 0, false
}

// tsCandidates lists the files module path p can stand for, in order.
func tsCandidates(p string) []string {
	stem := p
	switch ext := path.Ext(p); ext {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		stem = strings.TrimSuffix(p, ext)
	}
	cands := []string{p}
	for _, ext := range []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".mjs", ".cjs"} {
		cands = append(cands, stem+ext)
	}
	for _, idx := range []string{"index.ts", "index.tsx", "index.js", "index.jsx"} {
		cands = append(cands, path.Join(p, idx))
	}
	for k, c := range cands {
		cands[k] = path.Clean(c)
	}
	return cands
}

// tsConfig is what resolution reads of a tsconfig.json / jsconfig.json:
// compilerOptions.baseUrl and paths, with the directory they are relative
// to (project-relative).
type tsConfig struct {
	dir, baseURL string
	paths        map[string][]string
	found        bool
}

// tsAliases lists the project paths a non-relative module path can stand
// for under the nearest tsconfig.json (or jsconfig.json) at or above dir:
// each matching `paths` pattern's targets ("*" substituted), then the
// path under baseUrl. Nothing when there is no such file.
func (r *resolver) tsAliases(dir, target string) []string {
	cfg := r.tsConfigAt(dir)
	if cfg == nil || !cfg.found {
		return nil
	}
	base := path.Join(cfg.dir, cfg.baseURL)
	var out []string
	for pat, targets := range cfg.paths {
		prefix, suffix, star := strings.Cut(pat, "*")
		var mid string
		switch {
		case !star && target == pat:
		case star && len(target) >= len(prefix)+len(suffix) && strings.HasPrefix(target, prefix) && strings.HasSuffix(target, suffix):
			mid = target[len(prefix) : len(target)-len(suffix)]
		default:
			continue
		}
		for _, t := range targets {
			out = append(out, path.Join(base, strings.Replace(t, "*", mid, 1)))
		}
	}
	if cfg.baseURL != "" {
		out = append(out, path.Join(base, target))
	}
	// map order is random: the longest (most specific) candidate first,
	// then by name, for the same answer on every run
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return out
}

// tsConfigAt reads (once per directory) the nearest tsconfig.json or
// jsconfig.json at or above project directory dir.
func (r *resolver) tsConfigAt(dir string) *tsConfig {
	if r.root == "" {
		return nil
	}
	if r.tsConfigs == nil {
		r.tsConfigs = map[string]*tsConfig{}
	}
	if c, ok := r.tsConfigs[dir]; ok {
		return c
	}
	c := &tsConfig{}
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		b, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(dir), name))
		if err != nil {
			continue
		}
		var doc struct {
			CompilerOptions struct {
				BaseURL string              `json:"baseUrl"`
				Paths   map[string][]string `json:"paths"`
			} `json:"compilerOptions"`
		}
		if json.Unmarshal(jsonc(b), &doc) != nil {
			continue
		}
		c = &tsConfig{dir: dir, baseURL: doc.CompilerOptions.BaseURL, paths: doc.CompilerOptions.Paths, found: true}
		if c.baseURL == "" && len(c.paths) > 0 {
			c.baseURL = "." // paths without baseUrl are relative to the file
		}
		break
	}
	if !c.found && dir != "." && dir != "/" && dir != "" {
		c = r.tsConfigAt(path.Dir(dir))
	}
	r.tsConfigs[dir] = c
	return c
}

// jsonc strips the comments and trailing commas tsconfig files allow.
func jsonc(b []byte) []byte {
	return jsonPass(jsonPass(b, true), false)
}

// jsonPass copies b, strings untouched, dropping comments (comments) or
// commas before a closing bracket (!comments).
func jsonPass(b []byte, comments bool) []byte {
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case comments && c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case comments && c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case !comments && c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue // a trailing comma
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
