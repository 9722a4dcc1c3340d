package store

import "context"

// IndexedRoots lists the roots of the projects that finished at least one
// index run, sorted.
func (db *DB) IndexedRoots(ctx context.Context) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT root FROM projects WHERE indexed_at > 0 ORDER BY root")
	if err != nil {
		return nil, db.classify("list projects", err)
	}
	defer rows.Close()
	var roots []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, db.classify("list projects", err)
		}
		roots = append(roots, r)
	}
	return roots, db.classify("list projects", rows.Err())
}
