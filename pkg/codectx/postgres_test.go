package codectx

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"codectx/internal/pgtest"
)

// TestPostgresAnswersEqualSQLite indexes the same fixture into a SQLite
// file and into PostgreSQL (CODECTX_TEST_PG) and requires search, context
// and graph answers to be the same.
func TestPostgresAnswersEqualSQLite(t *testing.T) {
	dsn := pgtest.DSN(t)
	// Local derived indexes of a PostgreSQL project (grep's) go to the
	// user's cache directory: a temporary one here.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := copyFixture(t, "shop")
	open := func(db string) *Project {
		p, err := Open(root, Options{DBPath: db, Config: &Config{Threads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		if _, err := p.Index(context.Background(), IndexOptions{}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sq, pg := open(filepath.Join(t.TempDir(), "index.db")), open(dsn)
	ctx := context.Background()
	type ask struct {
		name string
		run  func(p *Project) (any, error)
	}
	var asks []ask
	for _, q := range []string{"show an item", "discounted price", "store lookup by id", "count the stock", "missing item message"} {
		for _, mode := range []string{"hybrid", "keyword", "semantic"} {
			asks = append(asks, ask{"search " + mode + " " + q, func(p *Project) (any, error) {
				return p.Search(ctx, SearchOptions{Query: q, K: 10, Mode: mode})
			}})
		}
		asks = append(asks, ask{"context " + q, func(p *Project) (any, error) {
			return p.Context(ctx, ContextOptions{Query: q, Budget: 3000})
		}})
	}
	for _, n := range []string{"Show", "Store", "Store.Lookup", "Item.Discounted", "Price"} {
		for _, dir := range []string{"both", "in", "out"} {
			asks = append(asks, ask{"graph " + dir + " " + n, func(p *Project) (any, error) {
				return p.Graph(ctx, GraphOptions{Name: n, Direction: dir, Depth: 2})
			}})
		}
	}
	answered := 0
	for _, a := range asks {
		w, werr := a.run(sq)
		if werr == nil {
			answered++
		}
		g, gerr := a.run(pg)
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(g)
		if (werr == nil) != (gerr == nil) || string(wj) != string(gj) {
			t.Errorf("%s:\nsqlite:   %s (%v)\npostgres: %s (%v)", a.name, wj, werr, gj, gerr)
		}
	}
	// A subdirectory resolves to the project indexed in PostgreSQL.
	if got, err := FindRoot(ctx, filepath.Join(root, "store"), dsn); err != nil || got != root {
		t.Errorf("FindRoot(store) on PostgreSQL = %q, %v; want %q", got, err, root)
	}
	// Not a comparison of two errors: most questions have answers.
	if answered < len(asks)*3/4 {
		t.Errorf("only %d of %d questions answered", answered, len(asks))
	}
}
