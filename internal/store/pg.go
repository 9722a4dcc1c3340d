package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// This file holds what the PostgreSQL backend does differently from SQLite
// at the connection level: opening a DSN, the driver wrapper that rewrites
// the package's "?" placeholders to "$n", the schema and its migrations
// (one transaction under an advisory lock) and error classification. The
// queries themselves are shared: every method of DB runs the same SQL on
// both backends except where a dialect branch says otherwise (full-text
// postings in pgfts.go, the writer lock in pglock.go).

// IsPostgres reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(path string) bool {
	return strings.HasPrefix(path, "postgres://") || strings.HasPrefix(path, "postgresql://")
}

// redactDSN hides the password of a PostgreSQL URL.
func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://…"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// openPG opens and (unless read-only) migrates a PostgreSQL database.
func openPG(ctx context.Context, dsn string, opt Options) (*DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", redactDSN(dsn), err)
	}
	if opt.ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	cfg.RuntimeParams["application_name"] = "codectx"
	// Term frequencies are skewed (a path token matches every chunk, a
	// name a handful): a plan made for one term must not be reused for
	// another, so every execution is planned with its parameters.
	cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	sdb := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)})
	sdb.SetMaxIdleConns(8)
	db := &DB{sql: sdb, path: dsn, display: redactDSN(dsn), readOnly: opt.ReadOnly, pg: true}
	if err := db.migratePG(ctx, opt); err != nil {
		sdb.Close()
		return nil, err
	}
	// Advisory locks are per database; the schema (search_path) tells two
	// codectx indexes of one database apart.
	if err := sdb.QueryRowContext(ctx, "SELECT current_schema()").Scan(&db.pgSchema); err != nil {
		sdb.Close()
		return nil, db.classify("open index", err)
	}
	return db, nil
}

// pgConnector wraps pgx's database/sql connector so that every statement
// the package writes with SQLite's "?" and "?NNN" placeholders reaches
// PostgreSQL as "$n".
type pgConnector struct{ driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{conn}, nil
}

// pgConn delegates to pgx's *stdlib.Conn, rewriting placeholders.
type pgConn struct{ driver.Conn }

func (c *pgConn) Prepare(q string) (driver.Stmt, error) { return c.Conn.Prepare(rebind(q)) }

func (c *pgConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, rebind(q))
}

func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *pgConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, rebind(q), args)
}

func (c *pgConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, rebind(q), args)
}

func (c *pgConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.Conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

func (c *pgConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *pgConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// rebind rewrites "?" placeholders to "$1", "$2", … in order and "?NNN" to
// "$NNN", leaving quoted strings, quoted identifiers and comments alone.
func rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch c {
		case '\'', '"':
			j := i + 1
			for j < len(q) && q[j] != c {
				j++
			}
			if j >= len(q) {
				j = len(q) - 1
			}
			b.WriteString(q[i : j+1])
			i = j
		case '-':
			if i+1 < len(q) && q[i+1] == '-' {
				j := strings.IndexByte(q[i:], '\n')
				if j < 0 {
					j = len(q) - i
				}
				b.WriteString(q[i : i+j])
				i += j - 1
				continue
			}
			b.WriteByte(c)
		case '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			if j > i+1 {
				b.WriteString("$" + q[i+1:j])
				i = j - 1
				continue
			}
			n++
			fmt.Fprintf(&b, "$%d", n)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// advisoryKey maps a name to a 64-bit advisory lock key.
func advisoryKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte("codectx:" + name))
	return int64(h.Sum64())
}

// pgSchemaVersion is the PostgreSQL schema's version: the number of steps
// of pgMigrations. It counts apart from SQLite's SchemaVersion (the first
// PostgreSQL step creates what SQLite's five steps built); a schema change
// appends a step to both lists.
var pgSchemaVersion = len(pgMigrations)

