// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema in the server named by CODECTX_TEST_PG (scripts/test.sh starts a
// throw-away server and sets it), dropped when the test ends.
//
// It is for tests only and must not be imported by product code.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Env names the variable holding the test server's DSN.
const Env = "CODECTX_TEST_PG"

// DSN returns the URL of a new, empty schema in the test server, or skips
// the test when no server is configured. A configured server that cannot
// be reached fails the test.
func DSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Skip("PostgreSQL store not tested: " + Env + " is not set (scripts/test.sh starts a throw-away server and sets it)")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", Env, err)
	}
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create a test schema in %s: %v", Env, err)
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
