package store

import (
	"context"
	"fmt"
	"syscall"
	"testing"

	"codectx/internal/lang"
)

// BenchmarkApplyResolution resolves every relation of a freshly written
// project, as the first index does (go test -bench ApplyResolution
// -benchtime 1x ./internal/store/).
func BenchmarkApplyResolution(b *testing.B) {
	for range b.N {
		b.StopTimer()
		path := b.TempDir() + "/index.db"
		db, err := Open(context.Background(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		if _, err := db.BeginBulkLoad(ctx); err != nil {
			b.Fatal(err)
		}
		p, _ := db.EnsureProject(ctx, "/proj")
		var updates []EdgeResolution
		for f := range 100 {
			var batch Batch
			for k := range 4 {
				rec := record(fmt.Sprintf("d%d/f%d.go", f, k), "A", "B", "C")
				for i := range 250 {
					rec.Relations = append(rec.Relations, lang.Relation{Kind: lang.RelCalls, Source: "A", Target: fmt.Sprintf("T%d", i%37), Qualifier: "x", Line: 1})
				}
				batch.Files = append(batch.Files, rec)
			}
			if _, err := db.WriteBatch(ctx, p.ID, "m", batch); err != nil {
				b.Fatal(err)
			}
		}
		db.ForEachEdge(ctx, p.ID, func(e *EdgeRow) error {
			updates = append(updates, EdgeResolution{ID: e.ID, DstChunk: e.ID%1000 + 1, Resolution: ResExact, Detail: "same package"})
			return nil
		})
		cpu0 := cpuSeconds()
		b.StartTimer()
		for start := 0; start < len(updates); start += 50000 {
			if err := db.ApplyResolution(ctx, p.ID, updates[start:min(start+50000, len(updates))], nil, false); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(cpuSeconds()-cpu0, "cpu-s")
		b.ReportMetric(float64(len(updates)), "edges")
		db.Close()
	}
}

// cpuSeconds is the process's user + system CPU time so far: on a shared
// machine it says more than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
