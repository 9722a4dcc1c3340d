package assemble

import (
	"context"
	"maps"
	"testing"

	"codectx/internal/vecindex"
)

// The per-generation cache answers as callerDegree does, whether an id was
// counted before (with callers or without) or not.
func TestCallInDegreeCache(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	ctx := context.Background()
	ids := f.chunkIDs(t, true)
	want, err := callerDegree(ctx, f.db, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || len(want) == len(ids) {
		t.Fatalf("fixture needs chunks with and without callers: %d of %d called", len(want), len(ids))
	}
	const gen = 7
	half := ids[:len(ids)/2]
	for _, list := range [][]int64{half, ids, ids} {
		got, err := callInDegree(ctx, f.db, f.pid, gen, list)
		if err != nil {
			t.Fatal(err)
		}
		sub := map[int64]int{}
		for _, id := range list {
			if n, ok := want[id]; ok {
				sub[id] = n
			}
		}
		if !maps.Equal(got, sub) {
			t.Fatalf("cached counts %v, store %v", got, sub)
		}
	}
}

// Inner products held in memory stand in for the database's vectors, and
// whatever memory does not hold is read from the database.
func TestLoadVectorsFromMemory(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	ctx := context.Background()
	pr, err := f.db.Project(ctx, f.root)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, sym := range []string{"compressBlock", "Compressor", "splitBlocks"} {
		ids = append(ids, f.chunk(t, sym).ID)
	}
	blobs, err := f.db.ChunkVectors(ctx, ids, pr.Model)
	if err != nil || len(blobs) != len(ids) {
		t.Fatalf("stored vectors: %d, %v", len(blobs), err)
	}
	qvec := vecindex.DecodeVector(blobs[ids[0]])
	want := newRelevance("compress", nil, qvec, 0.6)
	if err := want.loadVectors(ctx, f.db, pr.Model, ids); err != nil {
		t.Fatal(err)
	}
	if len(want.cos) != len(ids) {
		t.Fatalf("from the database: %d of %d", len(want.cos), len(ids))
	}
	got := newRelevance("compress", nil, qvec, 0.6)
	asked := 0
	got.memory = func(q []float32, list []int64) map[int64]float64 {
		asked += len(list)
		return map[int64]float64{ids[0]: dot(q, vecindex.DecodeVector(blobs[ids[0]]))}
	}
	if err := got.loadVectors(ctx, f.db, pr.Model, ids); err != nil {
		t.Fatal(err)
	}
	if asked != len(ids) || !maps.Equal(got.cos, want.cos) {
		t.Fatalf("asked memory for %d (want %d): %v, database %v", asked, len(ids), got.cos, want.cos)
	}
}

// A chunk's caller count is its distinct calling chunks outside test
// files: two calls from one function count once, tests not at all.
func TestCallerDegree(t *testing.T) {
	f := indexFixture(t, "hubdeg")
	ctx := context.Background()
	ids := map[string]int64{}
	for _, s := range []string{"Parse", "Load", "Trim"} {
		ids[s] = f.chunk(t, s).ID
	}
	got, err := callerDegree(ctx, f.db, []int64{ids["Parse"], ids["Load"], ids["Trim"]})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]int{ids["Parse"]: 1, ids["Trim"]: 3}
	if !maps.Equal(got, want) {
		t.Errorf("callerDegree = %v, want %v (Parse 1, Trim 3, Load absent)", got, want)
	}
}

// Callers are counted only for neighbours that can still pass the
// relevance filter: the seeds, neighbours reached by a sure edge and those
// relevant enough before the hub penalty (which only lowers relevance).
// Counting reads every call row of a chunk, and most neighbours of a
// second hop are irrelevant.
func TestCallersCountedOnlyForPassingNeighbours(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	ctx := context.Background()
	cases := []struct {
		query, depth, seed string
	}{
		{"compress buffer blocks", "2", "Compressor.CompressBuffer"},
		{"archive a buffer", "2", "ArchiveBuffer"},
		{"stats totals per hub", "1", "compressBufferBlocksStats"}, // a seed hub: its many callers are read, few are relevant
	}
	for i, c := range cases {
		gen := int64(9000 + i)
		seed := f.chunk(t, c.seed)
		res, err := Assemble(ctx, f.db, f.pid, ContextOptions{Query: c.query, Depth: c.depth, Budget: 100000,
			Seeds: []Seed{{ChunkID: seed.ID, Score: 1}}, Generation: gen})
		if err != nil {
			t.Fatal(err)
		}
		in := map[int64]bool{}
		for _, ch := range res.Chunks() {
			in[ch.ID] = true
		}
		degrees.Lock()
		var counted []int64
		for id := range degrees.m[degreeKey{db: f.db.Path(), project: f.pid, generation: gen}] {
			counted = append(counted, id)
		}
		degrees.Unlock()
		chunks, err := f.db.GraphChunks(ctx, counted, true)
		if err != nil {
			t.Fatal(err)
		}
		rel := newRelevance(c.query, nil, nil, DefaultParams.KeywordWeight)
		for _, id := range counted {
			if in[id] {
				continue
			}
			if r := rel.score(chunks[id]); r < DefaultParams.MinRelevance {
				t.Errorf("%q: callers of %s counted (relevance %.2f, not in the context)", c.query, chunks[id].Symbol, r)
			}
		}
	}
}