// pgMigrations are the PostgreSQL schema steps, applied in order, each
// idempotent. Text compared or ordered by the queries uses the C collation,
// so ORDER BY path and symbol prefix ranges follow byte order as in SQLite.
var pgMigrations = []string{`
CREATE TABLE IF NOT EXISTS projects (
	id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	root        TEXT COLLATE "C" NOT NULL UNIQUE,
	model       TEXT NOT NULL DEFAULT '',
	indexed_at  BIGINT NOT NULL DEFAULT 0,
	dirty       INTEGER NOT NULL DEFAULT 0,
	generation  BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS files (
	id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	project_id  BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	path        TEXT COLLATE "C" NOT NULL,
	lang        TEXT COLLATE "C" NOT NULL,
	size        BIGINT NOT NULL,
	mtime       BIGINT NOT NULL,
	sha256      TEXT NOT NULL,
	model       TEXT NOT NULL,
	fallback    INTEGER NOT NULL DEFAULT 0,
	indexed_at  BIGINT NOT NULL,
	parser      TEXT NOT NULL DEFAULT '',
	UNIQUE(project_id, path)
);
CREATE SEQUENCE IF NOT EXISTS chunk_ids;
CREATE TABLE IF NOT EXISTS chunks (
	id          BIGINT PRIMARY KEY,
	project_id  BIGINT NOT NULL,
	file_id     BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	path        TEXT COLLATE "C" NOT NULL,
	lang        TEXT COLLATE "C" NOT NULL,
	kind        TEXT COLLATE "C" NOT NULL,
	name        TEXT COLLATE "C" NOT NULL,
	symbol      TEXT COLLATE "C" NOT NULL,
	short       TEXT COLLATE "C" NOT NULL,
	start_line  INTEGER NOT NULL,
	end_line    INTEGER NOT NULL,
	container   TEXT COLLATE "C" NOT NULL,
	extends     TEXT NOT NULL,
	implements  TEXT NOT NULL,
	decorators  TEXT NOT NULL,
	content     TEXT NOT NULL,
	model       TEXT NOT NULL,
	text_hash   BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id);
CREATE INDEX IF NOT EXISTS chunks_project_symbol ON chunks(project_id, symbol);
CREATE INDEX IF NOT EXISTS chunks_project_short ON chunks(project_id, short);
CREATE TABLE IF NOT EXISTS vectors (
	model       TEXT NOT NULL,
	text_hash   BYTEA NOT NULL,
	vec         BYTEA NOT NULL,
	PRIMARY KEY(model, text_hash)
);
CREATE TABLE IF NOT EXISTS relations (
	id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	project_id  BIGINT NOT NULL,
	file_id     BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	kind        TEXT COLLATE "C" NOT NULL,
	src_chunk   BIGINT,
	src_symbol  TEXT COLLATE "C" NOT NULL,
	target      TEXT COLLATE "C" NOT NULL,
	qualifier   TEXT COLLATE "C" NOT NULL,
	line        INTEGER NOT NULL,
	dst_chunk   BIGINT,
	resolution  TEXT COLLATE "C" NOT NULL DEFAULT '',
	detail      TEXT COLLATE "C" NOT NULL DEFAULT '',
	recv        TEXT COLLATE "C" NOT NULL DEFAULT '',
	derived     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS relations_file ON relations(file_id);
CREATE INDEX IF NOT EXISTS relations_src ON relations(src_chunk);
CREATE INDEX IF NOT EXISTS relations_dst ON relations(dst_chunk);
CREATE INDEX IF NOT EXISTS relations_target ON relations(project_id, target);
CREATE INDEX IF NOT EXISTS relations_src_symbol ON relations(project_id, src_symbol);
CREATE TABLE IF NOT EXISTS typefacts (
	rowid       BIGINT GENERATED ALWAYS AS IDENTITY,
	project_id  BIGINT NOT NULL,
	file_id     BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	kind        TEXT COLLATE "C" NOT NULL,
	owner       TEXT COLLATE "C" NOT NULL,
	name        TEXT COLLATE "C" NOT NULL,
	type        TEXT COLLATE "C" NOT NULL,
	sig         TEXT COLLATE "C" NOT NULL
);
CREATE INDEX IF NOT EXISTS typefacts_file ON typefacts(file_id);
CREATE INDEX IF NOT EXISTS typefacts_project ON typefacts(project_id);
CREATE TABLE IF NOT EXISTS feedback (
	id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	project_id  BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	query       TEXT NOT NULL,
	query_key   TEXT COLLATE "C" NOT NULL,
	path        TEXT COLLATE "C" NOT NULL,
	symbol      TEXT COLLATE "C" NOT NULL,
	vote        INTEGER NOT NULL,
	created_at  BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS feedback_key ON feedback(project_id, query_key);
CREATE TABLE IF NOT EXISTS embedding_models (
	model       TEXT PRIMARY KEY,
	dims        INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS fts_postings (
	term        TEXT COLLATE "C" NOT NULL,
	chunk_id    BIGINT NOT NULL,
	project_id  BIGINT NOT NULL,
	doclen      INTEGER NOT NULL,
	tf_name     INTEGER NOT NULL,
	tf_path     INTEGER NOT NULL,
	tf_body     INTEGER NOT NULL,
	pos_name    INTEGER[],
	pos_path    INTEGER[],
	pos_body    INTEGER[],
	-- A term's postings are read from the index alone (positions only for phrases).
	PRIMARY KEY(term, chunk_id) INCLUDE (project_id, doclen, tf_name, tf_path, tf_body)
);
CREATE INDEX IF NOT EXISTS fts_postings_chunk ON fts_postings(chunk_id);
CREATE TABLE IF NOT EXISTS fts_docs (
	chunk_id    BIGINT PRIMARY KEY,
	project_id  BIGINT NOT NULL,
	len         INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS fts_stats (
	project_id  BIGINT PRIMARY KEY,
	rows        BIGINT NOT NULL,
	tokens      BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS side_files (
	project_id  BIGINT NOT NULL,
	kind        TEXT NOT NULL,
	name        TEXT NOT NULL,
	data        BYTEA NOT NULL,
	PRIMARY KEY(project_id, kind)
);
CREATE TABLE IF NOT EXISTS writers (
	root        TEXT COLLATE "C" PRIMARY KEY,
	holder      TEXT NOT NULL
);
`, `
DROP INDEX IF EXISTS relations_dst;
CREATE INDEX IF NOT EXISTS relations_dst_kind ON relations(dst_chunk, kind, file_id, src_chunk);
`, `
CREATE TABLE IF NOT EXISTS relations_pending (
	file_id     BIGINT PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
	project_id  BIGINT NOT NULL,
	data        BYTEA NOT NULL
);
`, `
CREATE TABLE IF NOT EXISTS typefacts_files (
	file_id     BIGINT PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
	project_id  BIGINT NOT NULL,
	data        BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS typefacts_files_project ON typefacts_files(project_id);
DROP TABLE IF EXISTS typefacts;
UPDATE files SET parser = '';
`, relationIndexesSQL}

