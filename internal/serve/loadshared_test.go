//go:build loadtest && unix

// TestLoadShared is the shared-database load test of issue 18: one
// `codectx serve` process answers 8 HTTP clients about a project already
// indexed into the database while two `codectx index` processes keep
// writing two other projects into the same database (each re-indexed after
// touching some of its files, until the readers' time is up). Every process
// is the binary built from this tree; nothing is mocked. It runs on demand
// only:
//
//	go test -tags loadtest -run TestLoadShared -v -timeout 30m ./internal/serve/
//
// The subtest "sqlite" uses one SQLite file, "postgres" a fresh schema of
// the server named by CODECTX_TEST_PG (skipped when it is not set;
// scripts/pg-cluster.sh starts one). CODECTX_LOAD_SECONDS (default 60),
// CODECTX_LOAD_CLIENTS (8) and CODECTX_LOAD_MIN_RUNS (runs each indexer
// must finish before the readers stop, default 3) change it;
// CODECTX_LOAD_INDEXERS=0 measures the readers alone.
package serve_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"codectx/internal/pgtest"
	"codectx/internal/testfix"
)

func TestLoadShared(t *testing.T) {
	goroot := goRoot(t)
	bin := buildCodectx(t)
	t.Run("sqlite", func(t *testing.T) {
		runLoadShared(t, bin, goroot, filepath.Join(t.TempDir(), "index.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		runLoadShared(t, bin, goroot, pgtest.DSN(t))
	})
}

func goRoot(t *testing.T) string {
	root := testfix.GoRoot()
	if root == "" {
		t.Skip("go env GOROOT failed: no Go sources to load")
	}
	for _, d := range []string{"net/http", "encoding"} {
		if _, err := os.Stat(filepath.Join(root, "src", d)); err != nil {
			t.Skipf("no $GOROOT/src/%s: %v", d, err)
		}
	}
	return root
}

// buildCodectx builds cmd/codectx from this tree (CODECTX_LOAD_BIN names an
// already built binary instead).
func buildCodectx(t *testing.T) string {
	if b := os.Getenv("CODECTX_LOAD_BIN"); b != "" {
		return b
	}
	bin := filepath.Join(t.TempDir(), "codectx")
	cmd := exec.Command("go", "build", "-o", bin, "codectx/cmd/codectx")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// indexerRun is one `codectx index` process of an indexer.
type indexerRun struct {
	d, cpu time.Duration
	err    error
}

func runLoadShared(t *testing.T, bin, goroot, db string) {
	clients, seconds := envInt("CODECTX_LOAD_CLIENTS", 8), envInt("CODECTX_LOAD_SECONDS", 60)
	minRuns := envInt("CODECTX_LOAD_MIN_RUNS", 3)
	// Every process gets the same environment: grep's local derived index
	// of a PostgreSQL project goes to the cache directory, a fresh one here.
	env := append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir(), "CODECTX_DB=")
	command := func(ctx context.Context, args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, bin, append([]string{"--db", db}, args...)...)
		cmd.Env = env
		return cmd
	}

	// The readers' project, indexed before anything else.
	readRoot := testfix.CopyTree(t, filepath.Join(goroot, "src", "net", "http"))
	t0 := time.Now()
	if out, err := command(context.Background(), "index", readRoot).CombinedOutput(); err != nil {
		t.Fatalf("index %s: %v\n%s", readRoot, err, out)
	}
	t.Logf("readers' project (net/http copy) indexed in %s", time.Since(t0).Round(time.Millisecond))

	// codectx serve on a free loopback port: ready when it says where.
	sctx, stopServe := context.WithCancel(context.Background())
	defer stopServe()
	srv := command(sctx, "serve", readRoot, "--addr", "127.0.0.1:0")
	srv.Cancel = func() error { return srv.Process.Signal(os.Interrupt) }
	srv.WaitDelay = 30 * time.Second
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	served := regexp.MustCompile(`serving \d+ project\(s\) on (http://[^/ ]+)/`)
	baseURL := make(chan string, 1)
	var (
		srvLogMu sync.Mutex
		srvLog   []string
	)
	srvDone := make(chan struct{})
	go func() {
		defer close(srvDone)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if m := served.FindStringSubmatch(line); m != nil {
				baseURL <- m[1]
				continue
			}
			srvLogMu.Lock()
			srvLog = append(srvLog, line)
			srvLogMu.Unlock()
		}
	}()
	var base string
	select {
	case base = <-baseURL:
	case <-srvDone:
		srv.Wait()
		t.Fatalf("codectx serve ended before listening: %s", strings.Join(srvLog, "\n"))
	}

	// Two indexers on two other projects: a cold index, then, until told to
	// stop, touch a few files and index again.
	writeNames := []string{"net/http", "encoding"}[:min(2, envCount("CODECTX_LOAD_INDEXERS", 2))]
	var writeRoots []string
	for _, name := range writeNames {
		writeRoots = append(writeRoots, testfix.CopyTree(t, filepath.Join(goroot, "src", name)))
	}
	stop := make(chan struct{})
	runs := make([][]indexerRun, len(writeRoots))
	reached := make(chan struct{}, len(writeRoots)) // one send per indexer at minRuns
	var iw sync.WaitGroup
	for w, root := range writeRoots {
		files := goFiles(t, root)
		iw.Go(func() {
			for n := 0; ; n++ {
				if n > 0 {
					select {
					case <-stop:
						return
					default:
					}
					touch(t, files, n)
				}
				t0 := time.Now()
				cmd := command(context.Background(), "index", root)
				out, err := cmd.CombinedOutput()
				if err != nil {
					err = fmt.Errorf("%v: %s", err, lastLines(out, 5))
				}
				runs[w] = append(runs[w], indexerRun{time.Since(t0), cpuOf(cmd), err})
				if len(runs[w]) == minRuns {
					reached <- struct{}{}
				}
			}
		})
	}

	// Eight readers through the server, a mix of every read the page makes.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	get := func(path string) (int, []byte, error) {
		res, err := client.Get(base + path)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, b, err
	}
	kinds := []struct {
		name string
		path func(i int) string
	}{
		{"search", func(i int) string { return q("search", "query", loadQueries[i%len(loadQueries)], "top_k", "10") }},
		{"context", func(i int) string {
			return q("context", "query", loadQueries[(i+5)%len(loadQueries)], "budget", "4000")
		}},
		{"grep", func(i int) string {
			return q("grep", "pattern", []string{`func \(c \*Client\) Do`, `ErrBodyNotAllowed`, `Keep-Alive`}[i%3])
		}},
		{"read", func(i int) string {
			return q("read", "file", "server.go", "offset", strconv.Itoa(1+(i*97)%3000), "limit", "80")
		}},
		{"graph", func(i int) string {
			return q("graph", "name", []string{"Client.Do", "Server.Serve", "ReadRequest"}[i%3])
		}},
		{"glob", func(i int) string { return q("glob", "pattern", "**/*_test.go", "limit", "50") }},
	}
	type sample struct {
		kind int
		d    time.Duration
	}
	var (
		mu      sync.Mutex
		samples []sample
		errs    []string
	)
	serverCPU0 := pgServerCPU(t, db)
	start := time.Now()
	var rw sync.WaitGroup
	for c := range clients {
		rw.Go(func() {
			for i := c; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				kind := i % len(kinds)
				path := kinds[kind].path(i)
				t0 := time.Now()
				status, body, err := get(path)
				d := time.Since(t0)
				mu.Lock()
				if err != nil || status != http.StatusOK {
					errs = append(errs, fmt.Sprintf("%s: %d %v %.200s", path, status, err, body))
				} else {
					samples = append(samples, sample{kind, d})
				}
				mu.Unlock()
			}
		})
	}
	// The readers stop when the time is up and every indexer has finished
	// minRuns runs (writes went on the whole time).
	timer := time.NewTimer(time.Duration(seconds) * time.Second)
	for range writeRoots {
		<-reached
	}
	<-timer.C
	conns := pgConnections(db)
	close(stop)
	elapsed := time.Since(start)
	rw.Wait()
	iw.Wait()
	stopServe()
	srvErr := srv.Wait()
	<-srvDone
	serverCPU := pgServerCPU(t, db) - serverCPU0

	// Report.
	t.Logf("store: %s", storeName(db))
	t.Logf("readers: %d clients for %.1f s: %d answers (%.1f/s), %d errors", clients, elapsed.Seconds(), len(samples), float64(len(samples))/elapsed.Seconds(), len(errs))
	var all []time.Duration
	for _, s := range samples {
		all = append(all, s.d)
	}
	slices.Sort(all)
	t.Logf("  %-8s n=%-5d p50 %-9s p95 %-9s max %s", "all", len(all), ms(percentile(all, 50)), ms(percentile(all, 95)), ms(percentile(all, 100)))
	for k, kind := range kinds {
		var ds []time.Duration
		for _, s := range samples {
			if s.kind == k {
				ds = append(ds, s.d)
			}
		}
		slices.Sort(ds)
		t.Logf("  %-8s n=%-5d p50 %-9s p95 %-9s max %s", kind.name, len(ds), ms(percentile(ds, 50)), ms(percentile(ds, 95)), ms(percentile(ds, 100)))
	}
	indexErrs := 0
	var indexCPU time.Duration
	for w, rs := range runs {
		var ds []string
		for _, r := range rs {
			indexCPU += r.cpu
			ds = append(ds, fmt.Sprintf("%.1fs", r.d.Seconds()))
			if r.err != nil {
				indexErrs++
				errs = append(errs, fmt.Sprintf("index (%s copy): %v", writeNames[w], r.err))
			}
		}
		t.Logf("indexer %d (%s copy): %d runs (first cold, then after touching %d files each): %s",
			w+1, writeNames[w], len(rs), touchFiles, strings.Join(ds, " "))
	}
	t.Logf("CPU (user + system): codectx serve %.1f s, the indexers %.1f s; codectx serve peak RSS %d MB",
		cpuOf(srv).Seconds(), indexCPU.Seconds(), maxRSS(srv)>>20)
	if conns > 0 {
		t.Logf("PostgreSQL connections of codectx processes open as the readers stopped: %d", conns)
	}
	if serverCPU > 0 {
		t.Logf("CPU of the PostgreSQL server from the readers' start to serve's exit: %.1f s (%.1f ms per answer, indexing included)",
			serverCPU.Seconds(), serverCPU.Seconds()*1000/float64(max(1, len(samples))))
	}
	if size := storeSize(t, db); size != "" {
		t.Logf("database: %s", size)
	}
	// Interrupted, serve shuts down gracefully and exits 0 (Wait reports
	// the cancelled context then).
	if srv.ProcessState == nil || !srv.ProcessState.Success() {
		errs = append(errs, fmt.Sprintf("codectx serve: %v (%v)", srvErr, srv.ProcessState))
	}
	srvLogMu.Lock()
	for _, l := range srvLog {
		if strings.Contains(l, "level=ERROR") {
			errs = append(errs, "codectx serve logged: "+l)
		}
	}
	srvLogMu.Unlock()
	if len(errs) > 0 {
		for _, e := range errs[:min(len(errs), 10)] {
			t.Error(e)
		}
		t.Fatalf("%d errors (%d from the indexers)", len(errs), indexErrs)
	}
}

