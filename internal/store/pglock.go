package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// pgLock is the PostgreSQL backend's writer lock: a session advisory lock
// keyed by the project root, held on a connection taken out of the pool
// for as long as the lock is held. PostgreSQL releases it when that
// session ends, however the holder died. The holder's name is kept in the
// writers table for the processes that wait.
type pgLock struct {
	db   *DB
	conn *sql.Conn
	key  int64
	root string
	held bool
}

func (db *DB) pgWriterLock(ctx context.Context, root string) (*pgLock, error) {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, db.classify("writer lock "+root, err)
	}
	return &pgLock{db: db, conn: conn, key: advisoryKey("writer:" + db.pgSchema + ":" + root), root: root}, nil
}

func (l *pgLock) try(ctx context.Context) (bool, error) {
	var ok bool
	if err := l.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(?)", l.key).Scan(&ok); err != nil {
		return false, err
	}
	l.held = ok
	return ok, nil
}

func (l *pgLock) holder(ctx context.Context) (Holder, bool) {
	var h Holder
	var s string
	if err := l.db.sql.QueryRowContext(ctx, "SELECT holder FROM writers WHERE root = ?", l.root).Scan(&s); err != nil {
		return Holder{}, false
	}
	if json.Unmarshal([]byte(s), &h) != nil || h.PID == 0 {
		return Holder{}, false
	}
	return h, true
}

func (l *pgLock) record(ctx context.Context, h Holder) {
	b, _ := json.Marshal(h)
	// Best effort: only used to name the holder.
	_, _ = l.conn.ExecContext(ctx, `INSERT INTO writers(root, holder) VALUES (?, ?)
		ON CONFLICT (root) DO UPDATE SET holder = excluded.holder`, l.root, string(b))
}

func (l *pgLock) where() string { return fmt.Sprintf("%s (advisory lock %d)", l.db.display, l.key) }

func (l *pgLock) release() error {
	if l.conn == nil {
		return nil
	}
	var err error
	if l.held {
		ctx := context.Background()
		_, _ = l.conn.ExecContext(ctx, "DELETE FROM writers WHERE root = ?", l.root)
		_, err = l.conn.ExecContext(ctx, "SELECT pg_advisory_unlock(?)", l.key)
		if err != nil {
			// Never hand a session that may still hold the lock back to
			// the pool: a bad connection is closed instead.
			_ = l.conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}
	if cerr := l.conn.Close(); err == nil {
		err = cerr
	}
	l.conn = nil
	return err
}
