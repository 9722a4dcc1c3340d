package graph

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestGraphTreeGolden(t *testing.T) {
	f := indexFixture(t, "graphproj")
	cases := []struct {
		file string
		opt  Options
	}{
		{"tree_type.txt", Options{Name: "SampleService"}},
		{"tree_overloads.txt", Options{Name: "SampleService.findUserById"}},
		{"tree_inner.txt", Options{Name: "Cache.refresh"}},
		{"tree_bare_function.txt", Options{Name: "logf", Direction: DirIn}},
		{"tree_go_depth2.txt", Options{Name: "Server.serve", Depth: 2}},
		{"tree_out.txt", Options{Name: "Server.serve", Direction: DirOut}},
		{"tree_file.txt", Options{Name: "go/server/server.go"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			golden(t, c.file, f.graph(t, c.opt).Text())
		})
	}
}

func TestGraphTreeContent(t *testing.T) {
	f := indexFixture(t, "graphproj")
	out := f.graph(t, Options{Name: "SampleService"}).Text()
	for _, want := range []string{
		"SampleService  [type] java/com/acme/service/SampleService.java:6-",
		"SampleService ├── contains   --> SampleService.findUserById(long id)  (java/com/acme/service/SampleService.java:15)",
		"SampleService ├── contains   --> SampleService.findUserById(String name)",
		"SampleService ├── extends    --> BaseService  (java/com/acme/service/BaseService.java:3)",
		"SampleService └── implements --> UserLookup  (java/com/acme/service/UserLookup.java:3)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// Overloads: one root each. The caller calls through a field of type
	// SampleService: resolved by the receiver's type to the first overload
	// in source order (arguments are not matched), once, never by name to
	// all three.
	r := f.graph(t, Options{Name: "SampleService.findUserById"})
	if len(r.Roots) != 3 {
		t.Fatalf("roots = %v, want the three overloads", r.Roots)
	}
	out = r.Text()
	if n := strings.Count(out, "called by    <-- UserController.show  (java/com/acme/service/UserController.java:8)"); n != 1 {
		t.Errorf("typed caller shown %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "calls        --> repo.findAll  (unresolved)") {
		t.Errorf("unresolved callee not shown:\n%s", out)
	}
	// --min-confidence: unresolved callees go away, exact edges stay.
	r = f.graph(t, Options{Name: "SampleService.findUserById", MinConfidence: "exact"})
	out = r.Text()
	if strings.Contains(out, "inferred") || strings.Contains(out, "unresolved") || strings.Contains(out, ", name)") {
		t.Errorf("min confidence exact kept weaker edges:\n%s", out)
	}
	if !strings.Contains(out, "called by    <-- UserController.show") {
		t.Errorf("min confidence exact dropped an exact caller:\n%s", out)
	}
	if !strings.Contains(out, "calls        --> SampleService.validate") {
		t.Errorf("min confidence exact dropped an exact edge:\n%s", out)
	}
	if _, err := Build(context.Background(), f.db, f.pid, Options{Name: "SampleService", MinConfidence: "sure"}); err == nil {
		t.Error("a bad min confidence must be an error")
	}
	// Each overload has its own container edge.
	if n := strings.Count(out, "contained in <-- SampleService "); n != 3 {
		t.Errorf("contained-in edges = %d, want 3:\n%s", n, out)
	}
	// Inner classes: nested symbol by its tail.
	out = f.graph(t, Options{Name: "Entry.touch"}).Text()
	if !strings.Contains(out, "SampleService.Cache.Entry.touch ├── calls        --> SampleService.Cache.refresh  (java/com/acme/service/SampleService.java:") {
		t.Errorf("inner class call not resolved:\n%s", out)
	}
}

func TestGraphDirectionAndDepth(t *testing.T) {
	f := indexFixture(t, "graphproj")
	out := f.graph(t, Options{Name: "Server.serve", Direction: DirOut}).Text()
	if strings.Contains(out, "<--") {
		t.Errorf("direction out shows incoming edges:\n%s", out)
	}
	in := f.graph(t, Options{Name: "Server.serve", Direction: DirIn}).Text()
	if strings.Contains(in, "-->") || !strings.Contains(in, "called by    <-- Server.ListenAndServe") {
		t.Errorf("direction in:\n%s", in)
	}
	d1 := f.graph(t, Options{Name: "Server.serve", Depth: 1})
	d2 := f.graph(t, Options{Name: "Server.serve", Depth: 2})
	if len(d2.Nodes) <= len(d1.Nodes) {
		t.Errorf("depth 2 has %d nodes, depth 1 %d", len(d2.Nodes), len(d1.Nodes))
	}
	// Depth 2 reaches Run through ListenAndServe.
	if d2.Node("c"+itoa(f.chunk(t, "Run").ID)) == nil {
		t.Errorf("depth 2 misses Run:\n%s", d2.Text())
	}
	cut := f.graph(t, Options{Name: "Server.serve", Depth: 3, MaxNodes: 3})
	if len(cut.Nodes) > 3 || !cut.Truncated || !strings.Contains(cut.Text(), "note: graph cut at 3 nodes") {
		t.Errorf("node cap: %d nodes, truncated %v\n%s", len(cut.Nodes), cut.Truncated, cut.Text())
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestGraphDiagrams(t *testing.T) {
	f := indexFixture(t, "graphproj")
	r := f.graph(t, Options{Name: "SampleService.findUserById"})
	m := r.Mermaid()
	golden(t, "mermaid_overloads.txt", m)
	d := r.DOT()
	golden(t, "dot_overloads.txt", d)
	// Labels are quoted and escaped; ids are plain.
	if !strings.Contains(m, `["SampleService.findUserById(List#lt;Long#gt; ids)<br/>`) {
		t.Errorf("mermaid label not escaped:\n%s", m)
	}
	if !strings.Contains(d, `[label="SampleService.findUserById(List<Long> ids)\njava/`) {
		t.Errorf("dot label:\n%s", d)
	}
	for _, line := range strings.Split(m, "\n")[1:] {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "class") {
			continue
		}
		id := line
		if i := strings.IndexAny(line, "[ "); i >= 0 {
			id = line[:i]
		}
		for _, c := range id {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				t.Errorf("unsanitised node id %q in %q", id, line)
				break
			}
		}
	}
	// Same sub-graph in both: every edge of the result appears in each.
	if got, want := strings.Count(m, "|calls")+strings.Count(m, "|contains"), len(r.Edges); got != want {
		t.Errorf("mermaid has %d edges, result %d", got, want)
	}
	if got, want := strings.Count(d, " -> "), len(r.Edges); got != want {
		t.Errorf("dot has %d edges, result %d", got, want)
	}
}

func TestGraphJSON(t *testing.T) {
	f := indexFixture(t, "graphproj")
	out, err := f.graph(t, Options{Name: "Server.serve"}).Format(FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Roots []string `json:"roots"`
		Nodes []struct {
			Key, Name, Path string
			Resolved        bool
		} `json:"nodes"`
		Edges []struct {
			From, To, Kind string
			Resolved       bool
		} `json:"edges"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(v.Roots) != 1 || len(v.Nodes) < 4 || len(v.Edges) < 4 {
		t.Fatalf("json graph too small:\n%s", out)
	}
	names := map[string]string{}
	for _, n := range v.Nodes {
		names[n.Key] = n.Name
	}
	var edges []string
	for _, e := range v.Edges {
		edges = append(edges, names[e.From]+" "+e.Kind+" "+names[e.To])
	}
	joined := strings.Join(edges, "\n")
	for _, want := range []string{"Server.serve calls Server.handle", "Server.serve calls logf", "Server.ListenAndServe calls Server.serve", "Server contains Server.serve"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing edge %q in\n%s", want, joined)
		}
	}
	if _, err := f.graph(t, Options{Name: "Server"}).Format("svg"); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestGraphUnknownNameSuggests(t *testing.T) {
	f := indexFixture(t, "graphproj")
	cases := map[string]string{
		"SampleServce":              "SampleService",
		"findUserByID":              "SampleService.findUserById",
		"Server.serv":               "Server.serve",
		"listenandserve":            "Server.ListenAndServe",
		"SampleService.findUserByI": "SampleService.findUserById",
	}
	for name, want := range cases {
		_, err := Build(context.Background(), f.db, f.pid, Options{Name: name})
		var nf *NotFoundError
		if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err = %v, want NotFoundError", name, err)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error is not one line: %q", name, err)
		}
		found := false
		for _, s := range nf.Suggestions {
			found = found || s == want
		}
		if !found {
			t.Errorf("%s: suggestions %v lack %s", name, nf.Suggestions, want)
		}
	}
	_, err := Build(context.Background(), f.db, f.pid, Options{Name: "zzzqqq"})
	if err == nil || !strings.Contains(err.Error(), "no similar names") {
		t.Errorf("err = %v", err)
	}
}

func TestGraphDeterministic(t *testing.T) {
	f := indexFixture(t, "graphproj")
	for _, name := range []string{"SampleService", "findUserById", "Server.serve"} {
		a := f.graph(t, Options{Name: name, Depth: 2})
		b := f.graph(t, Options{Name: name, Depth: 2})
		if a.Text() != b.Text() || a.Mermaid() != b.Mermaid() || a.DOT() != b.DOT() {
			t.Errorf("%s: output differs between runs", name)
		}
	}
}

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"日本語", "日本", 1}} {
		if got := Levenshtein(c.a, c.b); got != c.d {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
