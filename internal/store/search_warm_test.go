package store

import (
	"context"
	"fmt"
	"testing"
)

// FTSRowCount follows every insert and delete as a count of the chunks does.
func TestFTSRowCountFollowsWrites(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	check := func(step string) {
		t.Helper()
		got, err := db.FTSRowCount(ctx)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if want := count(t, db, "SELECT count(*) FROM chunks"); got != want {
			t.Fatalf("%s: FTSRowCount = %d, chunks = %d", step, got, want)
		}
	}
	check("empty")
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.EnsureProject(ctx, "/other")
	if err != nil {
		t.Fatal(err)
	}
	var files []FileRecord
	for i := range 40 {
		files = append(files, record(fmt.Sprintf("f%d.go", i), "A", "B", "C"))
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files}); err != nil {
		t.Fatal(err)
	}
	check("first batch")
	if _, err := db.WriteBatch(ctx, q.ID, "m", Batch{Files: files[:5]}); err != nil {
		t.Fatal(err)
	}
	check("second project")
	changed := record("f1.go", "X")
	changed.SHA256 = "changed"
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{changed}, Removed: []string{"f2.go", "f3.go"}}); err != nil {
		t.Fatal(err)
	}
	check("replace and remove")
}

// FTSMatchWeighted ranks and scores as FTSMatch does.
func TestFTSMatchWeightedAgreesWithFTSMatch(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, _ := db.EnsureProject(ctx, "/proj")
	var files []FileRecord
	for i := range 30 {
		names := []string{"parseValue", "other"}
		if i%3 == 0 {
			names = append(names, "value")
		}
		files = append(files, record(fmt.Sprintf("v%d.go", i), names...))
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files}); err != nil {
		t.Fatal(err)
	}
	w := FTSWeights{Name: 5, Path: 2, Body: 1}
	for _, pid := range []int64{0, p.ID} {
		for _, limit := range []int{0, 7} {
			all, err := db.FTSMatch(ctx, pid, IDRange{}, `"value"`, w, limit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := db.FTSMatchWeighted(ctx, pid, IDRange{}, `"value"`, w, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) == 0 || len(got) != len(all) {
				t.Fatalf("project %d limit %d: %d hits, FTSMatch %d", pid, limit, len(got), len(all))
			}
			for i := range got {
				if got[i].ID != all[i].ID || got[i].Weighted != all[i].Weighted || got[i].Name != 0 {
					t.Fatalf("project %d limit %d hit %d: %+v, FTSMatch %+v", pid, limit, i, got[i], all[i])
				}
			}
		}
	}
}

func TestSQLiteVarint(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want uint64
		ok   bool
	}{
		{[]byte{0x00}, 0, true},
		{[]byte{0x7f}, 127, true},
		{[]byte{0x81, 0x00}, 128, true},
		{[]byte{0x82, 0x80, 0x01, 0xff}, 1<<15 | 1, true},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1<<64 - 1, true},
		{[]byte{0x81}, 0, false},
		{nil, 0, false},
	} {
		got, ok := sqliteVarint(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("sqliteVarint(%x) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