// migratePG brings the schema to pgSchemaVersion: the version is read
// without a lock first; otherwise one transaction takes a transaction-level
// advisory lock (concurrent starters queue on it), re-reads the version,
// applies the pending steps and records the new version. The version only
// ever moves up; a newer one is refused.
func (db *DB) migratePG(ctx context.Context, opt Options) error {
	v, err := db.pgVersion(ctx, db.sql)
	if err != nil {
		return db.classify("read schema version", err)
	}
	switch {
	case v > pgSchemaVersion:
		return db.newerSchemaN(v, pgSchemaVersion)
	case v == pgSchemaVersion:
		return nil
	case v == 0 && (opt.ReadOnly || opt.MustExist):
		return &NoIndexError{Path: db.display}
	case opt.ReadOnly:
		return fmt.Errorf("%s: database schema %d is older than %d and the database is opened read-only: %w", db.display, v, pgSchemaVersion, ErrOldSchema)
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return db.classify("migrate", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", advisoryKey("schema")); err != nil {
		return db.classify("migrate: take the schema lock", err)
	}
	if _, err := tx.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS codectx_schema (version INTEGER NOT NULL)"); err != nil {
		return db.classify("migrate", err)
	}
	if v, err = db.pgVersion(ctx, tx); err != nil {
		return db.classify("read schema version", err)
	}
	if v > pgSchemaVersion {
		return db.newerSchemaN(v, pgSchemaVersion)
	}
	for i := v; i < pgSchemaVersion; i++ {
		if _, err := tx.ExecContext(ctx, pgMigrations[i]); err != nil {
			return db.classify(fmt.Sprintf("migrate to PostgreSQL schema %d", i+1), err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM codectx_schema"); err != nil {
		return db.classify("migrate: set schema version", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO codectx_schema(version) VALUES (?)", pgSchemaVersion); err != nil {
		return db.classify("migrate: set schema version", err)
	}
	return db.classify("migrate", tx.Commit())
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// pgVersion reads the recorded schema version, 0 when there is none.
func (db *DB) pgVersion(ctx context.Context, q queryRower) (int, error) {
	var reg sql.NullString
	if err := q.QueryRowContext(ctx, "SELECT to_regclass('codectx_schema')::text").Scan(&reg); err != nil {
		return 0, err
	}
	if !reg.Valid {
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT max(version) FROM codectx_schema").Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

func (db *DB) newerSchemaN(v, known int) error {
	return fmt.Errorf("%s: %w (version %d, this build knows %d)", db.display, ErrNewerSchema, v, known)
}

// classifyPG maps PostgreSQL errors to the package's sentinel errors and
// wraps any other with op.
func (db *DB) classifyPG(op string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "25006": // read_only_sql_transaction
			return fmt.Errorf("%s: %s is %w", op, db.display, ErrReadOnly)
		case "55P03", "40P01": // lock_not_available, deadlock_detected
			return fmt.Errorf("%s: %w (%s): %s", op, ErrLocked, db.display, pe.Message)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}
