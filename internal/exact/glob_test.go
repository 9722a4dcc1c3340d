package exact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func globPaths(r *GlobResult) []string {
	out := []string{}
	for _, f := range r.Files {
		out = append(out, f.Path)
	}
	return out
}

func TestGlob(t *testing.T) {
	root := trickyTree(t)
	ctx := context.Background()
	cases := []struct {
		path, pattern string
		want          []string
	}{
		{"", "**/*.go", []string{"A.go", "a-b.go", "a.go", "a/b.go", "main.go", "new\nline.go", "sub/build/b.go", "sub/important.gen.go", "sub/vendor/v.go", "with space ü.go", "x.gen.go"}},
		{"", "*.go", []string{"A.go", "a-b.go", "a.go", "main.go", "new\nline.go", "with space ü.go", "x.gen.go"}},
		{"sub", "*.txt", []string{"sub/build.txt"}},
		{"sub", "**/x.txt", []string{"sub/other/deep/x.txt"}},
		{"", "sub/**/*.{js,txt}", []string{"sub/build.txt", "sub/important.min.js", "sub/other/deep/x.txt"}},
		{"", "**/*.log", []string{"keep.log", "sub/keep.log"}},
		{"", "big.txt", []string{"big.txt"}}, // any size
		{"node_modules", "**", []string{}},
		{"web", "**", []string{"web/package.json", "web/src/app.js"}}, // dist/ beside package.json is output
	}
	for _, c := range cases {
		res, err := Glob(ctx, GlobOptions{Root: root, Path: c.path, Pattern: c.pattern})
		if err != nil {
			t.Errorf("Glob(%q, %q): %v", c.path, c.pattern, err)
			continue
		}
		if got := globPaths(res); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Glob(%q, %q):\n got %q\nwant %q", c.path, c.pattern, got, c.want)
		}
	}

	res, err := Glob(ctx, GlobOptions{Root: root, Pattern: "**", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 3 || !res.Truncated || res.Total < 30 {
		t.Errorf("limit: %d files, truncated %v, total %d", len(res.Files), res.Truncated, res.Total)
	}
	if !strings.Contains(res.Text(), "[showing 3 of ") {
		t.Errorf("text: %s", res.Text())
	}

	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"a.go", "A.go", "a-b.go"} {
		os.Chtimes(filepath.Join(root, f), old, old)
	}
	newer := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(root, "a-b.go"), newer, newer)
	res, err = Glob(ctx, GlobOptions{Root: root, Pattern: "{a,A,a-b}.go", Sort: SortMtime})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := globPaths(res), []string{"a-b.go", "A.go", "a.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("mtime order %q, want %q", got, want)
	}

	res, err = Glob(ctx, GlobOptions{Root: root, Path: "node_modules", Pattern: "**"})
	if err != nil || !strings.Contains(res.Text(), "skipped directory") {
		t.Errorf("excluded path: %v %q", err, res.Text())
	}

	for _, c := range []struct {
		opts GlobOptions
		kind error
	}{
		{GlobOptions{Pattern: ""}, ErrEmptyPattern},
		{GlobOptions{Pattern: "[x"}, ErrInvalidPattern},
		{GlobOptions{Pattern: "/etc/*"}, ErrInvalidPattern},
		{GlobOptions{Pattern: "*", Path: "main.go"}, ErrNotDir},
		{GlobOptions{Pattern: "*", Path: "nope"}, ErrNotFound},
		{GlobOptions{Pattern: "*", Sort: "size"}, ErrBadOption},
	} {
		c.opts.Root = root
		if _, err := Glob(ctx, c.opts); !errors.Is(err, c.kind) {
			t.Errorf("Glob(%+v) = %v, want %v", c.opts, err, c.kind)
		}
	}
}
