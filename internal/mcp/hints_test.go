package mcp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"codectx/pkg/codectx"
)

// Hints name tools and arguments, never shell commands an agent cannot run.
func TestErrorHintsNameTools(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("search: %w", codectx.ErrNotIndexed), "call reindex"},
		{fmt.Errorf("semantic: %w", codectx.ErrModelMismatch), "call reindex"},
		{fmt.Errorf("open: %w", codectx.ErrCorrupt), "--rebuild"},
		{errors.New("something else"), ""},
	}
	for _, tc := range cases {
		got := errorHint(tc.err)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("errorHint(%v) = %q, want it to contain %q", tc.err, got, tc.want)
		}
	}
	if got := readFileHint(codectx.SuggestedRead{Path: "a b.go", Offset: 3, Limit: 20}); got != `read_file file="a b.go" offset=3 limit=20` {
		t.Errorf("readFileHint = %q", got)
	}
}
