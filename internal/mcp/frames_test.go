package mcp_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMalformedFramesOverStdio drives the real `codectx mcp` process with
// raw lines: every malformed frame gets a JSON-RPC error on stdout, a line
// on stderr under -v, and the session goes on (the SDK's own stdio
// transport exited 1 on the first one).
func TestMalformedFramesOverStdio(t *testing.T) {
	root := copyFixture(t)
	db := filepath.Join(t.TempDir(), "index.db")
	cmd := exec.Command(binary(t), "mcp", "--root", root, "--db", db, "--no-watch", "-v")
	cmd.Env = testEnv(t)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	exited := false
	t.Cleanup(func() {
		if !exited {
			stdin.Close()
			cmd.Wait()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	send := func(frame string) {
		t.Helper()
		if _, err := stdin.Write([]byte(frame + "\n")); err != nil {
			t.Fatalf("write %q: %v", frame, err)
		}
	}
	type reply struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	recv := func() reply {
		t.Helper()
		line, ok := <-lines
		if !ok {
			err := cmd.Wait()
			exited = true
			t.Fatalf("the server closed stdout (exit: %v)", err)
		}
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("server wrote %q: %v", line, err)
		}
		return r
	}

	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := recv(); r.Error != nil || string(r.ID) != "0" {
		t.Fatalf("initialize: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	bad := []struct {
		frame string
		code  int
		id    string
	}{
		{`{not json}`, -32700, "null"},
		{`[]`, -32600, "null"},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600, "3"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, -32600, "null"},
		{"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"s\":\"\xc3\x28\"}}", -32700, "4"},
		{`{"jsonrpc":"2.0","id":5,"method":"ping"} garbage`, -32700, "5"},
		{`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"` + strings.Repeat("p", 16<<20) + `"}}`, -32600, "null"},
	}
	for i, b := range bad {
		send(b.frame)
		if r := recv(); r.Error == nil || r.Error.Code != b.code || string(r.ID) != b.id {
			t.Errorf("frame %d: answer %+v id %s, want code %d id %s", i, r.Error, r.ID, b.code, b.id)
		}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_file","arguments":{"file":"README.md","limit":1}}}`, 100+i))
		if r := recv(); r.Error != nil || string(r.ID) != fmt.Sprint(100+i) || !strings.Contains(string(r.Result), "README.md") {
			t.Fatalf("read_file after frame %d: %+v %s", i, r.Error, r.Result)
		}
	}
	if n := strings.Count(stderr.String(), "bad frame"); n != len(bad) {
		t.Errorf("stderr has %d bad-frame lines, want %d", n, len(bad))
	}
	stdin.Close()
	exited = true
	if err := cmd.Wait(); err != nil {
		t.Errorf("server exit after stdin closed: %v", err)
	}
}
