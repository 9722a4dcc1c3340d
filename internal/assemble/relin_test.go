package assemble

import (
	"context"
	"slices"
	"sort"
	"testing"

	"codectx/internal/store"
	"codectx/internal/testfix"
)

// relationsIn gives what reading every frontier chunk's containers,
// subtypes and implementers through the target index, then the callers of
// those whose callers are followed, gives: a hub method's container comes
// from its file's contains relations instead, without its call rows.
func TestRelationsInMatchesDirectReads(t *testing.T) {
	ctx := context.Background()
	for _, fix := range []string{"hubmethod", "ctxproj", "ctxpy"} {
		f := indexFixture(t, fix)
		ids := f.chunkIDs(t, false)
		chunks, err := f.db.GraphChunks(ctx, ids, false)
		if err != nil {
			t.Fatal(err)
		}
		deg, err := callerDegree(ctx, f.db, ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, seedEvery := range []int{0, 2} { // no seeds; every other chunk a seed
			var frontier []*cand
			var callees []int64
			hubMethods := 0
			for i, id := range ids {
				x := &cand{c: chunks[id], indeg: deg[id], seed: seedEvery > 0 && i%seedEvery == 0}
				frontier = append(frontier, x)
				if x.seed || x.indeg <= DefaultParams.HubDegree {
					callees = append(callees, id)
				} else if x.c.Kind != "type" {
					hubMethods++
				}
			}
			got, err := relationsIn(ctx, f.db, frontier, DefaultParams)
			if err != nil {
				t.Fatal(err)
			}
			structural, err := f.db.RelationsTo(ctx, ids, "contains", "extends", "implements")
			if err != nil {
				t.Fatal(err)
			}
			calls, err := f.db.RelationsTo(ctx, callees, "calls", "dispatch")
			if err != nil {
				t.Fatal(err)
			}
			want := append(structural, calls...)
			if !slices.Equal(relIDs(got), relIDs(want)) {
				t.Errorf("%s (seeds every %d): relationsIn %v, direct reads %v", fix, seedEvery, relIDs(got), relIDs(want))
			}
			if fix == "hubmethod" && seedEvery == 0 && hubMethods == 0 {
				t.Errorf("hubmethod: no hub that is not a type in the frontier")
			}
		}
	}
}

func relIDs(rs []store.GraphRelation) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// relationsIn and store.CallersByPath rely on three facts of extraction
// and resolution, checked here on the parser fixtures of every language:
// extends and implements relations resolve to types, a contains relation
// is recorded in the file of the member it resolves to, and a call in the
// file of its caller.
func TestStructuralRelationTargets(t *testing.T) {
	ctx := context.Background()
	p := testfix.Index(t, "../lang/testdata")
	var calls, elsewhere int
	if err := p.DB.SQL().QueryRowContext(ctx, `SELECT count(*), count(CASE WHEN r.file_id != c.file_id THEN 1 END) FROM relations r
		JOIN chunks c ON c.id = r.src_chunk WHERE r.project_id = ? AND r.kind IN ('calls', 'dispatch')`, p.ID).Scan(&calls, &elsewhere); err != nil {
		t.Fatal(err)
	}
	if calls == 0 || elsewhere != 0 {
		t.Errorf("%d of %d calls recorded outside their caller's file", elsewhere, calls)
	}
	rows, err := p.DB.SQL().QueryContext(ctx, `SELECT r.kind, r.file_id, c.file_id, c.kind, r.target FROM relations r
		JOIN chunks c ON c.id = r.dst_chunk WHERE r.project_id = ? AND r.kind IN ('contains', 'extends', 'implements')`, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[string]int{}
	for rows.Next() {
		var kind, dstKind, target string
		var relFile, dstFile int64
		if err := rows.Scan(&kind, &relFile, &dstFile, &dstKind, &target); err != nil {
			t.Fatal(err)
		}
		seen[kind]++
		switch {
		case kind == "contains" && relFile != dstFile:
			t.Errorf("contains %s: recorded in file %d, member in file %d", target, relFile, dstFile)
		case kind != "contains" && dstKind != "type":
			t.Errorf("%s %s resolves to a %s", kind, target, dstKind)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for k := range seen {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	if !slices.Equal(kinds, []string{"contains", "extends", "implements"}) {
		t.Errorf("fixtures resolve only %v", seen)
	}
	t.Logf("checked %v", seen)
}
