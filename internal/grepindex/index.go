package grepindex

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp/syntax"
	"sort"
	"sync"

	"codectx/internal/scan"
	"codectx/internal/store"
)

// ErrMalformed is returned by Open for a file that is not a grep index of
// this version (or is damaged); callers rebuild it or search without it.
var ErrMalformed = errors.New("malformed grep index")

// ErrOtherRoot is returned by Open when the index was built for another root.
var ErrOtherRoot = errors.New("grep index of another root")

// Index is an open grep index, read in place from a memory map.
type Index struct {
	m                                                *store.MappedFile
	d                                                []byte
	built                                            int64
	flags                                            uint64
	maxSize                                          int64
	root                                             string
	nFiles                                           int
	nDirs                                            int
	nTris                                            int
	filesAt, dirsAt, trisAt, postAt, blobAt, blobEnd uint64
}

// Open maps the index at path and checks that it was built for root (an
// absolute path). os.ErrNotExist when there is none.
func Open(path, root string) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := store.MapFile(f)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	ix, err := parse(m.Data)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ix.m = m
	if ix.root != root {
		m.Close()
		return nil, fmt.Errorf("%s: %w %s", path, ErrOtherRoot, ix.root)
	}
	return ix, nil
}

// Close unmaps the index.
func (ix *Index) Close() error {
	if ix == nil {
		return nil
	}
	return ix.m.Close()
}

// MaxFileSize is the size limit the index was built with.
func (ix *Index) MaxFileSize() int64 { return ix.maxSize }

// Files is the number of files the index lists.
func (ix *Index) Files() int { return ix.nFiles }

// Trigrams is the number of distinct trigrams the index holds.
func (ix *Index) Trigrams() int { return ix.nTris }

func parse(d []byte) (*Index, error) {
	if len(d) < headerSize || string(d[:len(magic)]) != magic {
		return nil, ErrMalformed
	}
	h := func(i int) uint64 { return binary.LittleEndian.Uint64(d[len(magic)+8*i:]) }
	ix := &Index{d: d, built: int64(h(0)), flags: h(1), maxSize: int64(h(2))}
	nf, nd, nt := h(3), h(4), h(5)
	root := h(6)
	ix.filesAt, ix.dirsAt, ix.trisAt, ix.postAt, ix.blobAt, ix.blobEnd = h(7), h(8), h(9), h(10), h(11), h(12)
	if ix.filesAt != uint64(headerSize) || nf > uint64(len(d))/fileRec || nd > uint64(len(d))/dirRec || nt > uint64(len(d))/triRec ||
		ix.dirsAt != ix.filesAt+nf*fileRec || ix.trisAt != ix.dirsAt+nd*dirRec || ix.postAt != ix.trisAt+nt*triRec ||
		ix.blobAt < ix.postAt || ix.blobEnd < ix.blobAt || ix.blobEnd != uint64(len(d)) {
		return nil, ErrMalformed
	}
	ix.nFiles, ix.nDirs, ix.nTris = int(nf), int(nd), int(nt)
	var ok bool
	if ix.root, ok = ix.str(uint32(root), uint32(root>>32)); !ok {
		return nil, ErrMalformed
	}
	prev := ""
	for i := 0; i < ix.nFiles; i++ {
		p, ok := ix.filePath(i)
		if !ok || (i > 0 && p <= prev) {
			return nil, ErrMalformed
		}
		prev = p
	}
	for i := 0; i < ix.nDirs; i++ {
		if _, ok := ix.dirPath(i); !ok {
			return nil, ErrMalformed
		}
	}
	var prevTri uint32
	for i := 0; i < ix.nTris; i++ {
		t, off, n := ix.triAt(i)
		if (i > 0 && t <= prevTri) || uint64(off) > ix.blobAt-ix.postAt || uint64(n) > uint64(ix.nFiles) {
			return nil, ErrMalformed
		}
		prevTri = t
	}
	return ix, nil
}

func (ix *Index) str(off, n uint32) (string, bool) {
	lo := ix.blobAt + uint64(off)
	hi := lo + uint64(n)
	if hi > ix.blobEnd {
		return "", false
	}
	return string(ix.d[lo:hi]), true
}

