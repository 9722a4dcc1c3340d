package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"codectx/internal/lang"
)

func TestPendingRecordRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		rels []pendingRel
	}{
		{"empty", nil},
		{"one", []pendingRel{{kind: "calls", srcSymbol: "pkg.F", target: "G", line: 3, srcChunk: 7}}},
		{"shared strings and odd values", []pendingRel{
			{kind: "calls", srcSymbol: "pkg.(*T).M", target: "Get", qualifier: "h", recv: "h.Header", line: 12, srcChunk: 1 << 40},
			{kind: "calls", srcSymbol: "pkg.(*T).M", target: "Get", qualifier: "h", recv: "h.Header", line: 13, srcChunk: 1 << 40},
			{kind: "references", srcSymbol: "", target: "x\x00y", line: -1, srcChunk: 0},
			{kind: "extends", srcSymbol: "C", target: "Base", qualifier: "mod", line: 0, srcChunk: -5},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodePending(encodePending(tt.rels), 42, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.rels) {
				t.Fatalf("decoded %d relations, want %d", len(got), len(tt.rels))
			}
			for i, r := range tt.rels {
				want := PendingEdge{EdgeRow: EdgeRow{FileID: 42, Kind: r.kind, SrcChunk: r.srcChunk, Target: r.target, Qualifier: r.qualifier, Recv: r.recv, Line: r.line}, SrcSymbol: r.srcSymbol}
				if !reflect.DeepEqual(got[i], want) {
					t.Errorf("relation %d: got %+v, want %+v", i, got[i], want)
				}
			}
		})
	}
}

func TestPendingRecordMalformed(t *testing.T) {
	good := encodePending([]pendingRel{{kind: "calls", srcSymbol: "F", target: "G", line: 2, srcChunk: 9}})
	cases := map[string][]byte{
		"empty":          {},
		"other format":   append([]byte{9}, good[1:]...),
		"truncated":      good[:len(good)-1],
		"trailing bytes": append(append([]byte{}, good...), 0),
		"string index":   {recordFormat, 1, 1, 'a', 1, 5, 0, 0, 0, 0, 0, 0},
		"huge table":     {recordFormat, 0xff, 0xff, 0xff, 0xff, 0x0f},
	}
	for name, b := range cases {
		if _, err := decodePending(b, 1, nil); !errors.Is(err, errRecord) {
			t.Errorf("%s: err %v, want errRecord", name, err)
		}
	}
}

func FuzzDecodePending(f *testing.F) {
	f.Add(encodePending([]pendingRel{{kind: "calls", srcSymbol: "F", target: "G", line: 2, srcChunk: 9}}))
	f.Add([]byte{recordFormat, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodePending(b, 1, nil)
		if err != nil {
			return
		}
		// What decodes encodes back to a record that decodes the same.
		rels := make([]pendingRel, len(got))
		for i, e := range got {
			rels[i] = pendingRel{kind: e.Kind, srcSymbol: e.SrcSymbol, target: e.Target, qualifier: e.Qualifier, recv: e.Recv, srcChunk: e.SrcChunk, line: e.Line}
		}
		again, err := decodePending(encodePending(rels), 1, nil)
		if err != nil || !reflect.DeepEqual(again, got) && len(got) > 0 {
			t.Fatalf("re-encoded record: %v, %+v, want %+v", err, again, got)
		}
	})
}

// TestPendingRelations writes relations as pending records, reads them
// back, inserts them resolved, and checks that clearing a file, removing
// it and deleting the project drop its records.
func TestPendingRelations(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	a := record("a.go", "A1", "A2")
	a.Relations = append(a.Relations, lang.Relation{Kind: lang.RelImports, Target: "fmt", Line: 1})
	files := []FileRecord{a, record("b.go", "B1", "B2"), record("c.go", "C1", "C2")}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files, PendingRelations: true}); err != nil {
		t.Fatal(err)
	}
	// Only the import is a row; the calls wait, one record per file.
	if n := count(t, db, "SELECT count(*) FROM relations"); n != 1 {
		t.Errorf("relations rows = %d, want 1 (the import)", n)
	}
	if n := count(t, db, "SELECT count(*) FROM relations_pending"); n != 3 {
		t.Errorf("pending records = %d, want 3", n)
	}
	read := func() map[int64][]PendingEdge {
		t.Helper()
		out := map[int64][]PendingEdge{}
		if err := db.ForEachPendingFile(ctx, p.ID, func(id int64, edges []PendingEdge) error {
			out[id] = append([]PendingEdge(nil), edges...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := read()
	if len(got) != 3 {
		t.Fatalf("pending files = %d, want 3", len(got))
	}
	var aID int64
	for id, edges := range got {
		if len(edges) != 1 || edges[0].Kind != string(lang.RelCalls) || edges[0].SrcChunk == 0 {
			t.Errorf("file %d: edges %+v, want one call with its source chunk", id, edges)
		}
		if edges[0].SrcSymbol == "A1" {
			aID = id
		}
	}
	// Resolving a's edge inserts it with its target and drops the record.
	e := got[aID][0]
	if err := db.InsertResolved(ctx, p.ID, []int64{aID}, []ResolvedRelation{{PendingEdge: e, DstChunk: e.SrcChunk, Resolution: ResExact, Detail: "d"}}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "SELECT count(*) FROM relations WHERE kind = 'calls' AND src_symbol = 'A1' AND target = 'A2' AND dst_chunk = ? AND resolution = 'exact' AND detail = 'd' AND line = 1", e.SrcChunk); n != 1 {
		t.Errorf("resolved row missing (%d)", n)
	}
	if got := read(); len(got) != 2 || got[aID] != nil {
		t.Errorf("pending after InsertResolved: %v", got)
	}
	// Re-writing b and removing c drop their records.
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("b.go", "B1")}, Removed: []string{"c.go"}, PendingRelations: true}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "SELECT count(*) FROM relations_pending"); n != 0 {
		t.Errorf("pending records after rewrite and removal = %d, want 0", n)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("d.go", "D1", "D2")}, PendingRelations: true}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "SELECT count(*) FROM relations_pending"); n != 0 {
		t.Errorf("pending records after DeleteProject = %d, want 0", n)
	}
}

func TestPendingRecordCorruptIsError(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "A1", "A2")}, PendingRelations: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.Exec("UPDATE relations_pending SET data = x'01ff'"); err != nil {
		t.Fatal(err)
	}
	err = db.ForEachPendingFile(ctx, p.ID, func(int64, []PendingEdge) error { return nil })
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("err %v, want ErrCorrupt", err)
	}
}
