package codectx

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

// TestBadInput: option errors are classified as the caller's (IsBadInput,
// errors.Is ErrBadOption) before the index is consulted, with their
// messages unchanged; other errors are not.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bad := []struct {
		name string
		err  error
		msg  string
	}{
		{"search mode", second(p.Search(ctx, SearchOptions{Query: "x", Mode: "fuzzy"})), `unknown mode "fuzzy" (valid: hybrid, keyword, semantic)`},
		{"search k", second(p.Search(ctx, SearchOptions{Query: "x", K: 99})), "k must be between 1 and 30, got 99"},
		{"search empty", second(p.Search(ctx, SearchOptions{Query: " "})), "empty query"},
		{"context depth", second(p.Context(ctx, ContextOptions{Query: "x", Depth: "9"})), ""},
		{"context budget", second(p.Context(ctx, ContextOptions{Query: "x", Budget: -1})), "budget must be positive, got -1"},
		{"graph name", second(p.Graph(ctx, GraphOptions{Name: " "})), "name must not be empty: give a type, method, function or file"},
		{"graph direction", second(p.Graph(ctx, GraphOptions{Name: "A", Direction: "up"})), `direction must be out, in or both, got "up"`},
		{"graph depth", second(p.Graph(ctx, GraphOptions{Name: "A", Depth: -1})), "depth must be positive, got -1"},
		{"read outside", second(p.Read(ctx, ReadOptions{File: "../x"})), `path "../x" is outside the project root ` + p.Root()},
		{"vote", second(ParseVote("sideways")), `vote must be up or down, got "sideways"`},
	}
	for _, tc := range bad {
		if !IsBadInput(tc.err) {
			t.Errorf("%s: IsBadInput(%v) = false", tc.name, tc.err)
		}
		if tc.msg != "" && tc.err.Error() != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, tc.err, tc.msg)
		}
	}
	if err := second(p.Search(ctx, SearchOptions{Query: "x", Mode: "fuzzy"})); !errors.Is(err, ErrBadOption) {
		t.Errorf("bad mode is not ErrBadOption: %v", err)
	}
	// Good options on a project without an index: not the caller's fault.
	for _, err := range []error{
		second(p.Search(ctx, SearchOptions{Query: "x"})),
		second(p.Graph(ctx, GraphOptions{Name: "A"})),
		fmt.Errorf("open index: %w", errors.New("disk full")),
		nil,
	} {
		if IsBadInput(err) {
			t.Errorf("IsBadInput(%v) = true", err)
		}
	}
	if v, err := ParseVote(VoteUp); v != 1 || err != nil {
		t.Errorf("ParseVote(up) = %d, %v", v, err)
	}
	if v, err := ParseVote(VoteDown); v != -1 || err != nil {
		t.Errorf("ParseVote(down) = %d, %v", v, err)
	}
}

func second[T any](_ T, err error) error { return err }
