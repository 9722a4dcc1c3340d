package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// warmQueries are natural-language questions about the Go standard
// library, asked of one open Project as an MCP or serve process would.
var warmQueries = []string{
	"how does the http server handle read timeouts",
	"parse a url query string into values",
	"where are tls certificates verified against the system roots",
	"gzip compression writer flush",
	"json decoder reads a number into an interface",
	"sort a slice with a less function",
	"how does the scheduler park a goroutine",
	"garbage collector write barrier",
	"map grows and rehashes buckets",
	"format a float as a decimal string",
	"read a file line by line with a buffered scanner",
	"resolve a host name with the dns resolver",
	"context cancellation propagates to child contexts",
	"mutex starvation mode",
	"sha256 block function",
	"base64 url encoding without padding",
	"template executes a range over a map",
	"walk a directory tree recursively",
	"regular expression compiles to a program",
	"time zone loading from the system database",
	"how are environment variables read on startup",
	"http client follows redirects",
	"cookie jar stores cookies per domain",
	"zip archive reader opens a file entry",
	"big integer multiplication karatsuba",
	"utf8 decode a rune from bytes",
	"signal notify delivers os signals to a channel",
	"reflect call a method by value",
	"sql database connection pool idle connections",
	"exec command pipes stdout of a child process",
}

// BenchmarkWarmSearch measures warm hybrid searches (the project's
// snapshot and vectors already loaded) on the index named by
// CODECTX_BENCH_DB, holding $GOROOT/src (codectx index $(go env GOROOT)/src
// --db $CODECTX_BENCH_DB) or CODECTX_BENCH_ROOT. It reports p50 and p95
// over the queries.
func BenchmarkWarmSearch(b *testing.B) {
	p := benchProject(b)
	ctx := context.Background()
	for range 2 { // load the snapshot, then the vectors into memory
		if _, err := p.Search(ctx, SearchOptions{Query: warmQueries[0]}); err != nil {
			b.Fatal(err)
		}
	}
	warmLatencies(b, func(q string) error {
		_, err := p.Search(ctx, SearchOptions{Query: q})
		return err
	})
}

// benchProject opens $GOROOT/src, or the project root CODECTX_BENCH_ROOT
// names (a larger tree holding a copy of it, for the 1M-chunk figures),
// read-only in the database CODECTX_BENCH_DB names (skipping the benchmark
// without one).
func benchProject(b *testing.B) *Project {
	b.Helper()
	dbPath := os.Getenv("CODECTX_BENCH_DB")
	if dbPath == "" {
		b.Skip("set CODECTX_BENCH_DB to a database holding $GOROOT/src")
	}
	root := os.Getenv("CODECTX_BENCH_ROOT")
	if root == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip("go env GOROOT:", err)
		}
		root = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	p, err := Open(root, Options{DBPath: dbPath, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

// BenchmarkWarmContext assembles 4,000-token contexts for the warm-search
// questions against one open project (as the MCP server does), after one
// call has loaded the snapshot and vectors; it reports p50 and p95.
func BenchmarkWarmContext(b *testing.B) {
	p := benchProject(b)
	ctx := context.Background()
	for range 2 {
		if _, err := p.Context(ctx, ContextOptions{Query: warmQueries[0], Budget: 4000}); err != nil {
			b.Fatal(err)
		}
	}
	warmLatencies(b, func(q string) error {
		_, err := p.Context(ctx, ContextOptions{Query: q, Budget: 4000})
		return err
	})
}

// warmLatencies runs ask for every warm query b.N times and reports the
// p50 and p95 of the wall time per query and, since the machine may be
// shared, of the process's CPU time (user + system) per query: with -cpu=1
// the latter is the query's own work (and the collector's), whatever else
// runs on the machine.
func warmLatencies(b *testing.B, ask func(q string) error) {
	b.Helper()
	var wall, cpu []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range warmQueries {
			t0, c0 := time.Now(), processCPU()
			if err := ask(q); err != nil {
				b.Fatal(err)
			}
			wall = append(wall, time.Since(t0))
			cpu = append(cpu, processCPU()-c0)
		}
	}
	b.StopTimer()
	report := func(lat []time.Duration, unit string) {
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-"+unit)
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-"+unit)
	}
	report(wall, "ms")
	report(cpu, "cpu-ms")
}
