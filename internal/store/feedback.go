package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Judgement is one recorded up/down vote on a search result for a query.
// Results are remembered by path and symbol, which survive re-indexing.
type Judgement struct {
	ID        int64  `json:"id"`
	Query     string `json:"query"`
	QueryKey  string `json:"query_key"`
	Path      string `json:"path"`
	Symbol    string `json:"symbol"`
	Vote      int    `json:"vote"` // +1 up, -1 down
	CreatedAt int64  `json:"created_at"`
}

// What RecordJudgement did.
const (
	JudgementAdded     = "added"     // a new vote
	JudgementChanged   = "changed"   // replaced the opposite vote on the same result
	JudgementUnchanged = "unchanged" // the same vote was already recorded
)

// RecordJudgement records a vote: one per (query key, path, symbol), so the
// same vote twice is stored once and the opposite vote replaces it. It
// returns what it did.
func (db *DB) RecordJudgement(ctx context.Context, projectID int64, j Judgement) (string, error) {
	status := JudgementAdded
	err := db.inTx(ctx, "record feedback", func(tx *sql.Tx) error {
		var id int64
		var vote int
		err := tx.QueryRowContext(ctx, "SELECT id, vote FROM feedback WHERE project_id = ? AND query_key = ? AND path = ? AND symbol = ? ORDER BY id DESC LIMIT 1",
			projectID, j.QueryKey, j.Path, j.Symbol).Scan(&id, &vote)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			_, err = tx.ExecContext(ctx, "INSERT INTO feedback(project_id, query, query_key, path, symbol, vote, created_at) VALUES (?,?,?,?,?,?,?)",
				projectID, j.Query, j.QueryKey, j.Path, j.Symbol, j.Vote, time.Now().Unix())
			return err
		case err != nil:
			return err
		case vote == j.Vote:
			status = JudgementUnchanged
			return nil
		}
		status = JudgementChanged
		// Older databases may hold repeated rows: keep only the newest.
		if _, err := tx.ExecContext(ctx, "DELETE FROM feedback WHERE project_id = ? AND query_key = ? AND path = ? AND symbol = ? AND id <> ?",
			projectID, j.QueryKey, j.Path, j.Symbol, id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE feedback SET vote = ?, query = ?, created_at = ? WHERE id = ?", j.Vote, j.Query, time.Now().Unix(), id)
		return err
	})
	return status, err
}

// ChunkBySymbol returns the first chunk (in line order) of path with the
// symbol, false when there is none.
func (db *DB) ChunkBySymbol(ctx context.Context, projectID int64, path, symbol string) (GraphChunk, bool, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT "+graphChunkCols+", content FROM chunks WHERE project_id = ? AND path = ? AND symbol = ? ORDER BY start_line, id LIMIT 1",
		projectID, path, symbol)
	if err != nil {
		return GraphChunk{}, false, db.classify("look up chunk", err)
	}
	list, err := scanGraphChunks(rows, true)
	if err != nil || len(list) == 0 {
		return GraphChunk{}, false, db.classify("look up chunk", err)
	}
	return list[0], true, nil
}

// Judgements lists a project's votes, newest first; with key set, only those for that query key.
func (db *DB) Judgements(ctx context.Context, projectID int64, key string) ([]Judgement, error) {
	q := "SELECT id, query, query_key, path, symbol, vote, created_at FROM feedback WHERE project_id = ?"
	args := []any{projectID}
	if key != "" {
		q += " AND query_key = ?"
		args = append(args, key)
	}
	rows, err := db.sql.QueryContext(ctx, q+" ORDER BY id DESC", args...)
	if err != nil {
		return nil, db.classify("read feedback", err)
	}
	defer rows.Close()
	var out []Judgement
	for rows.Next() {
		var j Judgement
		if err := rows.Scan(&j.ID, &j.Query, &j.QueryKey, &j.Path, &j.Symbol, &j.Vote, &j.CreatedAt); err != nil {
			return nil, db.classify("read feedback", err)
		}
		out = append(out, j)
	}
	return out, db.classify("read feedback", rows.Err())
}

// ClearJudgements removes every vote of a project and returns how many.
func (db *DB) ClearJudgements(ctx context.Context, projectID int64) (int64, error) {
	res, err := db.sql.ExecContext(ctx, "DELETE FROM feedback WHERE project_id = ?", projectID)
	if err != nil {
		return 0, db.classify("clear feedback", err)
	}
	return res.RowsAffected()
}

// VoteKey is the map key FeedbackVotes uses for a result.
func VoteKey(path, symbol string) string { return path + "\x00" + symbol }

// SplitVoteKey is the inverse of VoteKey.
func SplitVoteKey(key string) (path, symbol string) {
	path, symbol, _ = strings.Cut(key, "\x00")
	return path, symbol
}

// FeedbackVotes sums the votes per result (VoteKey) for one query key.
func (db *DB) FeedbackVotes(ctx context.Context, projectID int64, key string) (map[string]int, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT path, symbol, sum(vote) FROM feedback WHERE project_id = ? AND query_key = ? GROUP BY path, symbol", projectID, key)
	if err != nil {
		return nil, db.classify("read feedback", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var p, s string
		var v int
		if err := rows.Scan(&p, &s, &v); err != nil {
			return nil, db.classify("read feedback", err)
		}
		if v != 0 {
			out[VoteKey(p, s)] = v
		}
	}
	return out, db.classify("read feedback", rows.Err())
}

// HasChunk reports whether a project has a chunk with that path and symbol.
func (db *DB) HasChunk(ctx context.Context, projectID int64, path, symbol string) (bool, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM chunks WHERE project_id = ? AND path = ? AND symbol = ?", projectID, path, symbol).Scan(&n)
	return n > 0, db.classify("find chunk", err)
}

// ErrNoChunk is returned when no chunk matches a path and line.
var ErrNoChunk = errors.New("no such chunk")

// ChunkAtLine returns the symbol of the innermost chunk of path containing line.
func (db *DB) ChunkAtLine(ctx context.Context, projectID int64, path string, line int) (string, error) {
	var sym string
	err := db.sql.QueryRowContext(ctx, `SELECT c.symbol FROM chunks c JOIN files f ON f.id = c.file_id
		WHERE f.project_id = ? AND f.path = ? AND c.start_line <= ? AND c.end_line >= ?
		ORDER BY c.start_line DESC, c.end_line ASC LIMIT 1`, projectID, path, line, line).Scan(&sym)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("%w: no indexed chunk of %s contains line %d", ErrNoChunk, path, line)
	}
	return sym, db.classify("find chunk", err)
}
