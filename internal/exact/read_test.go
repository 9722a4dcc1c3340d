package exact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 250; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	writeFile(t, root, "src/f.go", b.String())
	writeFile(t, root, "nonl.txt", "a\nb")
	writeFile(t, root, "crlf.txt", "a\r\nb\r\n")
	writeFile(t, root, "empty.txt", "")
	writeFile(t, root, "long.txt", strings.Repeat("é", 2500)+"\nshort\n")
	writeFile(t, root, "bin.dat", "abc\x00def")
	ctx := context.Background()

	res, err := Read(ctx, ReadOptions{Root: root, File: "src/f.go"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Offset != 1 || res.End != 200 || res.TotalLines != 250 || !res.More || len(res.Lines) != 200 {
		t.Errorf("default page: %+v", res)
	}
	text := res.Text()
	if !strings.HasPrefix(text, "src/f.go (lines 1-200 of 250; more follow: src/f.go lines 201-400)\n     1→line 1\n     2→line 2\n") {
		t.Errorf("text:\n%s", text[:200])
	}

	res, err = Read(ctx, ReadOptions{Root: root, File: "src/f.go", Offset: 240, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.End != 250 || res.More || !strings.HasPrefix(res.Text(), "src/f.go (lines 240-250 of 250)\n   240→line 240\n") {
		t.Errorf("last page: %+v\n%s", res, res.Text())
	}

	res, err = Read(ctx, ReadOptions{Root: root, File: "src/f.go", Limit: 5000})
	if err != nil || len(res.Lines) != 250 {
		t.Errorf("limit above 2000: %v %d", err, len(res.Lines))
	}

	res, err = Read(ctx, ReadOptions{Root: root, File: "nonl.txt"})
	if err != nil || res.TotalLines != 2 || res.Lines[1].Text != "b" {
		t.Errorf("no final newline: %+v %v", res, err)
	}
	res, err = Read(ctx, ReadOptions{Root: root, File: "nonl.txt", Offset: 2, Limit: 1})
	if err != nil || res.TotalLines != 2 || res.More {
		t.Errorf("no final newline, counting tail: %+v %v", res, err)
	}
	res, err = Read(ctx, ReadOptions{Root: root, File: "src/f.go", Offset: 1, Limit: 1})
	if err != nil || res.TotalLines != 250 {
		t.Errorf("counting tail: %+v %v", res, err)
	}
	res, err = Read(ctx, ReadOptions{Root: root, File: "crlf.txt"})
	if err != nil || res.Lines[0].Text != "a" {
		t.Errorf("crlf: %+v %v", res, err)
	}
	res, err = Read(ctx, ReadOptions{Root: root, File: "empty.txt"})
	if err != nil || res.Text() != "empty.txt (empty file)\n" {
		t.Errorf("empty: %+v %v", res, err)
	}
	res, err = Read(ctx, ReadOptions{Root: root, File: "long.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got := []rune(res.Lines[0].Text); len(got) != MaxReadLineChars+1 || got[len(got)-1] != '…' || res.Lines[1].Text != "short" {
		t.Errorf("long line: %d runes", len(got))
	}

	errCases := []struct {
		opts ReadOptions
		kind error
		msg  string
	}{
		{ReadOptions{File: "bin.dat"}, ErrBinary, `"bin.dat" is a binary file`},
		{ReadOptions{File: "src"}, ErrIsDir, `"src" is a directory; use glob to list its files`},
		{ReadOptions{File: "nope.go"}, ErrNotFound, `"nope.go" does not exist`},
		{ReadOptions{File: "src/f.go", Offset: 251}, ErrOffsetPastEnd, `offset 251 is past the end of "src/f.go" (250 lines)`},
		{ReadOptions{File: "empty.txt", Offset: 2}, ErrOffsetPastEnd, `offset 2 is past the end of "empty.txt" (0 lines)`},
		{ReadOptions{File: "src/f.go", Offset: -1}, ErrBadOption, `offset -1: must be 1 or more`},
		{ReadOptions{File: "../f.go"}, ErrOutsideRoot, `path "../f.go" is outside the project root`},
	}
	for _, c := range errCases {
		c.opts.Root = root
		_, err := Read(ctx, c.opts)
		if !errors.Is(err, c.kind) || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("Read(%+v) = %v, want %q", c.opts, err, c.msg)
		}
	}
}
