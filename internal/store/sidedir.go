package store

import "os"

// SideDir is the directory of the side files kept next to the database
// file dbPath (SideFilePath's directory). Other derived indexes that need
// no database row (the grep trigram index) live there too, so a command
// can find them without opening the database.
func SideDir(dbPath string) string { return dbPath + ".vectors" }

// MapFile maps an open file read-only (or reads it whole where mapping is
// not available); Close releases it.
func MapFile(f *os.File) (*MappedFile, error) { return mapFile(f) }