func (ix *Index) rec(at uint64, size, i int) []byte {
	o := at + uint64(i*size)
	return ix.d[o : o+uint64(size)]
}

func (ix *Index) filePath(i int) (string, bool) {
	r := ix.rec(ix.filesAt, fileRec, i)
	return ix.str(binary.LittleEndian.Uint32(r), binary.LittleEndian.Uint32(r[4:]))
}

// fileState is a file's recorded size, mtime and flags.
func (ix *Index) fileState(i int) (size, mtime int64, flags uint64) {
	r := ix.rec(ix.filesAt, fileRec, i)
	return int64(binary.LittleEndian.Uint64(r[8:])), int64(binary.LittleEndian.Uint64(r[16:])), binary.LittleEndian.Uint64(r[24:])
}

func (ix *Index) dirPath(i int) (string, bool) {
	r := ix.rec(ix.dirsAt, dirRec, i)
	return ix.str(binary.LittleEndian.Uint32(r), binary.LittleEndian.Uint32(r[4:]))
}

func (ix *Index) dirState(i int) (mtime int64, sig uint64) {
	r := ix.rec(ix.dirsAt, dirRec, i)
	return int64(binary.LittleEndian.Uint64(r[8:])), binary.LittleEndian.Uint64(r[16:])
}

func (ix *Index) triAt(i int) (tri, off, n uint32) {
	r := ix.rec(ix.trisAt, triRec, i)
	return binary.LittleEndian.Uint32(r), binary.LittleEndian.Uint32(r[4:]), binary.LittleEndian.Uint32(r[8:])
}

// postings returns the sorted ids of the files holding trigram t.
func (ix *Index) postings(t string) []uint32 {
	key := uint32(t[0])<<16 | uint32(t[1])<<8 | uint32(t[2])
	i := sort.Search(ix.nTris, func(i int) bool { tri, _, _ := ix.triAt(i); return tri >= key })
	if i == ix.nTris {
		return nil
	}
	if tri, _, _ := ix.triAt(i); tri != key {
		return nil
	}
	return ix.postingsAt(i)
}

// postingsAt returns the sorted file ids of the i-th trigram (ids past
// the file table end the list: a damaged file yields fewer, never more).
func (ix *Index) postingsAt(i int) []uint32 {
	_, off, n := ix.triAt(i)
	b := ix.d[ix.postAt+uint64(off) : ix.blobAt]
	out := make([]uint32, 0, n)
	var id uint64
	for k := uint32(0); k < n; k++ {
		v, w := binary.Uvarint(b)
		if w <= 0 {
			break
		}
		b = b[w:]
		if k == 0 {
			id = v
		} else {
			id += v
		}
		if id >= uint64(ix.nFiles) {
			break
		}
		out = append(out, uint32(id))
	}
	return out
}

// eval returns the ids of the files satisfying q, or all=true.
func (ix *Index) eval(q *Query) (ids []uint32, all bool) {
	switch q.Op {
	case QAll:
		return nil, true
	case QNone:
		return nil, false
	case QAnd:
		all = true
		for _, t := range q.Tri {
			p := ix.postings(t)
			if all {
				ids, all = p, false
			} else {
				ids = intersect(ids, p)
			}
			if len(ids) == 0 {
				return nil, false
			}
		}
		for _, s := range q.Sub {
			p, pall := ix.eval(s)
			if pall {
				continue
			}
			if all {
				ids, all = p, false
			} else {
				ids = intersect(ids, p)
			}
			if len(ids) == 0 {
				return nil, false
			}
		}
		return ids, all
	}
	for _, t := range q.Tri {
		ids = merge(ids, ix.postings(t))
	}
	for _, s := range q.Sub {
		p, pall := ix.eval(s)
		if pall {
			return nil, true
		}
		ids = merge(ids, p)
	}
	return ids, false
}

