package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestNodeClient runs test/mcp-node/client.mjs, a client built on the
// official TypeScript SDK, against the binary: a second implementation of
// the protocol must be able to use every basic tool.
func TestNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: skipping the Node.js MCP client test (install Node.js 18+ to run it)")
	}
	dir := filepath.Join(moduleRoot(t), "test", "mcp-node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skipf("%s/node_modules is missing: run `npm install` there (scripts/test.sh does) to run the Node.js MCP client test", dir)
	}
	bin := binary(t)
	root := copyFixture(t)
	db := filepath.Join(t.TempDir(), "index.db")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), bin, root, db)
	cmd.Dir = dir
	cmd.Env = testEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
