package grepindex

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"codectx/internal/scan"
	"codectx/internal/store"
)

// File layout (little-endian), read in place from a memory map:
//
//	header   magic "CXGREP\x00\x01", then u64 fields: build time (Unix ns),
//	         flags, max file size, number of files, dirs and trigrams, and
//	         the offsets of the root string, the file table, the dir table,
//	         the trigram table, the postings and the string blob.
//	files    per file (sorted by path) 32 bytes: path offset and length in
//	         the blob (u32, u32), size (i64), mtime in ns (i64), flags (u64).
//	dirs     per directory the walk entered, 24 bytes: path offset and
//	         length (u32, u32), mtime (i64), signature of its ignore files (u64).
//	trigrams per trigram (sorted) 12 bytes: trigram (u32), postings offset
//	         (u32), number of files (u32).
//	postings per trigram, its file ids as uvarint deltas (the first as is).
//	strings  the root and the paths.
const (
	magic      = "CXGREP\x00\x01"
	headerSize = len(magic) + 13*8
	fileRec    = 32
	dirRec     = 24
	triRec     = 12
)

// Index flags.
const (
	flagWalked   = 1 // the file list came from a complete walk: dirs are all it entered
	flagFineTime = 2 // some recorded mtime has a fraction of a second: the file system keeps them
)

// File flags.
const (
	fileTooLarge = 1 // over the size limit: never searched while unchanged
	fileUnknown  = 2 // could not be read: always searched
)

// A file or directory modified this close to (or after) the start of a
// build may have changed again within its timestamp's granularity without
// its mtime moving, so its recorded state is never trusted (git's "racily
// clean" rule). File systems with whole-second (FAT: two-second) times get
// coarseWindow; when any recorded mtime has a fraction of a second the
// file system keeps fine times (a kernel tick, a few ms) and fineWindow
// leaves a wide margin. (A tree spanning a fine and a coarse file system
// could defeat this guess; such trees are rare.)
const (
	coarseWindow = 2 * time.Second
	fineWindow   = 100 * time.Millisecond
)

// racyWindow is the window for an index's flags.
func racyWindow(flags uint64) time.Duration {
	if flags&flagFineTime != 0 {
		return fineWindow
	}
	return coarseWindow
}

// fineTimes reports whether some mtime has a fraction of a second.
func fineTimes(b *builder) bool {
	for _, f := range b.files {
		if f.mtime%int64(time.Second) != 0 {
			return true
		}
	}
	for _, d := range b.dirs {
		if d.mtime%int64(time.Second) != 0 {
			return true
		}
	}
	return false
}

// Path is where the grep index of root lives for the database dbPath:
// next to the database, named by a hash of the root.
func Path(dbPath, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(store.SideDir(dbPath), "grep-"+hex.EncodeToString(sum[:8])+".tri")
}

// BuildOptions tune Build.
type BuildOptions struct {
	MaxFileSize int64 // files over it are not indexed (nor searched by grep)
	// Prev, when set, is the previous index of the same root and size
	// limit: the trigrams of the files it recorded that have not changed
	// since (same size and mtime, not racy) are taken from it instead of
	// reading the files again.
	Prev *Index
}

// Build scans root like grep does (every extension, MaxFileSize) and
// writes the trigram index to w.
func Build(ctx context.Context, root string, w io.Writer, opt BuildOptions) error {
	start := time.Now()
	var dirs []string
	res, err := scan.Scan(ctx, root, scan.Options{AllFiles: true, MaxFileSize: opt.MaxFileSize,
		OnDir: func(rel string) { dirs = append(dirs, rel) }})
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("grep index %s: %w", root, err)
	}
	b := &builder{root: abs, built: start.UnixNano(), maxSize: opt.MaxFileSize}
	if opt.Prev != nil && opt.Prev.root == abs && opt.Prev.maxSize == opt.MaxFileSize {
		b.prev = opt.Prev
	}
	if !res.Git {
		b.flags |= flagWalked
	}
	for _, s := range res.Skipped {
		switch {
		case strings.HasPrefix(s.Reason, scan.ReasonTooLarge):
			if fi, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(s.Path))); err == nil {
				b.files = append(b.files, fileEnt{path: s.Path, size: fi.Size(), mtime: fi.ModTime().UnixNano(), flags: fileTooLarge})
			}
		case s.Reason == scan.ReasonSymlink, s.Reason == scan.ReasonBadName:
		default:
			// An unreadable directory or file may become readable without
			// any timestamp changing: the walk is not to be trusted later.
			b.flags &^= flagWalked
		}
	}
	for _, d := range dirs {
		mt, sig, err := dirState(abs, d)
		if err != nil {
			b.flags &^= flagWalked
			continue
		}
		b.dirs = append(b.dirs, dirEnt{path: d, mtime: mt, sig: sig})
	}
	if err := b.addFiles(ctx, res.Files); err != nil {
		return err
	}
	if fineTimes(b) {
		b.flags |= flagFineTime
	}
	return b.write(w)
}

