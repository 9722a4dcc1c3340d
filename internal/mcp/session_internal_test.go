package mcp

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/testfix"
	"codectx/pkg/codectx"
)

// The memory of what get_context sent a session is dropped when the
// session ends (a server with many clients must not keep them all).
func TestSessionMemoryForgottenOnClose(t *testing.T) {
	ctx := context.Background()
	root := testfix.CopyTree(t, filepath.Join("testdata", "fixture"))
	p, err := codectx.Open(root, codectx.Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &codectx.Config{}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Index(ctx, codectx.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, p, Options{NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ended := make(chan struct{}, 1)
	s.sessionEnded = func() { ended <- struct{}{} }
	st, ct := sdk.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolContext, Arguments: map[string]any{"query": "how is the invoice total computed", "budget": 1000}})
	if err != nil || res.IsError {
		t.Fatalf("get_context: %v %v", err, res)
	}
	if n := s.sessionCount(); n != 1 {
		t.Fatalf("%d session memories after one call, want 1", n)
	}
	cs.Close()
	<-done // the session has ended
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the ended session's memory was not dropped")
	}
	if n := s.sessionCount(); n != 0 {
		t.Fatalf("%d session memories after the session ended", n)
	}
}
