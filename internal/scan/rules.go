package scan

import (
	"context"
	"fmt"
	"io/fs"
)

// CodectxIgnoreLines returns the rules of every .codectxignore file the
// scanner would read under root (root first, then nested files, parents
// before children) as gitignore lines relative to the root, in precedence
// order: a later line overrides an earlier one. Handing them to a tool as one
// ignore file (ripgrep's --ignore-file) reproduces the scanner's
// .codectxignore decisions. It walks directories only (the scanner's
// directory rules apply), reading no other file.
func CodectxIgnoreLines(ctx context.Context, root string) ([]string, error) {
	abs, err := checkRoot(root)
	if err != nil {
		return nil, err
	}
	fsys := dirFS(abs)
	gi := newIgnoreTree(fsys, GitIgnoreFile)
	cx := newIgnoreTree(fsys, CodectxIgnoreFile)
	var lines []string
	n := 0
	err = fs.WalkDir(fsys, ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if n++; n%64 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("scan %s: %w", abs, err)
			}
		}
		dir := rel
		if rel == "." {
			dir = ""
		} else if skipDir(abs, rel, cx) || gi.matchOne(rel, true) || cx.matchOne(rel, true) {
			return fs.SkipDir
		}
		for _, p := range cx.patterns(dir) {
			lines = append(lines, p.Rooted(dir))
		}
		return nil
	})
	return lines, err
}