// dirState is a directory's mtime and the signature of its ignore files
// (their sizes and mtimes; zero when absent).
func dirState(root, rel string) (int64, uint64, error) {
	mt, err := dirMtime(root, rel)
	if err != nil {
		return 0, 0, err
	}
	return mt, ignoreSig(root, rel), nil
}

func dirMtime(root, rel string) (int64, error) {
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return 0, err
	}
	if !fi.IsDir() {
		return 0, fs.ErrInvalid
	}
	return fi.ModTime().UnixNano(), nil
}

// ignoreSig is the signature of a directory's ignore files: their sizes,
// mtimes and modes, zero when it has none.
func ignoreSig(root, rel string) uint64 {
	dir := filepath.Join(root, filepath.FromSlash(rel))
	var sig uint64
	for i, name := range []string{scan.GitIgnoreFile, scan.CodectxIgnoreFile} {
		if gi, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			sig ^= (uint64(gi.Size())*0x9e3779b97f4a7c15 ^ uint64(gi.ModTime().UnixNano()) ^ uint64(gi.Mode())) * uint64(2*i+3)
			sig |= 1 // present
		}
	}
	return sig
}

type fileEnt struct {
	path        string
	size, mtime int64
	flags       uint64
}

type dirEnt struct {
	path  string
	mtime int64
	sig   uint64
}

type builder struct {
	root    string
	built   int64
	flags   uint64
	maxSize int64
	files   []fileEnt
	dirs    []dirEnt
	post    postings
	prev    *Index  // reused for unchanged files (nil: read every file)
	fromOld []int32 // prev's file id → this build's, -1 when not reused
}

// postings accumulates, per trigram, the ids of the files holding it as
// uvarint deltas, in file id order.
type postings struct {
	slot  [256]*[1 << 16]int32 // trigram → index in lists + 1, by first byte (pages made on use)
	lists []plist
}

type plist struct {
	tri   uint32
	last  uint32
	count uint32
	data  []byte
}

func (p *postings) add(tri uint32, id uint32) {
	page := p.slot[tri>>16]
	if page == nil {
		page = new([1 << 16]int32)
		p.slot[tri>>16] = page
	}
	s := page[tri&0xffff]
	if s == 0 {
		p.lists = append(p.lists, plist{tri: tri})
		s = int32(len(p.lists))
		page[tri&0xffff] = s
	}
	l := &p.lists[s-1]
	d := id
	if l.count > 0 {
		d = id - l.last
	}
	l.data = binary.AppendUvarint(l.data, uint64(d))
	l.last = id
	l.count++
}

