//go:build load

// Command pgload is the shared-index load test: while two indexers write
// two projects into one database, readers — each with its own connection
// pool, as separate codectx serve processes would have — ask search,
// context and graph questions of an already indexed project. It reports
// every error, the queries per second and latency percentiles. It is run
// on demand (build tag "load"), never by go test:
//
//	go run -tags load ./internal/tools/pgload -db postgres://… \
//	    -read ROOT -write ROOT1,ROOT2 -readers 8
//
// It must not be imported: it is a measurement, not part of the product.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"codectx/pkg/codectx"
)

func main() {
	db := flag.String("db", "", "database: a postgres:// URL or a SQLite file")
	read := flag.String("read", "", "project the readers query (indexed first)")
	write := flag.String("write", "", "comma-separated projects indexed concurrently, from scratch")
	readers := flag.Int("readers", 8, "concurrent readers")
	flag.Parse()
	if *db == "" || *read == "" || *write == "" {
		fmt.Fprintln(os.Stderr, "usage: pgload -db DB -read ROOT -write ROOT1,ROOT2 [-readers 8]")
		os.Exit(2)
	}
	if err := run(*db, *read, strings.Split(*write, ","), *readers); err != nil {
		fmt.Fprintln(os.Stderr, "pgload:", err)
		os.Exit(1)
	}
}

var questions = []string{
	"read the request body", "parse a header value", "close idle connections", "write a response",
	"decode json into a struct", "encode base64", "timeout of a client", "cookie jar",
}

func run(db, readRoot string, writeRoots []string, readers int) error {
	ctx := context.Background()
	cfg := &codectx.Config{Threads: 1}
	// The readers' project first.
	p, err := codectx.Open(readRoot, codectx.Options{DBPath: db, Config: cfg})
	if err != nil {
		return err
	}
	if _, err := p.Index(ctx, codectx.IndexOptions{}); err != nil {
		return fmt.Errorf("index %s: %w", readRoot, err)
	}
	p.Close()

	var (
		errs     atomic.Int64
		errMu    sync.Mutex
		firstErr []string
		lat      []time.Duration
		latMu    sync.Mutex
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	fail := func(what string, err error) {
		errs.Add(1)
		errMu.Lock()
		if len(firstErr) < 10 {
			firstErr = append(firstErr, what+": "+err.Error())
		}
		errMu.Unlock()
	}
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rp, err := codectx.Open(readRoot, codectx.Options{DBPath: db, Config: cfg, ReadOnly: true})
			if err != nil {
				fail("open reader", err)
				return
			}
			defer rp.Close()
			for i := r; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				q := questions[i%len(questions)]
				t0 := time.Now()
				switch i % 3 {
				case 0:
					_, err = rp.Search(ctx, codectx.SearchOptions{Query: q, K: 10})
				case 1:
					_, err = rp.Context(ctx, codectx.ContextOptions{Query: q, Budget: 4000})
				default:
					_, err = rp.Graph(ctx, codectx.GraphOptions{Name: strings.Fields(q)[0], Depth: 1})
					if errors.Is(err, codectx.ErrSymbolNotFound) {
						err = nil
					}
				}
				d := time.Since(t0)
				if err != nil {
					fail(fmt.Sprintf("reader %d %q", r, q), err)
					continue
				}
				latMu.Lock()
				lat = append(lat, d)
				latMu.Unlock()
			}
		}()
	}
	start := time.Now()
	var iw sync.WaitGroup
	durations := make([]time.Duration, len(writeRoots))
	for i, root := range writeRoots {
		iw.Add(1)
		go func() {
			defer iw.Done()
			t0 := time.Now()
			wp, err := codectx.Open(root, codectx.Options{DBPath: db, Config: cfg})
			if err != nil {
				fail("open writer", err)
				return
			}
			defer wp.Close()
			if _, err := wp.Index(ctx, codectx.IndexOptions{Rebuild: true}); err != nil {
				fail("index "+root, err)
			}
			durations[i] = time.Since(t0)
		}()
	}
	iw.Wait()
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	fmt.Printf("indexers: %d projects in %.1fs (%v)\n", len(writeRoots), elapsed.Seconds(), durations)
	fmt.Printf("readers: %d, %d answers in %.1fs = %.1f/s, p50 %v p95 %v max %v\n", readers, len(lat), elapsed.Seconds(),
		float64(len(lat))/elapsed.Seconds(), pct(0.5).Round(time.Millisecond), pct(0.95).Round(time.Millisecond), pct(1).Round(time.Millisecond))
	fmt.Printf("errors: %d\n", errs.Load())
	for _, e := range firstErr {
		fmt.Println("  ", e)
	}
	if errs.Load() > 0 {
		return fmt.Errorf("%d errors", errs.Load())
	}
	return nil
}
