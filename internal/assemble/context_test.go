package assemble

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"codectx/internal/history"
	"codectx/internal/store"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		q       string
		kind    string
		depth   int
		callers bool
	}{
		{"how is the retry policy implemented", IntentImplementation, 2, false},
		{"How does the scheduler pick the next job?", IntentImplementation, 2, false},
		{"what is the algorithm behind the cache eviction", IntentImplementation, 2, false},
		{"Agent 的 ReAct 循环是怎么实现的", IntentImplementation, 2, false},
		{"如何压缩上下文", IntentImplementation, 2, false},
		{"why does the request body disappear after a 303 redirect", IntentImplementation, 2, false},
		{"who calls compressIfNeeded", IntentUsage, 1, true},
		{"where is UserRepository used", IntentUsage, 1, true},
		{"callers of Transport.RoundTrip", IntentUsage, 1, true},
		{"where does the encoder call MarshalJSON", IntentUsage, 1, true},
		{"shouldRetryRequest 在哪里用到", IntentUsage, 1, true},
		{"谁调用了 compress 函数", IntentUsage, 1, true},
		{"object_pairs_hook 在解码 JSON 对象时是在哪里被真正调用的", IntentUsage, 1, true},
		{"where is the default timeout defined", IntentLocation, 0, false},
		{"database config", IntentLocation, 0, false},
		{"where does the 'superfluous WriteHeader' warning come from", IntentLocation, 0, false},
		{"服务器请求头大小上限定义在哪", IntentLocation, 0, false},
		{"日志的配置入口", IntentLocation, 0, false},
		{"token budget packing", IntentImplementation, 2, false},
		{"", IntentImplementation, 2, false},
		{`where does the "invalid call" error come from`, IntentLocation, 0, false},
		{"where is the lookup table used to pick a codec defined", IntentLocation, 0, false},
		{"服务器在哪里 recover 并把调用栈打到日志里", IntentImplementation, 2, false},
		{"what breaks if I change compressBlock", IntentImpact, 2, true},
		{"impact of changing the signature of Parse", IntentImpact, 2, true},
		{"修改 compressBlock 会影响哪些地方", IntentImpact, 2, true},
	}
	for _, c := range cases {
		got := Classify(c.q)
		if got.Kind != c.kind || got.Depth != c.depth || got.FavourCallers != c.callers {
			t.Errorf("Classify(%q) = %+v, want %s depth %d callers %v", c.q, got, c.kind, c.depth, c.callers)
		}
	}
}

// A change request keeps the change plan when a cue word is part of what
// it states; a change request phrased as a question keeps the question's
// intent.
func TestChangeIntent(t *testing.T) {
	cases := []struct {
		q     string
		kind  string
		depth int
	}{
		{"parser: calls of a method on a constant receiver resolve to its type", IntentChange, 2},
		{"add a configuration option for the retry limit", IntentChange, 2},
		{"fix the callers of Open that ignore the error", IntentChange, 2},
		{"cache: the default value of maxEntries should be 1000", IntentChange, 2},
		{"the upload should not retry when the server answers 4xx", IntentChange, 2},
		{"把超时的配置改成 30 秒", IntentChange, 2},
		{"where is the default timeout defined? it should be 30s", IntentLocation, 0},
		{"who calls Open without checking the error, it should be fixed", IntentUsage, 1},
		{"the retry limit is wrong, where is it configured", IntentLocation, 0},
		{"超时的配置在哪里，应该改成 30 秒", IntentLocation, 0},
		{"how does the scheduler pick the next job, it picks the wrong one", IntentImplementation, 2},
	}
	for _, c := range cases {
		got := ChangeIntent(c.q)
		if got.Kind != c.kind || got.Depth != c.depth {
			t.Errorf("ChangeIntent(%q) = %+v, want %s depth %d", c.q, got, c.kind, c.depth)
		}
	}
}