// addFiles reads the files in parallel and adds their trigrams in path
// order (so file ids are path order and postings are ascending).
func (b *builder) addFiles(ctx context.Context, files []scan.File) error {
	for _, f := range files {
		b.files = append(b.files, fileEnt{path: f.Path, size: f.Size, mtime: f.ModTime})
	}
	// Too-large entries join the list; ids are positions in path order.
	slices.SortFunc(b.files, func(x, y fileEnt) int { return strings.Compare(x.path, y.path) })
	type result struct {
		tris []uint32
		ok   bool
		size int64
		mt   int64
	}
	n := len(b.files)
	reused := make([]bool, n)
	if b.prev != nil {
		b.fromOld = make([]int32, b.prev.nFiles)
		for k := range b.fromOld {
			b.fromOld[k] = -1
		}
		for i := range b.files {
			f := &b.files[i]
			if j, ok := b.prev.find(f.path); ok && f.flags == 0 && !b.prev.changed(j, f.size, f.mtime) {
				if _, _, pf := b.prev.fileState(j); pf == 0 {
					b.fromOld[j] = int32(i)
					reused[i] = true
				}
			}
		}
	}
	results := make([]chan result, n)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	jobs := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), 4); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ex := newExtractor()
			var buf []byte
			for i := range jobs {
				f := &b.files[i]
				if f.flags&fileTooLarge != 0 || reused[i] {
					results[i] <- result{ok: true, size: f.size, mt: f.mtime}
					continue
				}
				tris, size, mt, err := ex.file(filepath.Join(b.root, filepath.FromSlash(f.path)), b.maxSize, &buf)
				results[i] <- result{tris: tris, ok: err == nil, size: size, mt: mt}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < n; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer wg.Wait()
	for i := 0; i < n; i++ {
		var r result
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		f := &b.files[i]
		switch {
		case !r.ok:
			f.flags |= fileUnknown
		case f.flags&fileTooLarge == 0 && (r.size != f.size || r.mt != f.mtime):
			// Changed since the scan: what was read is not what was listed.
			f.flags |= fileUnknown
		}
		if f.flags == 0 {
			for _, t := range r.tris {
				b.post.add(t, uint32(i))
			}
		}
	}
	if b.prev != nil {
		b.mergePrev()
	}
	return nil
}

// mergePrev adds the previous index's postings of the reused files: each
// old list, mapped to the new ids (monotonic, both are path order), is
// merged with the list of the files read in this build.
func (b *builder) mergePrev() {
	ix := b.prev
	for k := 0; k < ix.nTris; k++ {
		tri, _, _ := ix.triAt(k)
		var old []uint32
		for _, id := range ix.postingsAt(k) {
			if n := b.fromOld[id]; n >= 0 {
				old = append(old, uint32(n))
			}
		}
		if len(old) == 0 {
			continue
		}
		page := b.post.slot[tri>>16]
		if page == nil || page[tri&0xffff] == 0 {
			b.post.lists = append(b.post.lists, plist{tri: tri, count: uint32(len(old)), data: encodeIDs(old)})
			continue
		}
		l := &b.post.lists[page[tri&0xffff]-1]
		ids := merge(old, decodeIDs(l.data, int(l.count)))
		l.data, l.count = encodeIDs(ids), uint32(len(ids))
	}
}

// encodeIDs writes ascending ids as uvarint deltas (the first as is).
func encodeIDs(ids []uint32) []byte {
	var out []byte
	prev := uint32(0)
	for i, id := range ids {
		d := id
		if i > 0 {
			d = id - prev
		}
		out = binary.AppendUvarint(out, uint64(d))
		prev = id
	}
	return out
}

// decodeIDs reads at most n ids written by encodeIDs.
func decodeIDs(b []byte, n int) []uint32 {
	out := make([]uint32, 0, n)
	var id uint64
	for k := 0; k < n; k++ {
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
		out = append(out, uint32(id))
	}
	return out
}

// extractor collects the distinct trigrams of a file's lower-cased bytes.
type extractor struct {
	seen []uint64 // bit set over the 2^24 trigrams
	list []uint32
}

func newExtractor() *extractor { return &extractor{seen: make([]uint64, 1<<24/64)} }

// file reads a file (a regular file, not through a final symbolic link)
// and returns its sorted trigrams (nil for a binary file, as grep skips
// those), with the size and mtime of what was read.
func (e *extractor) file(path string, maxSize int64, buf *[]byte) ([]uint32, int64, int64, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, 0, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxSize {
		return nil, 0, 0, fs.ErrInvalid
	}
	need := int(fi.Size())
	if cap(*buf) < need {
		*buf = make([]byte, need)
	}
	data := (*buf)[:need]
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, 0, 0, err
	}
	if extra, _ := f.Read(make([]byte, 1)); extra > 0 {
		return nil, 0, 0, fs.ErrInvalid // grew while reading
	}
	return e.trigrams(data), fi.Size(), fi.ModTime().UnixNano(), nil
}

