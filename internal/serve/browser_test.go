package serve_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"codectx/internal/serve"
)

// chromiumPath finds Debian's chromium (scripts/test.sh installs it).
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts headless Chromium with a fresh profile, or skips the
// test when Chromium is not installed or cannot start.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromiumPath()
	if bin == "" {
		t.Skip("chromium is not installed (apt-get install chromium; scripts/test.sh does it): skipping the browser test")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // tests run as root in CI
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1366, 900), // a laptop screen
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Skipf("chromium (%s) cannot start: %v: skipping the browser test", bin, err)
	}
	return ctx
}

// screenshot saves the page as NAME.png under dir (and under
// $CODECTX_SCREENSHOT_DIR when set, to look at it after the run).
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if extra := os.Getenv("CODECTX_SCREENSHOT_DIR"); extra != "" {
		os.WriteFile(filepath.Join(extra, name+".png"), png, 0o644)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

// TestBrowser starts the server on the fixture project and drives the page
// in headless Chromium: search with the keyboard, open a result at its
// lines, open and follow the graph, the context and the status views.
func TestBrowser(t *testing.T) {
	ctx := newBrowser(t)
	f := newFixture(t, serve.Options{})
	shots := t.TempDir()
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("evaluate %s: %v", js, err)
		}
		return v
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	attr := func(sel, name string) string {
		t.Helper()
		m, err := chromedp.Run(ctx, chromedp.Attributes(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("attributes of %s: %v", sel, err)
		}
		return m[name]
	}
	count := func(sel string) int {
		t.Helper()
		n, err := strconv.Atoi(eval(`String(document.querySelectorAll(` + strconv.Quote(sel) + `).length)`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	hash := func() string { return eval(`decodeURIComponent(location.hash)`) }
	visible := func(sel string) chromedp.Action[chromedp.Void] { return chromedp.WaitVisible(chromedp.CSS(sel)) }
	click := func(sel string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(sel)) }

	// First render.
	run("open the page", chromedp.Navigate(f.ts.URL+"/"), visible(`body[data-ready="1"]`))
	t.Logf("first render: %s ms after navigation start", attr("body", "data-first-render"))

	// "/" focuses the search box; typing and Enter searches.
	// A real browser types nothing when the page cancels the key; CDP sends
	// the character as a separate event, so it goes without text here.
	noText := func(p *input.DispatchKeyEventParams) { p.Text, p.UnmodifiedText = "", "" }
	run("press /", chromedp.KeyEvent("/", noText))
	if active := eval(`document.activeElement.id`); active != "q" {
		t.Fatalf("/ focused %q, want the search box", active)
	}
	if v := eval(`document.getElementById("q").value`); v != "" {
		t.Fatalf("the search box holds %q after /", v)
	}
	run("search", chromedp.SendKeys(chromedp.CSS("#q"), "exponential backoff retry"+kb.Enter),
		visible(`#results li.hit`))
	if first := text(`#hit-0 .name`); !strings.HasPrefix(first, "RetryPayment") {
		t.Fatalf("first result %q, want RetryPayment", first)
	}
	if n := count(`#results mark`); n == 0 {
		t.Fatal("no highlighted words in the results")
	}
	if !strings.Contains(text("#summary"), "RetryPayment") {
		t.Fatalf("summary: %q", text("#summary"))
	}
	// Each result says why it ranks where it does (the API's explain).
	if n, hits := count(`#results li.hit details.why`), count(`#results li.hit`); n != hits {
		t.Fatalf("%d of %d results explain their rank", n, hits)
	}
	run("open why this rank", click(`#hit-0 details.why summary`), visible(`#hit-0 details.why table`))
	if why := text(`#hit-0 details.why table`); !strings.Contains(why, "keyword match (BM25)") || !strings.Contains(why, "+0.") {
		t.Fatalf("why this rank: %q", why)
	}
	screenshot(t, ctx, shots, "search")

	// A Chinese query finds the same function.
	run("search in Chinese", chromedp.Navigate(f.ts.URL+"/#/search?q="+"失败重试"), visible(`#results li.hit`))
	if !strings.Contains(text(`#results`), "RetryPayment") {
		t.Fatalf("Chinese search: %q", text("#results"))
	}

	// Arrow keys move the selection; Enter opens the file at the result's lines.
	run("back to the English search", chromedp.Navigate(f.ts.URL+"/#/search?q=exponential+backoff+retry"), visible(`#results li.hit.selected`))
	eval(`document.activeElement.blur(); ""`)
	run("arrows", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowUp))
	if sel := text(`#results li.selected .name`); !strings.HasPrefix(sel, "RetryPayment") {
		t.Fatalf("selected after down, up: %q", sel)
	}
	run("open with Enter", chromedp.KeyEvent(kb.Enter), visible(`#code tr#L31.hl`))
	if h := hash(); !strings.Contains(h, "path=payment/payment.go") || !strings.Contains(h, "line=31") {
		t.Fatalf("file address %q", h)
	}
	if src := text(`#code tr#L33 td.src`); !strings.Contains(src, "func RetryPayment") {
		t.Fatalf("line 33: %q", src)
	}
	if n := count(`#code tr.hl`); n != 11 {
		t.Fatalf("%d highlighted lines, want 11 (31-41)", n)
	}
	if ln := text(`#code tr#L1 td.ln`); ln != "1" {
		t.Fatalf("line number of line 1: %q", ln)
	}
	screenshot(t, ctx, shots, "file")

	// The graph of the result: callers, callees, drawn as SVG.
	run("open the graph from the result", chromedp.Navigate(f.ts.URL+"/#/search?q=exponential+backoff+retry"), visible(`#hit-0 .actions`),
		click(`#hit-0 .actions a:nth-child(2)`), visible(`svg#graph g.node`))
	if n := count(`svg#graph g.node`); n < 4 {
		t.Fatalf("%d nodes, want RetryPayment, Charge, backoff and Checkout", n)
	}
	if n := count(`svg#graph path.edge[data-kind="calls"]`); n < 3 {
		t.Fatalf("%d call edges, want 3 or more", n)
	}
	// Resolution kinds are visible on the edges (when the index has them).
	if n := count(`svg#graph path.edge[data-resolution="exact"]`); n < 3 {
		t.Fatalf("%d edges marked exact", n)
	}
	if rootName := attr(`svg#graph g.node.root`, "data-name"); rootName != "RetryPayment" {
		t.Fatalf("root node %q", rootName)
	}
	if side := text("#graph-side"); !strings.Contains(side, "called by (callers)") || !strings.Contains(side, "Checkout") || !strings.Contains(side, "calls (callees)") {
		t.Fatalf("side panel: %q", side)
	}
	// Zoom changes the viewport's transform.
	before := attr(`#viewport`, "transform")
	run("zoom", click(`.graph-tools button[title="Zoom in"]`))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#viewport").getAttribute("transform") !== `+strconv.Quote(before), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("zoom did not change %q: %v", before, err)
	}
	run("fit", click(`.graph-tools button[title="Fit"]`))
	screenshot(t, ctx, shots, "graph")

	// Clicking a node follows it.
	run("click Checkout", click(`svg#graph g.node[data-name="Checkout"] rect`),
		visible(`svg#graph g.node.root[data-name="Checkout"]`))
	if h := hash(); !strings.Contains(h, "name=Checkout") {
		t.Fatalf("after clicking Checkout: %q", h)
	}

	// Implementations and containment.
	run("graph of EmailNotifier", chromedp.Navigate(f.ts.URL+"/#/graph?name=EmailNotifier"), visible(`svg#graph g.node.root`))
	if count(`path.edge[data-kind="implements"]`) != 1 || count(`path.edge[data-kind="contains"]`) != 1 {
		t.Fatalf("EmailNotifier edges: %q", text("#graph-side"))
	}

	// The context an agent gets, with its token count and what was elided.
	run("context", chromedp.Navigate(f.ts.URL+"/#/context?q=how+does+checkout+charge+the+card&budget=300"), visible(`#ctx-tokens`))
	tokens, err := strconv.Atoi(text("#ctx-tokens"))
	if err != nil || tokens <= 0 || tokens > 300 {
		t.Fatalf("context tokens %q (budget 300)", text("#ctx-tokens"))
	}
	if meta := text("#context-meta"); !strings.Contains(meta, "intent ") || strings.Contains(meta, "object") {
		t.Fatalf("context meta: %q", meta)
	}
	if el := text("#ctx-elided"); !strings.Contains(el, "elided") {
		t.Fatalf("elided: %q", el)
	}
	screenshot(t, ctx, shots, "context")

	// Index status.
	run("status", chromedp.Navigate(f.ts.URL+"/#/status"), visible(`#status`))
	if st := text("#status"); !strings.Contains(st, "yes") || text("#st-files") != "4" {
		t.Fatalf("status: %q", st)
	}

	// Nothing was loaded from elsewhere.
	if foreign := eval(`performance.getEntriesByType("resource").map(e => e.name).filter(u => !u.startsWith(location.origin)).join(" ")`); foreign != "" {
		t.Fatalf("the page loaded from elsewhere: %s", foreign)
	}

	// An error is one readable line, not a blank page.
	run("unknown symbol", chromedp.Navigate(f.ts.URL+"/#/graph?name=RetryPaymnt"), visible(`.error`))
	if e := text(".error"); !strings.Contains(e, "RetryPayment") {
		t.Fatalf("unknown symbol: %q", e)
	}
	if count(`.error a`) == 0 {
		t.Fatal("no link to the closest name")
	}
}
