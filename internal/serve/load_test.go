//go:build loadtest

// The load test runs on demand only (it indexes $GOROOT/src/net/http and
// keeps 8 clients busy for 30 s):
//
//	go test -tags loadtest -run 'TestLoad$' -v -timeout 20m ./internal/serve/
//
// CODECTX_LOAD_SECONDS and CODECTX_LOAD_CLIENTS change the duration and the
// number of clients; CODECTX_LOAD_ROOT another project.
package serve_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"codectx/internal/serve"
	"codectx/internal/testfix"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func loadRoot(t *testing.T) string {
	if r := os.Getenv("CODECTX_LOAD_ROOT"); r != "" {
		return r
	}
	goroot := testfix.GoRoot()
	if goroot == "" {
		t.Skip("go env GOROOT failed: no Go sources to load")
	}
	root := filepath.Join(goroot, "src", "net", "http")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no %s: %v", root, err)
	}
	return root
}

// percentile of sorted durations, p in 0..100.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(float64(len(d)-1) * p / 100)
	return d[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

var loadQueries = []string{
	"parse http request headers", "cookie jar set cookies", "read chunked response body",
	"tls handshake timeout", "graceful server shutdown", "follow redirects policy",
	"parse multipart form", "basic auth credentials", "serve static files from a directory",
	"处理请求超时", "解析cookie", "keep-alive idle connections",
}

func TestLoad(t *testing.T) {
	root := loadRoot(t)
	start := time.Now()
	p := openIndexed(t, root)
	t.Logf("indexed %s in %s", root, time.Since(start).Round(time.Millisecond))
	f := serveProjects(t, serve.Options{}, root, p)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	get := func(path string) (int, error) {
		res, err := client.Get(f.ts.URL + path)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, nil
	}

	// Warm search round trips, one client.
	for _, qs := range loadQueries {
		get(q("search", "query", qs))
	}
	var warm []time.Duration
	for i := 0; i < 5*len(loadQueries); i++ {
		t0 := time.Now()
		if status, err := get(q("search", "query", loadQueries[i%len(loadQueries)])); err != nil || status != 200 {
			t.Fatalf("search: %d %v", status, err)
		}
		warm = append(warm, time.Since(t0))
	}
	slices.Sort(warm)
	t.Logf("warm search round trip, 1 client: n=%d p50 %s p95 %s", len(warm), ms(percentile(warm, 50)), ms(percentile(warm, 95)))

	// Load: a mix of requests from N clients for D seconds.
	clients, seconds := envInt("CODECTX_LOAD_CLIENTS", 8), envInt("CODECTX_LOAD_SECONDS", 30)
	mix := []func(i int) string{
		func(i int) string { return q("search", "query", loadQueries[i%len(loadQueries)]) },
		func(i int) string { return q("search", "query", loadQueries[(i+5)%len(loadQueries)], "top_k", "10") },
		func(i int) string { return q("grep", "pattern", "func \\(c \\*Client\\) Do") },
		func(i int) string {
			return q("read", "file", "server.go", "offset", strconv.Itoa(1+(i*97)%3000), "limit", "80")
		},
		func(i int) string { return q("graph", "name", "Client.Do") },
		func(i int) string { return q("glob", "pattern", "**/*_test.go", "limit", "50") },
	}
	type sample struct {
		kind int
		d    time.Duration
		ok   bool
	}
	var (
		mu      sync.Mutex
		samples []sample
		errs    []string
	)
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Go(func() {
			for i := c; time.Now().Before(deadline); i++ {
				kind := i % len(mix)
				path := mix[kind](i)
				t0 := time.Now()
				status, err := get(path)
				d := time.Since(t0)
				mu.Lock()
				samples = append(samples, sample{kind, d, err == nil && status == 200})
				if err != nil || status != 200 {
					errs = append(errs, fmt.Sprintf("%s: %d %v", path, status, err))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var all, search []time.Duration
	for _, s := range samples {
		all = append(all, s.d)
		if s.kind < 2 {
			search = append(search, s.d)
		}
	}
	slices.Sort(all)
	slices.Sort(search)
	t.Logf("load: %d clients, %d s: %d requests (%.0f/s), %d errors", clients, seconds, len(all), float64(len(all))/float64(seconds), len(errs))
	t.Logf("load, all requests: p50 %s p95 %s p99 %s", ms(percentile(all, 50)), ms(percentile(all, 95)), ms(percentile(all, 99)))
	t.Logf("load, searches:     p50 %s p95 %s", ms(percentile(search, 50)), ms(percentile(search, 95)))
	names := []string{"search", "search top_k=10", "grep", "read", "graph", "glob"}
	for k, name := range names {
		var ds []time.Duration
		for _, s := range samples {
			if s.kind == k {
				ds = append(ds, s.d)
			}
		}
		slices.Sort(ds)
		t.Logf("load, %-16s n=%d p50 %s p95 %s", name+":", len(ds), ms(percentile(ds, 50)), ms(percentile(ds, 95)))
	}
	if len(errs) > 0 {
		t.Errorf("%d errors, first: %s", len(errs), errs[0])
	}

	// The page's first render on this project, in headless Chromium.
	if chromiumPath() == "" {
		t.Log("chromium not installed: no first-render measurement")
		return
	}
	ctx := newBrowser(t)
	var renders []int
	for i := 0; i < 5; i++ {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(f.ts.URL+"/#/search?q=graceful+server+shutdown"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
			t.Fatal(err)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.firstRender`))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(v)
		renders = append(renders, n)
	}
	slices.Sort(renders)
	t.Logf("page first render with a search result list (5 loads): median %d ms, min %d ms, max %d ms", renders[2], renders[0], renders[4])
}
