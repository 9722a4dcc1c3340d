package search

// TEMPORARY tuning harness (removed before hand-off): runs the golden sets
// against an existing eval database with many parameter sets, computing the
// channels once per query.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"codectx/internal/embed"
	"codectx/internal/eval"
	"codectx/internal/store"
)

type tuneQuery struct {
	task eval.Task
	in   rankInput
}

func loadTune(t *testing.T, ctx context.Context, db *store.DB, emb embed.Embedder, set string) (*store.DB, []tuneQuery) {
	f, err := os.Open("/work/shared/eval/" + set + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gs, err := eval.Parse(f, func(k string) string {
		if k == "GOROOT" {
			return "/usr/local/go"
		}
		return os.Getenv(k)
	})
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(gs.Root)
	p, err := db.Project(ctx, root)
	if err != nil {
		t.Fatal(root, err)
	}
	ix := Index{DB: db, Project: p, Embedder: emb}
	snap, err := loadSnapshot(ctx, db, p)
	if err != nil {
		t.Fatal(err)
	}
	var out []tuneQuery
	for _, task := range gs.Tasks {
		q := buildQuery(task.Query, nil)
		sem, err := semanticChannel(ctx, ix, snap, q)
		if err != nil {
			t.Fatal(err)
		}
		kw, err := keywordChannel(ctx, db, p.ID, snap, q)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tuneQuery{task: task, in: rankInput{snap: snap, k: 10, sem: sem, kw: kw, semPool: semPool(10)}})
	}
	return db, out
}

func evalParams(ctx context.Context, db *store.DB, qs []tuneQuery, p params, verbose bool, w *strings.Builder) eval.Report {
	saved := defaultParams
	defaultParams = p
	defer func() { defaultParams = saved }()
	var outs []eval.Outcome
	for _, q := range qs {
		r := rankDefault(ctx, db, q.in)
		hits := make([]eval.Hit, len(r))
		for i, c := range r {
			ch := q.in.snap.chunks[c.idx]
			hits[i] = eval.Hit{File: ch.Path, Name: ch.Name}
		}
		o := eval.Judge(q.task, hits)
		if verbose && (o.SymbolRank == 0 || o.SymbolRank > 1) {
			fmt.Fprintf(w, "  %s sym %d file %d  %s\n", q.task.ID, o.SymbolRank, o.FileRank, q.task.Query)
			fmt.Fprintf(w, "      want %v\n", q.task.Targets)
			for i, h := range hits[:min(5, len(hits))] {
				fmt.Fprintf(w, "      %d %.3f %s:%s\n", i+1, r[i].score, h.File, h.Name)
			}
		}
		outs = append(outs, o)
	}
	return eval.Evaluate(outs)
}

func TestTune(t *testing.T) {
	if os.Getenv("CODECTX_TUNE") == "" {
		t.Skip("tuning harness")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "/tmp/evaldb/index.db", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb, _ := embed.New(embed.Config{Provider: "local"})
	sets := strings.Fields(os.Getenv("CODECTX_TUNE_SETS"))
	if len(sets) == 0 {
		sets = []string{"go-nethttp", "go-encoding", "py-email-http"}
	}
	if f := os.Getenv("CODECTX_TUNE_FTS"); f != "" {
		// One pass per column-weight setting, each with the grid.
		for _, w := range strings.Split(f, ";") {
			fmt.Sscanf(w, "%g,%g,%g", &ftsWeights.Name, &ftsWeights.Path, &ftsWeights.Body)
			all := map[string][]tuneQuery{}
			for _, s := range sets {
				_, all[s] = loadTune(t, ctx, db, emb, s)
			}
			for _, line := range strings.Split(os.Getenv("CODECTX_TUNE_GRID"), "\n") {
				if strings.TrimSpace(line) == "" {
					continue
				}
				p := defaultParams
				if err := json.Unmarshal([]byte(line), &p); err != nil {
					t.Fatal(err)
				}
				var buf strings.Builder
				runGrid(ctx, db, sets, all, p, false, &buf)
				fmt.Printf("fts %s: %s", w, buf.String())
			}
		}
		return
	}
	all := map[string][]tuneQuery{}
	for _, s := range sets {
		_, all[s] = loadTune(t, ctx, db, emb, s)
	}
	if os.Getenv("CODECTX_TUNE_LOOP") != "" {
		os.MkdirAll("/tmp/tune", 0o755)
		for {
			g, err := os.ReadFile("/tmp/tune/grid.jsonl")
			if err != nil {
				if _, err := os.Stat("/tmp/tune/stop"); err == nil {
					return
				}
				time.Sleep(300 * time.Millisecond)
				continue
			}
			os.Remove("/tmp/tune/grid.jsonl")
			verbose := strings.HasPrefix(string(g), "v")
			g = []byte(strings.TrimPrefix(string(g), "v"))
			var buf strings.Builder
			for _, line := range strings.Split(string(g), "\n") {
				if strings.TrimSpace(line) == "" {
					continue
				}
				p := defaultParams
				if err := json.Unmarshal([]byte(line), &p); err != nil {
					fmt.Fprintln(&buf, "bad line:", err)
					continue
				}
				runGrid(ctx, db, sets, all, p, verbose, &buf)
			}
			os.WriteFile("/tmp/tune/out.tmp", []byte(buf.String()), 0o644)
			os.Rename("/tmp/tune/out.tmp", "/tmp/tune/out.txt")
		}
	}
	var grid []params
	if g := os.Getenv("CODECTX_TUNE_GRID"); g != "" {
		for _, line := range strings.Split(g, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			p := defaultParams
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatal(err)
			}
			grid = append(grid, p)
		}
	} else {
		grid = []params{defaultParams}
	}
	verbose := os.Getenv("CODECTX_TUNE_VERBOSE") != ""
	for _, p := range grid {
		var buf strings.Builder
		runGrid(ctx, db, sets, all, p, verbose, &buf)
		fmt.Print(buf.String())
	}
}

func runGrid(ctx context.Context, db *store.DB, sets []string, all map[string][]tuneQuery, p params, verbose bool, out *strings.Builder) {
	var line strings.Builder
	var sumS, sumF float64
	minS, minF5 := 1.0, 1.0
	for _, s := range sets {
		if verbose {
			fmt.Fprintln(out, s)
		}
		r := evalParams(ctx, db, all[s], p, verbose, out)
		fmt.Fprintf(&line, " %s f5 %.3f fM %.3f sM %.3f |", s[:6], r.Overall.File.Recall5, r.Overall.File.MRR10, r.Overall.Symbol.MRR10)
		sumS += r.Overall.Symbol.MRR10
		sumF += r.Overall.File.MRR10
		minS = min(minS, r.Overall.Symbol.MRR10)
		minF5 = min(minF5, r.Overall.File.Recall5)
	}
	pj, _ := json.Marshal(p)
	fmt.Fprintf(out, "avgS %.3f minS %.3f minF5 %.3f avgF %.3f |%s %s\n", sumS/float64(len(sets)), minS, minF5, sumF/float64(len(sets)), line.String(), pj)
}