func TestParseDepth(t *testing.T) {
	for in, want := range map[string]int{"": -1, "auto": -1, "0": 0, "1": 1, "2": 2} {
		if got, err := ParseDepth(in); err != nil || got != want {
			t.Errorf("ParseDepth(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"3", "-1", "deep"} {
		if _, err := ParseDepth(bad); err == nil {
			t.Errorf("ParseDepth(%q) accepted", bad)
		}
	}
}

// assemble runs Assemble on the fixture with the given seeds (symbols).
func (f *fixture) assemble(t *testing.T, q, depth string, budget int, seeds ...string) *ContextResult {
	t.Helper()
	var ss []Seed
	for i, s := range seeds {
		ss = append(ss, Seed{ChunkID: f.chunk(t, s).ID, Score: 1 - 0.1*float64(i)})
	}
	res, err := Assemble(context.Background(), f.db, f.pid, ContextOptions{Query: q, Depth: depth, Budget: budget, Seeds: ss})
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	return res
}

// reasonsBySymbol maps each chunk of r to the reason it is there.
func reasonsBySymbol(r *ContextResult) map[string]string {
	out := map[string]string{}
	for _, c := range r.Chunks() {
		out[c.Symbol] = c.Reason
	}
	return out
}

func symbols(r *ContextResult) []string {
	var out []string
	for _, c := range r.Chunks() {
		out = append(out, c.Symbol)
	}
	sort.Strings(out)
	return out
}

func TestExpansionDepths(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	const q = "compress buffer blocks"
	want := map[string][]string{
		"0": {"Compressor.CompressBuffer"},
		"1": {"Compressor", "Compressor.CompressBuffer", "WriteCompressedBuffer", "compressBlocks", "compressBufferBlocksStats", "splitBlocks", "validateInput"},
		"2": {"ArchiveBuffer", "Compressor", "Compressor.CompressBuffer", "WriteCompressedBuffer", "compressBlock", "compressBlocks", "compressBufferBlocksStats", "splitBlocks", "validateInput"},
	}
	for _, d := range []string{"0", "1", "2"} {
		r := f.assemble(t, q, d, 100000, "Compressor.CompressBuffer")
		if got := symbols(r); strings.Join(got, " ") != strings.Join(want[d], " ") {
			t.Errorf("depth %s: got %v\nwant %v", d, got, want[d])
		}
		if r.Depth != int(d[0]-'0') {
			t.Errorf("depth %s reported as %d", d, r.Depth)
		}
	}
	// Reasons say why each chunk is there.
	r := f.assemble(t, q, "2", 100000, "Compressor.CompressBuffer")
	reasons := reasonsBySymbol(r)
	for sym, want := range map[string]string{
		"Compressor.CompressBuffer": "seed, score 1.00",
		"compressBlocks":            "called by Compressor.CompressBuffer (line 12)",
		"WriteCompressedBuffer":     "calls Compressor.CompressBuffer (line 8)",
		"Compressor":                "container of Compressor.CompressBuffer",
		"compressBlock":             "called by compressBlocks (line 32)",
		"ArchiveBuffer":             "calls WriteCompressedBuffer (line 14)",
	} {
		if reasons[sym] != want {
			t.Errorf("reason of %s = %q, want %q", sym, reasons[sym], want)
		}
	}
	// validateInput shares nothing with the question: as a seed's direct
	// callee it enters (an implementation is made of its helpers), but
	// ranked below every relevant callee.
	score := map[string]float64{}
	for _, c := range r.Chunks() {
		score[c.Symbol] = c.Score
	}
	for _, relevant := range []string{"compressBlocks", "splitBlocks"} {
		if score["validateInput"] >= score[relevant] {
			t.Errorf("irrelevant callee validateInput (%.3f) ranks with %s (%.3f)", score["validateInput"], relevant, score[relevant])
		}
	}
	// Grouped per file, in source order: the type header before its method.
	md := r.Text()
	if i, j := strings.Index(md, "### Compressor —"), strings.Index(md, "### Compressor.CompressBuffer("); i < 0 || j < i {
		t.Errorf("type header should precede its method:\n%s", md)
	}
	if strings.Count(md, "\n## compress/compress.go\n") != 1 || strings.Count(md, "\n## compress/writer.go\n") != 1 {
		t.Errorf("files not grouped:\n%s", md)
	}
	// Auto: an implementation question goes two hops.
	if r := f.assemble(t, "how does compress buffer blocks work", "auto", 100000, "Compressor.CompressBuffer"); r.Depth != 2 || r.Intent.Kind != IntentImplementation {
		t.Errorf("auto: intent %+v depth %d", r.Intent, r.Depth)
	}
}

func TestHubDoesNotFlood(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	countJobs := func(r *ContextResult) int {
		n := 0
		for _, c := range r.Chunks() {
			if strings.HasPrefix(c.Symbol, "compressJob") {
				n++
			}
		}
		return n
	}
	// The hub is a callee of the seed: its 31 callers must not follow it in.
	r := f.assemble(t, "compress buffer blocks stats", "2", 100000, "Compressor.CompressBuffer")
	if n := countJobs(r); n != 0 {
		t.Errorf("%d callers of the hub entered through it:\n%v", n, symbols(r))
	}
	// Asked about the hub itself: callers are capped.
	r = f.assemble(t, "who calls compressBufferBlocksStats", "auto", 100000, "compressBufferBlocksStats")
	if r.Intent.Kind != IntentUsage {
		t.Fatalf("intent %+v", r.Intent)
	}
	if n := countJobs(r); n == 0 || n > DefaultParams.MaxPerNode {
		t.Errorf("callers of a seed hub: %d, want 1..%d", n, DefaultParams.MaxPerNode)
	}
	if len(r.Chunks()) > 1+DefaultParams.MaxPerNode {
		t.Errorf("%d chunks for a hub seed", len(r.Chunks()))
	}
}

func TestHubPenalty(t *testing.T) {
	if hubPenalty(3, 8) != 1 || hubPenalty(8, 8) != 1 {
		t.Error("no penalty expected at or below the limit")
	}
	if p := hubPenalty(32, 8); p < 0.49 || p > 0.51 {
		t.Errorf("hubPenalty(32, 8) = %v, want 0.5", p)
	}
}

var markerRE = regexp.MustCompile(`^…(\d+) lines elided — read_file (\S+) lines (\d+)-(\d+)$`)

// checkLines fails when a line inside a code fence of md is not a whole
// line of some fixture file (a line cut in the middle).
func checkLines(t *testing.T, root, md string) {
	t.Helper()
	whole := map[string]bool{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			for _, l := range strings.Split(string(b), "\n") {
				whole[l] = true
			}
		}
		return nil
	})
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if in && !whole[l] {
			t.Errorf("line %q is not a whole source line", l)
		}
		if strings.HasPrefix(l, "…") && !markerRE.MatchString(l) {
			t.Errorf("bad marker %q", l)
		}
	}
}

