package store

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// SideDir is the directory of the side files kept next to the database
// file dbPath (SideFilePath's directory). Other derived indexes that need
// no database row (the grep trigram index) live there too, so a command
// can find them without opening the database. A PostgreSQL database has no
// directory: its side files are rows, and the local derived indexes of a
// machine go to the user's cache directory, under a name derived from the
// DSN (without its password).
func SideDir(dbPath string) string {
	if IsPostgres(dbPath) {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		sum := sha256.Sum256([]byte(redactDSN(dbPath)))
		return filepath.Join(base, "codectx", "pg-"+hex.EncodeToString(sum[:8]))
	}
	return dbPath + ".vectors"
}

// MapFile maps an open file read-only (or reads it whole where mapping is
// not available); Close releases it.
func MapFile(f *os.File) (*MappedFile, error) { return mapFile(f) }
