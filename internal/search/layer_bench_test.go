package search

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"codectx/internal/embed"
	"codectx/internal/store"
	"codectx/internal/vecindex"
)

// BenchmarkFileLayerScan compares, on a database of a huge project, the
// file layer's pruned semantic scan with the flat scan of every vector:
// the share of the flat scan's best 10, 60 and 300 chunks the pruned scan
// finds (before the keyword channel's files are added) and the CPU time of
// each scan per question, on one core, for a few values of layerPieces.
// CODECTX_BENCH_DB names the database (with the side files of the
// project's current generation: run `codectx index` with this build
// first), CODECTX_BENCH_ROOT the project's root and CODECTX_BENCH_QUERIES a
// file of questions, one a line; the built-in embedder embeds them.
func BenchmarkFileLayerScan(b *testing.B) {
	dbPath, root, qf := os.Getenv("CODECTX_BENCH_DB"), os.Getenv("CODECTX_BENCH_ROOT"), os.Getenv("CODECTX_BENCH_QUERIES")
	if dbPath == "" || root == "" || qf == "" {
		b.Skip("set CODECTX_BENCH_DB, CODECTX_BENCH_ROOT and CODECTX_BENCH_QUERIES")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	p, err := db.Project(ctx, root)
	if err != nil {
		b.Fatal(err)
	}
	open := func(kind string) *vecindex.Quantized {
		f, err := db.OpenSideFile(p, kind)
		if err != nil {
			b.Fatalf("side file %s: %v", kind, err)
		}
		b.Cleanup(func() { f.Close() })
		q, err := vecindex.ParseQuantized(f.Data)
		if err != nil {
			b.Fatal(err)
		}
		return q
	}
	q := open(store.SideVectors)
	l := &fileLayer{pieces: open(store.SideLayer), rows: q.Len()}
	e, err := embed.New(embed.Config{})
	if err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile(qf)
	if err != nil {
		b.Fatal(err)
	}
	var qvs [][]float32
	for _, line := range strings.Split(string(text), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			v, err := e.Embed(ctx, []string{line})
			if err != nil {
				b.Fatal(err)
			}
			qvs = append(qvs, v[0])
		}
	}
	defer func(v int) { layerPieces = v }(layerPieces)
	for b.Loop() {
		var flatTime time.Duration
		flat := make([][]vecindex.Hit, len(qvs))
		for i, qv := range qvs {
			t0 := time.Now()
			flat[i] = q.TopK(qv, semCandidates)
			flatTime += time.Since(t0)
		}
		b.ReportMetric(float64(flatTime.Microseconds())/1000/float64(len(qvs)), "flat-ms/q")
		for _, n := range []int{2048, 4096, 8192, 16384} {
			layerPieces = n
			var found [3]float64
			var tookLayer, tookRows time.Duration
			rows := 0
			for i, qv := range qvs {
				t0 := time.Now()
				ranges := l.layerRanges(qv)
				t1 := time.Now()
				pruned := q.TopKRows(qv, semCandidates, ranges)
				tookLayer += t1.Sub(t0)
				tookRows += time.Since(t1)
				rows += rowsIn(ranges)
				in := make(map[int64]bool, len(pruned))
				for _, h := range pruned {
					in[h.ID] = true
				}
				for j, k := range []int{10, 60, 300} {
					top := flat[i][:min(k, len(flat[i]))]
					c := 0
					for _, h := range top {
						if in[h.ID] {
							c++
						}
					}
					found[j] += float64(c) / float64(max(len(top), 1))
				}
			}
			nq := float64(len(qvs))
			b.Logf("%d pieces: %.0f rows, %.2f + %.2f ms per question (pieces, rows); flat best 10/60/300 found %.3f/%.3f/%.3f",
				n, float64(rows)/nq, float64(tookLayer.Microseconds())/1000/nq, float64(tookRows.Microseconds())/1000/nq, found[0]/nq, found[1]/nq, found[2]/nq)
		}
	}
}