// trigrams returns the sorted distinct trigrams of data, ASCII
// lower-cased; nil when data holds a NUL byte (binary).
func (e *extractor) trigrams(data []byte) []uint32 {
	e.list = e.list[:0]
	var t uint32
	for i, c := range data {
		if c == 0 {
			for _, x := range e.list {
				e.seen[x>>6] &^= 1 << (x & 63)
			}
			e.list = e.list[:0]
			return nil
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		t = (t<<8 | uint32(c)) & 0xffffff
		if i < 2 {
			continue
		}
		if e.seen[t>>6]&(1<<(t&63)) == 0 {
			e.seen[t>>6] |= 1 << (t & 63)
			e.list = append(e.list, t)
		}
	}
	out := slices.Clone(e.list)
	for _, x := range e.list {
		e.seen[x>>6] &^= 1 << (x & 63)
	}
	slices.Sort(out)
	return out
}

func (b *builder) write(w io.Writer) error {
	var blob []byte
	str := func(s string) (uint32, uint32) {
		off := len(blob)
		blob = append(blob, s...)
		return uint32(off), uint32(len(s))
	}
	rootOff, rootLen := str(b.root)
	files := make([]byte, 0, len(b.files)*fileRec)
	for _, f := range b.files {
		o, l := str(f.path)
		files = binary.LittleEndian.AppendUint32(files, o)
		files = binary.LittleEndian.AppendUint32(files, l)
		files = binary.LittleEndian.AppendUint64(files, uint64(f.size))
		files = binary.LittleEndian.AppendUint64(files, uint64(f.mtime))
		files = binary.LittleEndian.AppendUint64(files, f.flags)
	}
	dirs := make([]byte, 0, len(b.dirs)*dirRec)
	slices.SortFunc(b.dirs, func(x, y dirEnt) int { return strings.Compare(x.path, y.path) })
	for _, d := range b.dirs {
		o, l := str(d.path)
		dirs = binary.LittleEndian.AppendUint32(dirs, o)
		dirs = binary.LittleEndian.AppendUint32(dirs, l)
		dirs = binary.LittleEndian.AppendUint64(dirs, uint64(d.mtime))
		dirs = binary.LittleEndian.AppendUint64(dirs, d.sig)
	}
	lists := b.post.lists
	slices.SortFunc(lists, func(x, y plist) int { return int(x.tri) - int(y.tri) })
	tris := make([]byte, 0, len(lists)*triRec)
	var postLen int
	for _, l := range lists {
		tris = binary.LittleEndian.AppendUint32(tris, l.tri)
		tris = binary.LittleEndian.AppendUint32(tris, uint32(postLen))
		tris = binary.LittleEndian.AppendUint32(tris, l.count)
		postLen += len(l.data)
	}
	if uint64(postLen)+uint64(len(blob)) >= 1<<32 {
		return errors.New("grep index: postings over 4 GiB")
	}
	off := uint64(headerSize)
	filesOff := off
	dirsOff := filesOff + uint64(len(files))
	trisOff := dirsOff + uint64(len(dirs))
	postOff := trisOff + uint64(len(tris))
	blobOff := postOff + uint64(postLen)
	head := []byte(magic)
	for _, v := range []uint64{uint64(b.built), b.flags, uint64(b.maxSize), uint64(len(b.files)), uint64(len(b.dirs)), uint64(len(lists)),
		uint64(rootOff) | uint64(rootLen)<<32, filesOff, dirsOff, trisOff, postOff, blobOff, blobOff + uint64(len(blob))} {
		head = binary.LittleEndian.AppendUint64(head, v)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	for _, part := range [][]byte{head, files, dirs, tris} {
		if _, err := bw.Write(part); err != nil {
			return err
		}
	}
	for _, l := range lists {
		if _, err := bw.Write(l.data); err != nil {
			return err
		}
	}
	if _, err := bw.Write(blob); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteFile builds the index of root and writes it to path under a
// temporary name, then renames it into place.
func WriteFile(ctx context.Context, root, path string, opt BuildOptions) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("grep index: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-grep-*")
	if err != nil {
		return fmt.Errorf("grep index: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := Build(ctx, root, tmp, opt); err != nil {
		tmp.Close()
		return fmt.Errorf("grep index %s: %w", root, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("grep index %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("grep index: %w", err)
	}
	return nil
}