// envCount is an environment variable's count, 0 allowed.
func envCount(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
		return v
	}
	return def
}

// touchFiles is how many files an indexer changes between its runs.
const touchFiles = 5

func goFiles(t *testing.T, root string) []string {
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.Contains(p, "testdata") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < touchFiles {
		t.Fatalf("%s: only %d Go files", root, len(files))
	}
	slices.Sort(files)
	return files
}

// touch appends a comment naming run n to touchFiles of the files.
func touch(t *testing.T, files []string, n int) {
	for k := range touchFiles {
		f := files[(n*touchFiles+k)%len(files)]
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		fmt.Fprintf(fh, "\n// load test run %d\n", n)
		fh.Close()
	}
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

func storeName(db string) string {
	if strings.HasPrefix(db, "postgres") {
		return "PostgreSQL"
	}
	return "SQLite"
}

// storeSize is the database's size and chunk count after the run: the
// schema's relations on PostgreSQL, the file (and its WAL) on SQLite.
func storeSize(t *testing.T, db string) string {
	if !strings.HasPrefix(db, "postgres") {
		var total int64
		for _, f := range []string{db, db + "-wal"} {
			if fi, err := os.Stat(f); err == nil {
				total += fi.Size()
			}
		}
		return fmt.Sprintf("SQLite file %.1f MB (with its WAL)", float64(total)/1e6)
	}
	u, err := url.Parse(db)
	if err != nil {
		return ""
	}
	schema := u.Query().Get("search_path")
	conn, err := sql.Open("pgx", db)
	if err != nil {
		return ""
	}
	defer conn.Close()
	var size, chunks int64
	err = conn.QueryRow(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`, schema).Scan(&size)
	if err == nil {
		err = conn.QueryRow(`SELECT count(*) FROM chunks`).Scan(&chunks)
	}
	if err != nil {
		t.Logf("database size: %v", err)
		return ""
	}
	return fmt.Sprintf("PostgreSQL schema %.1f MB, %d chunks (3 projects)", float64(size)/1e6, chunks)
}

// maxRSS is a finished process's peak resident set size in bytes.
func maxRSS(cmd *exec.Cmd) int64 {
	if cmd.ProcessState == nil {
		return 0
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) << 10 // kB on Linux
	}
	return 0
}

// pgConnections counts the server's sessions of codectx processes in this
// database (0 on SQLite).
func pgConnections(db string) int {
	if !strings.HasPrefix(db, "postgres") {
		return 0
	}
	conn, err := sql.Open("pgx", db)
	if err != nil {
		return 0
	}
	defer conn.Close()
	var n int
	conn.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE application_name = 'codectx' AND datname = current_database()`).Scan(&n)
	return n
}

func cpuOf(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// pgServerCPU is the user + system time so far of a PostgreSQL server on
// this machine, the postmaster with its exited children (the backends
// of closed connections): /proc/PID/stat of the parent of this
// connection's backend. 0 when the server is not local or not a
// PostgreSQL DSN. Other databases' sessions of the same server count too.
func pgServerCPU(t *testing.T, db string) time.Duration {
	if !strings.HasPrefix(db, "postgres") {
		return 0
	}
	conn, err := sql.Open("pgx", db)
	if err != nil {
		return 0
	}
	defer conn.Close()
	var pid int
	if err := conn.QueryRow(`SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		return 0
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	var ppid int
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "PPid:"); ok {
			ppid, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", ppid))
	if err != nil {
		return 0
	}
	// Fields after the command name: state is field 3; utime, stime,
	// cutime, cstime are fields 14-17, in clock ticks (100 per second).
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(f) < 15 {
		return 0
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, _ := strconv.ParseInt(s, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