func intersect(a, b []uint32) []uint32 {
	out := a[:0:0]
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func merge(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// Selection is the files a search must read.
type Selection struct {
	Files []scan.File // sorted by path
	// Listed: the index's file list was trusted (no directory changed since
	// the build), so no directory was walked.
	Listed bool
	// Changed counts the files read because they changed since the build
	// (or could not be indexed), whatever their trigrams.
	Changed int
}

// Select returns the files under sub ("" for the root) that may hold a
// line matching expr (Go regexp syntax, one line), with the scanner's
// rules for maxFileSize: files whose trigrams allow a match, and every
// file changed or added since the build. ok is false when the pattern has
// no usable trigram (every file would be read) or the index does not fit
// (another size limit): the caller searches without it.
func (ix *Index) Select(ctx context.Context, expr, sub string, maxFileSize int64) (sel *Selection, ok bool, err error) {
	if maxFileSize != ix.maxSize {
		return nil, false, nil
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false, fmt.Errorf("grep index: %w", err)
	}
	q := RegexpQuery(re)
	if q.Op == QAll {
		return nil, false, nil
	}
	ids, all := ix.eval(q)
	hit := make([]bool, ix.nFiles)
	for _, id := range ids {
		hit[id] = true
	}
	if all {
		for i := range hit {
			hit[i] = true
		}
	}
	lo, hi := ix.scope(sub)
	if ix.listingValid(ctx) {
		st := ix.statFiles(ctx, lo, hi)
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		sel = &Selection{Listed: true}
		for i := lo; i < hi; i++ {
			s := st[i-lo]
			if s.gone {
				continue
			}
			p, _ := ix.filePath(i)
			changed := ix.changed(i, s.size, s.mtime)
			_, _, flags := ix.fileState(i)
			switch {
			case changed:
				sel.Changed++
			case flags&fileTooLarge != 0 || !hit[i]:
				continue
			}
			sel.Files = append(sel.Files, scan.File{Path: p, Abs: filepath.Join(ix.root, filepath.FromSlash(p)), Size: s.size, ModTime: s.mtime})
		}
		return sel, true, nil
	}
	res, err := scan.Scan(ctx, ix.root, scan.Options{AllFiles: true, MaxFileSize: maxFileSize, Sub: sub})
	if err != nil {
		return nil, false, fmt.Errorf("grep index: %w", err)
	}
	sel = &Selection{}
	for _, f := range res.Files {
		i, found := ix.find(f.Path)
		if found && !ix.changed(i, f.Size, f.ModTime) {
			if !hit[i] {
				continue
			}
		} else {
			sel.Changed++
		}
		sel.Files = append(sel.Files, f)
	}
	return sel, true, nil
}

// changed reports whether file i must be read whatever its trigrams: its
// size or mtime differ from the build's, its mtime is too close to the
// build to be trusted, or it could not be indexed.
func (ix *Index) changed(i int, size, mtime int64) bool {
	s, m, flags := ix.fileState(i)
	return s != size || m != mtime || mtime > ix.built-int64(racyWindow(ix.flags)) || flags&fileUnknown != 0
}

// scope is the range of file ids under sub.
func (ix *Index) scope(sub string) (lo, hi int) {
	if sub == "" || sub == "." {
		return 0, ix.nFiles
	}
	path := func(i int) string { p, _ := ix.filePath(i); return p }
	lo = sort.Search(ix.nFiles, func(i int) bool { return path(i) >= sub+"/" })
	hi = sort.Search(ix.nFiles, func(i int) bool { return path(i) >= sub+"0" }) // '0' follows '/'
	// A file named exactly sub (Path is a file) is searched by the caller itself.
	return lo, max(lo, hi)
}

func (ix *Index) find(p string) (int, bool) {
	i := sort.Search(ix.nFiles, func(i int) bool { q, _ := ix.filePath(i); return q >= p })
	if i < ix.nFiles {
		if q, _ := ix.filePath(i); q == p {
			return i, true
		}
	}
	return 0, false
}

// listingValid reports whether the recorded file list is still the
// scanner's: it came from a walk, the root still does not use git, and no
// directory the walk entered changed (an entry added, removed or renamed
// changes its mtime) nor any of their ignore files.
func (ix *Index) listingValid(ctx context.Context) bool {
	if ix.flags&flagWalked == 0 || scan.UsesGit(ix.root) {
		return false
	}
	bad := make([]bool, workers)
	parallel(ix.nDirs, func(w, i int) {
		if bad[w] || ctx.Err() != nil {
			return
		}
		p, _ := ix.dirPath(i)
		mt, err := dirMtime(ix.root, p)
		rmt, rsig := ix.dirState(i)
		// Adding or removing an ignore file changes the directory's mtime;
		// only ignore files that were there can change unnoticed.
		if err != nil || mt != rmt || mt > ix.built-int64(racyWindow(ix.flags)) || (rsig != 0 && ignoreSig(ix.root, p) != rsig) {
			bad[w] = true
		}
	})
	for _, b := range bad {
		if b {
			return false
		}
	}
	return ctx.Err() == nil
}

type statResult struct {
	size, mtime int64
	gone        bool
}

// statFiles lstats files lo..hi-1; a file that is no longer a regular
// file is gone.
func (ix *Index) statFiles(ctx context.Context, lo, hi int) []statResult {
	out := make([]statResult, hi-lo)
	st := make([]*statter, workers)
	for w := range st {
		st[w] = newStatter(ix.root)
	}
	parallel(hi-lo, func(w, k int) {
		if ctx.Err() != nil {
			return
		}
		p, _ := ix.filePath(lo + k)
		size, mtime, ok := st[w].lstat(p)
		out[k] = statResult{size: size, mtime: mtime, gone: !ok}
	})
	for _, s := range st {
		s.close()
	}
	return out
}

// workers stat in parallel: the calls wait on the kernel, not the CPU.
const workers = 4

// parallel calls fn(worker, i) for i in 0..n-1 from a few goroutines.
func parallel(n int, fn func(w, i int)) {
	if n < 256 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var wg sync.WaitGroup
	step := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*step, min(n, (w+1)*step)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				fn(w, i)
			}
		}()
	}
	wg.Wait()
}

