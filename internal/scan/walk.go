package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"unicode/utf8"
)

// walk fills the scanner by walking the tree (outside git, or when git
// failed), applying .gitignore files (root and nested) the way git does, then
// the same rules as the git path.
func (s *scanner) walk() error {
	gi := newIgnoreTree(s.fsys, GitIgnoreFile)
	n := 0
	err := fs.WalkDir(s.fsys, ".", func(rel string, d fs.DirEntry, err error) error {
		if rel == "." {
			if err != nil {
				return fmt.Errorf("scan %s: %w", s.root, err)
			}
			if s.opts.OnDir != nil {
				s.opts.OnDir(rel)
			}
			return nil
		}
		if err != nil {
			if d != nil && d.IsDir() {
				// The second call for a directory that could not be read.
				s.skipped = append(s.skipped, Skip{Path: rel + "/", Reason: ReasonUnreadable})
				return nil
			}
			if errors.Is(err, fs.ErrNotExist) {
				return nil // vanished during the walk
			}
			s.skipped = append(s.skipped, Skip{Path: rel, Reason: err.Error()})
			return nil
		}
		if n++; n%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return fmt.Errorf("scan %s: %w", s.root, err)
			}
		}
		if d.IsDir() {
			if !s.towardSub(rel) || gi.matchOne(rel, true) || s.cx.matchOne(rel, true) {
				return fs.SkipDir
			}
			if skipDir(s.root, rel, s.cx) {
				s.noteSkippedDir(rel)
				return fs.SkipDir
			}
			if !utf8.ValidString(d.Name()) {
				s.skipBadName(rel, true)
				return fs.SkipDir
			}
			if s.opts.OnDir != nil {
				s.opts.OnDir(rel)
			}
			return nil
		}
		if !s.inSub(rel) || gi.matchOne(rel, false) || s.cx.matchOne(rel, false) || !s.keepName(rel) {
			return nil
		}
		if !utf8.ValidString(d.Name()) {
			s.skipBadName(rel, false)
			return nil
		}
		fi, err := d.Info() // lstat
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				s.skipped = append(s.skipped, Skip{Path: rel, Reason: err.Error()})
			}
			return nil
		}
		s.add(rel, fi)
		return nil
	})
	return err
}
