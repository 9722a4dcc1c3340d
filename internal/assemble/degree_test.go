package assemble

import (
	"context"
	"maps"
	"testing"
)

// The per-generation cache answers as the store does, whether an id was
// counted before (with callers or without) or not.
func TestCallInDegreeCache(t *testing.T) {
	f := indexFixture(t, "ctxproj")
	ctx := context.Background()
	rows, err := f.db.SQL().QueryContext(ctx, "SELECT id FROM chunks WHERE project_id = ? ORDER BY id", f.pid)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	want, err := f.db.CallInDegree(ctx, ids)
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