// staleness counts the files a search would read whatever their
// trigrams (changed, added or removed since the build) under the whole
// root. listed is whether the recorded listing still holds; when it does
// not, the tree is scanned.
func (ix *Index) staleness(ctx context.Context) (listed bool, changed int, err error) {
	if ix.listingValid(ctx) {
		for i, s := range ix.statFiles(ctx, 0, ix.nFiles) {
			if s.gone || ix.changed(i, s.size, s.mtime) {
				changed++
			}
		}
		return true, changed, ctx.Err()
	}
	res, err := scan.Scan(ctx, ix.root, scan.Options{AllFiles: true, MaxFileSize: ix.maxSize})
	if err != nil {
		return false, 0, err
	}
	seen := 0
	for _, f := range res.Files {
		i, found := ix.find(f.Path)
		if found {
			seen++
		}
		if !found || ix.changed(i, f.Size, f.ModTime) {
			changed++
		}
	}
	return false, changed + ix.nFiles - seen, nil
}

// Update brings the grep index of root (an absolute path) at path up to
// date: it is rebuilt when missing, unreadable, built with another size
// limit, when more than max(16, 1 %) of the files changed, were added or
// removed (a search reads those directly, so a small drift is left), or
// when a walked tree's directory listing changed. A rebuild reads only the
// files that changed and takes the others' trigrams from the old index.
// rebuilt says whether it wrote the file.
func Update(ctx context.Context, root, path string, opt BuildOptions) (rebuilt bool, err error) {
	if ix, err := Open(path, root); err == nil {
		defer ix.Close()
		listed, changed, err := ix.staleness(ctx)
		if err != nil {
			return false, err
		}
		fits := ix.maxSize == opt.MaxFileSize
		// A walked tree whose listing changed is rebuilt so that searches
		// stat files instead of walking again.
		if fits && changed <= max(16, ix.nFiles/100) && (listed || ix.flags&flagWalked == 0) {
			return false, nil
		}
		if fits {
			opt.Prev = ix // unchanged files keep their trigrams
		}
	} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrOtherRoot) {
		return false, err
	}
	if err := WriteFile(ctx, root, path, opt); err != nil {
		return false, err
	}
	return true, nil
}

// Candidates is Select as internal/exact's FileIndex wants it.
func (ix *Index) Candidates(ctx context.Context, expr, sub string, maxFileSize int64) ([]scan.File, bool, error) {
	sel, ok, err := ix.Select(ctx, expr, sub, maxFileSize)
	if err != nil || !ok {
		return nil, ok, err
	}
	return sel.Files, true, nil
}
