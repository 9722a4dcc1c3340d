package codectx

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"codectx/internal/scan"
	"codectx/internal/store"
)

// FindRoot returns the project that dir belongs to: the nearest directory at
// or above dir that is an indexed project root in the database at dbPath
// ("" means the default database of ConfigFromEnv(os.Getenv)), else the
// top of the git work tree holding dir, else dir itself. The result is
// absolute. It creates nothing: a missing database is simply not consulted.
func FindRoot(ctx context.Context, dir, dbPath string) (string, error) {
	abs, err := ResolveRoot(dir)
	if err != nil {
		return "", err
	}
	if dbPath == "" {
		cfg, err := envConfig()
		if err != nil {
			return "", err
		}
		if dbPath, err = cfg.DBPath(); err != nil {
			return "", err
		}
	}
	if roots := indexedRoots(ctx, dbPath); len(roots) > 0 {
		if r := nearestRoot(abs, roots); r != "" {
			return r, nil
		}
	}
	if top := scan.GitDir(abs); top != "" {
		if r, err := filepath.EvalSymlinks(top); err == nil {
			return r, nil
		}
		return top, nil
	}
	return abs, nil
}

// indexedRoots lists the indexed roots of an existing database; any failure
// (no file, unreadable, corrupt) means none: the caller falls back.
func indexedRoots(ctx context.Context, dbPath string) []string {
	if st, err := os.Stat(dbPath); !store.IsPostgres(dbPath) && (err != nil || st.IsDir()) {
		return nil
	}
	db, err := store.Open(ctx, dbPath, store.Options{ReadOnly: true})
	if err != nil {
		return nil
	}
	defer db.Close()
	roots, err := db.IndexedRoots(ctx)
	if err != nil {
		return nil
	}
	return roots
}

// nearestRoot is the longest root that is dir or one of its ancestors.
func nearestRoot(dir string, roots []string) string {
	best := ""
	for _, r := range roots {
		if (dir == r || strings.HasPrefix(dir, r+string(filepath.Separator)) || r == string(filepath.Separator)) && len(r) > len(best) {
			best = r
		}
	}
	return best
}
