//go:build linux

package exact

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSymlinkSwapRace: while one goroutine keeps swapping a file inside the
// root with a symbolic link to a file outside it (and a directory with a
// link to an outside directory), 30,000 Read and Grep calls (native and
// ripgrep engines) must never return the outside content, which holds a
// unique marker. Swaps are atomic exchanges (renameat2 RENAME_EXCHANGE), so
// the path always exists.
func TestSymlinkSwapRace(t *testing.T) {
	symlinkRace(t, 30000)
}

// TestSymlinkSwapRaceWithoutOpenat2: the same race against the portable
// opener (open, then compare the descriptor with the path's components).
func TestSymlinkSwapRaceWithoutOpenat2(t *testing.T) {
	old := noOpenat2.Load()
	noOpenat2.Store(true)
	t.Cleanup(func() { noOpenat2.Store(old) })
	symlinkRace(t, 6000)
}

func symlinkRace(t *testing.T, calls int64) {
	b := make([]byte, 8)
	rand.Read(b)
	marker := "OUTSIDE-" + hex.EncodeToString(b)
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "needle "+marker+"\n")
	writeFile(t, outside, "f.txt", "needle "+marker+"\n")
	root := t.TempDir()
	writeFile(t, root, "flip.txt", "needle inside\n")
	writeFile(t, root, "d/f.txt", "needle inside d\n")
	writeFile(t, root, "plain.txt", "needle plain\n")
	alt := filepath.Join(root, ".alt") // hidden: never searched
	if err := os.MkdirAll(alt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(alt, "flip")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(alt, "d")); err != nil {
		t.Fatal(err)
	}
	exchange := func(a, b string) error {
		return unix.Renameat2(unix.AT_FDCWD, filepath.Join(alt, a), unix.AT_FDCWD, filepath.Join(root, b), unix.RENAME_EXCHANGE)
	}
	if err := exchange("flip", "flip.txt"); err != nil {
		t.Skipf("renameat2 RENAME_EXCHANGE not supported here: %v", err)
	}
	if err := exchange("flip", "flip.txt"); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	flipped := make(chan int)
	go func() {
		n := 0
		defer func() { flipped <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if exchange("flip", "flip.txt") != nil || exchange("d", "d") != nil {
				return
			}
			n++
		}
	}()

	rg := hasRG()
	var next, leaks, ok, refused, rgCalls atomic.Int64
	var firstLeak atomic.Value
	var mu sync.Mutex
	leaksBy := map[string]int{}
	leak := func(what string, lines []string) {
		for _, text := range lines {
			if strings.Contains(text, marker) {
				leaks.Add(1)
				firstLeak.CompareAndSwap(nil, what+": "+text)
				mu.Lock()
				leaksBy[what]++
				mu.Unlock()
				return
			}
		}
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > calls {
					return
				}
				switch {
				case i%10 < 7:
					file := "flip.txt"
					if i%2 == 0 {
						file = "d/f.txt"
					}
					res, err := Read(ctx, ReadOptions{Root: root, File: file})
					if err != nil {
						refused.Add(1)
						continue
					}
					ok.Add(1)
					var texts []string
					for _, l := range res.Lines {
						texts = append(texts, l.Text)
					}
					leak("read "+file, texts)
				default:
					engine := EngineNative
					if i%40 == 9 && rg {
						engine = EngineRG
						rgCalls.Add(1)
					}
					path := ""
					if i%3 == 0 {
						path = "flip.txt"
					}
					res, err := Grep(ctx, GrepOptions{Root: root, Path: path, Pattern: "needle", Engine: engine, Context: 1})
					if err != nil {
						refused.Add(1)
						continue
					}
					ok.Add(1)
					var texts []string
					for _, l := range res.Lines {
						texts = append(texts, l.Text)
					}
					leak("grep "+engine, texts)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	flips := <-flipped
	t.Logf("%d calls (%d with ripgrep): %d answered, %d refused, %d leaks of the outside content; %d swaps",
		calls, rgCalls.Load(), ok.Load(), refused.Load(), leaks.Load(), flips)
	if n := leaks.Load(); n > 0 {
		t.Fatalf("%d of %d calls returned the outside file's content (%v), first: %v", n, calls, leaksBy, firstLeak.Load())
	}
	if flips == 0 || ok.Load() == 0 {
		t.Fatalf("the race did not run: %d swaps, %d answers", flips, ok.Load())
	}
}

// TestOpenInRootKinds: a symbolic link inside the root that stays inside is
// read through its target; a FIFO is refused without blocking; a directory
// swapped in on the way is refused.
func TestOpenInRootKinds(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a/b.go", "package a\n")
	if err := os.Symlink("a/b.go", filepath.Join(root, "inside.go")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ctx := context.Background()
	res, err := Read(ctx, ReadOptions{Root: root, File: "inside.go"})
	if err != nil || len(res.Lines) != 1 || res.Lines[0].Text != "package a" || res.Path != "inside.go" {
		t.Errorf("Read inside.go = %+v, %v", res, err)
	}
	if _, err := Read(ctx, ReadOptions{Root: root, File: "pipe"}); !errors.Is(err, ErrBadOption) {
		t.Errorf("Read pipe: %v", err)
	}
	old := noOpenat2.Load()
	t.Cleanup(func() { noOpenat2.Store(old) })
	for _, fallback := range []bool{old, true} {
		noOpenat2.Store(fallback)
		if _, err := openInRoot(root, "inside.go"); !errors.Is(err, errNotConfined) {
			t.Errorf("openInRoot(inside.go) fallback=%v: %v", fallback, err)
		}
		if _, err := openInRoot(root, "pipe"); !errors.Is(err, errNotRegular) {
			t.Errorf("openInRoot(pipe) fallback=%v: %v", fallback, err)
		}
		if _, err := openInRoot(root, "../x"); !errors.Is(err, errNotConfined) {
			t.Errorf("openInRoot(../x) fallback=%v: %v", fallback, err)
		}
		f, err := openInRoot(root, "a/b.go")
		if err != nil {
			t.Errorf("openInRoot(a/b.go) fallback=%v: %v", fallback, err)
		} else {
			f.Close()
		}
	}
}

// TestRGNeverFollows: ripgrep's command line never asks it to follow
// symbolic links, whatever the options.
func TestRGNeverFollows(t *testing.T) {
	root := t.TempDir()
	for _, opts := range []GrepOptions{
		{Root: root, Pattern: "x"},
		{Root: root, Pattern: "x", Glob: "*.go", IgnoreCase: true, Fixed: true, Context: 2},
		{Root: root, Pattern: "x", Glob: "!*_test.go"},
	} {
		job, err := newGrepJob(opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range job.rgArgs("ignore-file") {
			if a == "-L" || a == "--follow" {
				t.Errorf("rg args %v follow symbolic links", job.rgArgs("ignore-file"))
			}
		}
	}
}