func TestBudget(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	// A chunk far bigger than small budgets.
	var b strings.Builder
	b.WriteString("package compress\n\n// compressHuge compresses a buffer in one long function.\nfunc compressHuge(buf []byte) []byte {\n\tvar out []byte\n")
	for i := range 300 {
		fmt.Fprintf(&b, "\tout = append(out, buf[%d%%len(buf)]^byte(%d)) // step %d of the buffer compression\n", i, i, i)
	}
	b.WriteString("\treturn out\n}\n")
	if err := os.WriteFile(filepath.Join(f.root, "compress", "huge.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f.reindex(t)
	seeds := []string{"compressHuge", "Compressor.CompressBuffer", "compressBlocks", "splitBlocks"}
	shortened := false
	prev := -1
	for _, budget := range []int{1, 20, 60, 100, 150, 200, 300, 500, 800, 1200, 2000, 4000, 8000} {
		for _, depth := range []string{"0", "2"} {
			r := f.assemble(t, "compress buffer blocks", depth, budget, seeds...)
			n, err := CountTokens(r.Text())
			if err != nil {
				t.Fatal(err)
			}
			if r.Tokens != n || (n > budget && !r.TooSmall) {
				t.Errorf("budget %d depth %s: %d tokens (reported %d)", budget, depth, n, r.Tokens)
			}
			// Never empty: a budget too small for any chunk names the best
			// seed's signature and says the budget is too small.
			if r.TooSmall != (len(r.Chunks()) == 0) {
				t.Errorf("budget %d: too_small %v with %d chunks", budget, r.TooSmall, len(r.Chunks()))
			}
			if r.TooSmall && (!strings.Contains(r.Text(), "too small") || !strings.Contains(r.Text(), "func compressHuge(buf []byte) []byte {")) {
				t.Errorf("budget %d: too-small answer %q", budget, r.Text())
			}
			checkLines(t, f.root, r.Text())
			for _, c := range r.Chunks() {
				if c.Shortened {
					shortened = true
					m := markerRE.FindStringSubmatch(c.Omitted)
					if m == nil || m[2] != c.File || m[3] != fmt.Sprint(c.StartLine) || m[4] != fmt.Sprint(c.EndLine) {
						t.Errorf("marker %q for %s", c.Omitted, c.File)
					}
					if !strings.Contains(c.Content, "func ") && !strings.Contains(c.Content, "type ") {
						t.Errorf("shortened %s lost its signature:\n%s", c.Symbol, c.Content)
					}
				}
			}
			if depth == "0" {
				if len(r.Chunks()) < prev {
					t.Errorf("budget %d holds fewer chunks (%d) than a smaller one (%d)", budget, len(r.Chunks()), prev)
				}
				prev = len(r.Chunks())
			}
		}
	}
	if !shortened {
		t.Error("no budget shortened the huge chunk")
	}
	// A roomy budget keeps everything whole.
	r := f.assemble(t, "compress buffer blocks", "0", 100000, seeds...)
	for _, c := range r.Chunks() {
		if c.Shortened {
			t.Errorf("%s shortened with a roomy budget", c.Symbol)
		}
	}
	// The highest-scored chunk wins when only one fits.
	r = f.assemble(t, "compress buffer blocks", "0", 250, "Compressor.CompressBuffer", "compressHuge")
	if cs := r.Chunks(); len(cs) == 0 || cs[0].Symbol != "Compressor.CompressBuffer" {
		t.Errorf("budget 250 kept %v", symbols(r))
	}
}

func TestContextDeterministic(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	for _, budget := range []int{300, 8000} {
		a := f.assemble(t, "compress buffer blocks", "2", budget, "Compressor.CompressBuffer", "compressBlocks")
		for range 3 {
			b := f.assemble(t, "compress buffer blocks", "2", budget, "Compressor.CompressBuffer", "compressBlocks")
			if a.Text() != b.Text() {
				t.Fatalf("budget %d: output differs between runs:\n%s\n---\n%s", budget, a.Text(), b.Text())
			}
		}
	}
}

func TestCountTokens(t *testing.T) {
	n, err := CountTokens("hello world")
	if err != nil || n != 2 {
		t.Errorf("CountTokens = %d, %v; want 2", n, err)
	}
	if n, _ := CountTokens("<|endoftext|>"); n < 2 {
		t.Errorf("special token text counted as %d tokens", n)
	}
}

// TestElisionManifest: past the whole-chunk share of the budget, lower-ranked
// chunks are elided to signature and doc line with a pointer, and the answer
// ends with a manifest of the elided and dropped places.
func TestElisionManifest(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	whole := f.assemble(t, "compress buffer blocks", "2", 100000, "Compressor.CompressBuffer", "compressBlocks")
	r := f.assemble(t, "compress buffer blocks", "2", 300, "Compressor.CompressBuffer", "compressBlocks")
	if len(r.Chunks()) <= 1 {
		t.Fatalf("budget 300 holds %d chunks:\n%s", len(r.Chunks()), r.Text())
	}
	elided := map[string]bool{}
	for _, c := range r.Chunks() {
		if c.Shortened {
			elided[c.Symbol] = true
			if !markerRE.MatchString(c.Omitted) || !strings.Contains(c.Content, "// ") || !strings.Contains(c.Content, "func ") {
				t.Errorf("elided %s: content %q marker %q", c.Symbol, c.Content, c.Omitted)
			}
		}
	}
	if len(elided) == 0 {
		t.Errorf("nothing elided at budget 300:\n%s", r.Text())
	}
	if !strings.Contains(r.Text(), "\n## Not shown in full") {
		t.Errorf("no manifest:\n%s", r.Text())
	}
	shown := map[string]bool{}
	for _, c := range r.Chunks() {
		shown[c.Symbol] = true
	}
	// Every candidate is either shown whole, elided or dropped.
	for _, c := range whole.Chunks() {
		found := shown[c.Symbol] && !elided[c.Symbol]
		for _, p := range r.Places {
			if p.Name == c.Symbol && p.File == c.File && p.StartLine == c.StartLine {
				if found || (p.State == PlaceElided) != elided[c.Symbol] {
					t.Errorf("%s: place %+v, shown %v", c.Symbol, p, shown[c.Symbol])
				}
				found = true
			}
		}
		if !found {
			t.Errorf("%s is neither shown, elided nor dropped", c.Symbol)
		}
	}
}

// TestIntentPlans: usage brings the seed's callers with their call-site
// lines; impact follows callers transitively (two hops) and not callees.
func TestIntentPlans(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	r := f.assemble(t, "who calls compressBlock", "auto", 100000, "compressBlock")
	reasons := reasonsBySymbol(r)
	if got := reasons["compressBlocks"]; got != "calls compressBlock (line 32)" {
		t.Errorf("usage: caller reason %q\n%v", got, symbols(r))
	}
	r = f.assemble(t, "what breaks if I change compressBlock", "auto", 100000, "compressBlock")
	if r.Intent.Kind != IntentImpact {
		t.Fatalf("intent %+v", r.Intent)
	}
	got := map[string]bool{}
	for _, c := range r.Chunks() {
		got[c.Symbol] = true
	}
	for _, want := range []string{"compressBlocks", "Compressor.CompressBuffer"} {
		if !got[want] {
			t.Errorf("impact: %s (a transitive caller) missing: %v", want, symbols(r))
		}
	}
}

// TestUsageNamedSeed: a usage question names its symbol; when the search
// did not rank it, it is still looked up (exact symbol) and its callers
// follow.
func TestUsageNamedSeed(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	r := f.assemble(t, "who calls compressBlock", "auto", 100000, "splitBlocks")
	got := reasonsBySymbol(r)
	if _, ok := got["compressBlock"]; !ok {
		t.Fatalf("named symbol not seeded: %v", symbols(r))
	}
	if got["compressBlocks"] != "calls compressBlock (line 32)" {
		t.Errorf("caller of the named symbol: %q (%v)", got["compressBlocks"], symbols(r))
	}
}

func TestQuotedLiterals(t *testing.T) {
	cases := []struct {
		q    string
		want []string
	}{
		{"where is the '>From ' escaping applied", []string{">From "}},
		{`error "connection reset by peer" on retry`, []string{"connection reset by peer"}},
		{"what prints `unexpected EOF` here", []string{"unexpected EOF"}},
		{"报错 “文件不存在” 从哪里来", []string{"文件不存在"}},
		// Apostrophes are not quotes.
		{"where does a type's own method and the server's reply meet", nil},
		{"how the server decides a handler's response", nil},
		// Too short to look up.
		{"decoding of '=' padding", nil},
		{"'abcd' and 'abcd' again", []string{"abcd"}},
	}
	for _, c := range cases {
		got := QuotedLiterals(c.q)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("QuotedLiterals(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

// TestOverriddenMethod: a seed method that overrides one of its base
// class brings the base method in (one hop, the "interface" side), and
// only that one (not a same-named method of an unrelated class).
func TestOverriddenMethod(t *testing.T) {
	f := indexFixture(t, "ctxpy")
	r := f.assemble(t, "how does the lifo store keep the newest item first", "1", 100000, "LifoStore._put")
	got := reasonsBySymbol(r)
	if got["Store._put"] != "overridden by LifoStore._put" {
		t.Errorf("base method: reason %q, want overridden by LifoStore._put (%v)", got["Store._put"], symbols(r))
	}
	if _, ok := got["Unrelated._put"]; ok {
		t.Errorf("unrelated class's method admitted: %v", symbols(r))
	}
}

// A hop after the first expands only from the MaxFrontier best-scored
// chunks the previous hop admitted, kept in their order.
func TestMaxFrontier(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	seed := f.chunk(t, "Compressor.CompressBuffer")
	run := func(maxFrontier int) *ContextResult {
		p := DefaultParams
		p.MaxFrontier = maxFrontier
		r, err := Assemble(context.Background(), f.db, f.pid, ContextOptions{Query: "compress buffer blocks", Depth: "2", Budget: 100000,
			Seeds: []Seed{{ChunkID: seed.ID, Score: 1}}, Params: &p})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	hop := func(r *ContextResult, h int) []ContextChunk {
		var out []ContextChunk
		for _, c := range r.Chunks() {
			if c.Hops == h {
				out = append(out, c)
			}
		}
		return out
	}
	all := run(0)
	var best ContextChunk
	for _, c := range hop(all, 1) {
		if c.Score > best.Score || c.Score == best.Score && c.ID < best.ID {
			best = c
		}
	}
	if len(hop(all, 1)) < 2 || len(hop(all, 2)) < 2 {
		t.Fatalf("fixture: want several chunks on each hop, got %v", symbols(all))
	}
	one := run(1)
	second := hop(one, 2)
	if len(second) == 0 || len(second) >= len(hop(all, 2)) {
		t.Errorf("MaxFrontier 1: second hop %d chunks, uncapped %d", len(second), len(hop(all, 2)))
	}
	for _, c := range second {
		if !strings.Contains(c.Reason, best.Symbol) {
			t.Errorf("MaxFrontier 1: %s reached by %q, want from %s (best of the first hop)", c.Symbol, c.Reason, best.Symbol)
		}
	}
	if d := run(DefaultParams.MaxFrontier); strings.Join(symbols(d), " ") != strings.Join(symbols(all), " ") {
		t.Errorf("default cap changed a six-chunk frontier: %v, uncapped %v", symbols(d), symbols(all))
	}
}

func TestWidest(t *testing.T) {
	mk := func(id int64, score float64) *cand { return &cand{c: store.GraphChunk{ID: id}, score: score} }
	cases := []struct {
		name   string
		scores []float64
		n      int
		want   []int64
	}{
		{"no cap", []float64{0.1, 0.9, 0.5}, 0, []int64{1, 2, 3}},
		{"under the cap", []float64{0.1, 0.9, 0.5}, 3, []int64{1, 2, 3}},
		{"best two, in frontier order", []float64{0.1, 0.9, 0.5}, 2, []int64{2, 3}},
		{"ties by id", []float64{0.5, 0.5, 0.5}, 2, []int64{1, 2}},
	}
	for _, c := range cases {
		var fr []*cand
		for i, s := range c.scores {
			fr = append(fr, mk(int64(i+1), s))
		}
		var got []int64
		for _, x := range widest(fr, c.n) {
			got = append(got, x.c.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// TestUsageFollowsReferences: asked who uses a function, the functions that
// pass it on as a value (a Go references edge) come in as its callers do,
// for the usage plan; an implementation question does not follow them.
func TestUsageFollowsReferences(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	src := `package compress

// registerStages lists the stages a pipeline runs, by function value.
func registerStages() []func([]byte) [][]byte {
	return []func([]byte) [][]byte{splitBlocks}
}
`
	if err := os.WriteFile(filepath.Join(f.root, "compress", "stages.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f.reindex(t)
	r := f.assemble(t, "who uses splitBlocks", "auto", 100000, "splitBlocks")
	if r.Intent.Kind != IntentUsage {
		t.Fatalf("intent %+v", r.Intent)
	}
	if reason, ok := reasonsBySymbol(r)["registerStages"]; !ok {
		t.Errorf("the function using splitBlocks as a value is missing: %v", symbols(r))
	} else if !strings.Contains(reason, "uses splitBlocks as a value (line 5)") {
		t.Errorf("reason %q", reason)
	}
	r = f.assemble(t, "how does splitBlocks cut a buffer", "1", 100000, "splitBlocks")
	if slices.Contains(symbols(r), "registerStages") {
		t.Errorf("implementation plan followed an incoming references edge: %v", symbols(r))
	}
	// the other way: how a function works takes in what it passes on as
	// a value, as its callees, even when the question does not name it
	r = f.assemble(t, "which stages does the pipeline register", "1", 100000, "registerStages")
	if reason, ok := reasonsBySymbol(r)["splitBlocks"]; !ok {
		t.Errorf("the function registerStages uses as a value is missing: %v", symbols(r))
	} else if !strings.Contains(reason, "used as a value by registerStages (line 5)") {
		t.Errorf("reason %q", reason)
	}
}

// A change request's context takes the files that usually changed with its
// best seed files from the history (ContextOptions.CoChanged): the most
// relevant chunk of each, with the history as its reason; test files,
// files the index lacks and files already present are not added, other
// intents never read the history, and a history that cannot be read
// leaves a warning.
func TestChangeRequestCoChangedFiles(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	seed := f.chunk(t, "compressJob01")
	var asked [][]string
	couplings := []history.Coupling{
		{Path: "compress/jobs_test.go", With: "compress/jobs.go", Together: 5, Commits: 5},
		{Path: "compress/gone.go", With: "compress/jobs.go", Together: 5, Commits: 5},
		{Path: "compress/compress.go", With: "compress/jobs.go", Together: 4, Commits: 5},
		{Path: "compress/writer.go", With: "compress/jobs.go", Together: 4, Commits: 5},
	}
	run := func(q string, change bool, fail error) *ContextResult {
		t.Helper()
		res, err := Assemble(context.Background(), f.db, f.pid, ContextOptions{Query: q, Depth: "1", Budget: 100000,
			Seeds: []Seed{{ChunkID: seed.ID, Score: 1}}, ChangeRequest: change,
			CoChanged: func(_ context.Context, paths []string) ([]history.Coupling, error) {
				asked = append(asked, paths)
				return couplings, fail
			}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	const q = "archive writer should report the job stats of compressed buffers"
	res := run(q, true, nil)
	if want := [][]string{{"compress/jobs.go"}}; !reflect.DeepEqual(asked, want) {
		t.Errorf("history asked for %v, want %v", asked, want)
	}
	var fromHistory []string
	for _, c := range res.Chunks() {
		if strings.HasPrefix(c.Reason, "changed with") {
			fromHistory = append(fromHistory, c.File+": "+c.Reason)
		}
	}
	want := []string{"compress/writer.go: changed with compress/jobs.go in 4 of its last 5 commits"}
	if !reflect.DeepEqual(fromHistory, want) {
		t.Errorf("chunks from the history: %q, want %q (compress.go is reached by a call, tests and unindexed files are not added)", fromHistory, want)
	}
	asked = nil
	if res := run("who calls compressJob01", false, nil); len(asked) != 0 {
		t.Errorf("a usage question read the history (%v); intent %s", asked, res.Intent.Kind)
	}
	// A change request whose statement holds a cue word ("calls of") is
	// still a change request: it reads the history.
	asked = nil
	if res := run("jobs: calls of compressJob01 report the job stats of compressed buffers", true, nil); len(asked) == 0 {
		t.Errorf("a change request stating \"calls of\" did not read the history; intent %+v", res.Intent)
	}
	res = run(q, true, errors.New("git log: bad revision"))
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[len(res.Warnings)-1], "history not read: git log: bad revision") {
		t.Errorf("warnings %q, want the history's error", res.Warnings)
	}
}
