package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/mcp"
	"codectx/internal/testfix"
	"codectx/pkg/codectx"
)

// The tests drive the real binary over stdio, as MCP clients do.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// moduleRoot is the directory holding go.mod (two levels up from here).
func moduleRoot(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", abs, err)
	}
	return abs
}

// binary builds ./cmd/codectx once per test run (with -race when
// CODECTX_TEST_RACE_BINARY is set).
func binary(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "codectx-mcp-test-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "codectx")
		args := []string{"build", "-o", binPath}
		if os.Getenv("CODECTX_TEST_RACE_BINARY") != "" {
			args = append(args, "-race") // the server itself under the race detector
		}
		cmd := exec.Command("go", append(args, "./cmd/codectx")...)
		cmd.Dir = root
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build ./cmd/codectx: %v\n%s", buildErr, buildOut)
	}
	return binPath
}

// copyFixture copies testdata/fixture into a fresh directory (outside any
// git work tree) and returns it with symbolic links resolved.
func copyFixture(t *testing.T) string {
	t.Helper()
	return testfix.CopyTree(t, filepath.Join("testdata", "fixture"))
}

// testEnv isolates the binary from the user's home and embedding settings.
func testEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CODECTX_") || strings.HasPrefix(kv, "EMBEDDING_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "CODECTX_HOME="+home, "EMBEDDING_PROVIDER=local")
}

// syncBuffer collects the server's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs the MCP server for the project at root (database db)
// in this process, over the same newline-delimited stdio framing as `codectx
// mcp` (mcp.Serve on a pair of pipes), and connects the SDK client to it.
// args may hold "--no-watch". The real binary is driven by the stdio and
// Node tests; in-process, the server's code counts in coverage and runs
// under -race with the test.
func startServer(t *testing.T, root, db string, args ...string) *sdk.ClientSession {
	t.Helper()
	t.Setenv("CODECTX_HOME", t.TempDir())
	var opt mcp.Options
	for _, a := range args {
		switch a {
		case "--no-watch":
			opt.NoWatch = true
		default:
			t.Fatalf("startServer: unknown argument %q", a)
		}
	}
	logs := &syncBuffer{}
	opt.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p, err := codectx.Open(root, codectx.Options{DBPath: db, Config: &codectx.Config{}, Logger: opt.Logger})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- mcp.Serve(ctx, p, opt, serverIn, serverOut) }()
	client := sdk.NewClient(&sdk.Implementation{Name: "codectx-test", Version: "1"}, nil)
	cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
	defer ccancel()
	cs, err := client.Connect(cctx, &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v\nserver log:\n%s", err, logs.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Logf("close session: %v", err)
		}
		cancel()
		serverIn.Close()
		serverOut.Close()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Logf("server: %v", err)
		}
		p.Close()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	return cs
}

// call invokes a tool and fails the test on a protocol error.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

// callOK invokes a tool that must succeed and returns its text and
// structured output.
func callOK(t *testing.T, cs *sdk.ClientSession, name string, args any) (string, map[string]any) {
	t.Helper()
	res := call(t, cs, name, args)
	text := textOf(res)
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	return text, structured(t, res)
}

func textOf(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func structured(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	if res.StructuredContent == nil {
		t.Fatalf("no structured content")
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("structured content is not an object: %s", data)
	}
	return m
}

// list returns m[key] as a slice of objects.
func list(m map[string]any, key string) []map[string]any {
	raw, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		if o, ok := r.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// resultFiles is the "file" of every search_code result.
func resultFiles(m map[string]any) []string {
	var out []string
	for _, r := range list(m, "results") {
		f, _ := r["file"].(string)
		out = append(out, f)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// waitFor polls cond every 50 ms up to limit and returns how long it took
// (or fails the test).
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		if cond() {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("%s: not seen within %s", what, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
