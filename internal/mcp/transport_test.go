package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// frameClient talks raw lines to an SDK server behind a FrameTransport.
type frameClient struct {
	t     *testing.T
	w     io.WriteCloser
	lines chan []byte // the server's lines, closed when its output ends
}

// startFrameServer runs a bare SDK server (ping answers) over a
// FrameTransport on in-process pipes.
func startFrameServer(t *testing.T, maxFrame int, log *bytes.Buffer) *frameClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := sdk.NewServer(&sdk.Implementation{Name: "frames", Version: "1"}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	tr := &FrameTransport{In: inR, Out: outW, MaxFrame: maxFrame}
	if log != nil {
		tr.Logger = newTestLogger(log)
	}
	go func() {
		done <- srv.Run(ctx, tr)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
		outR.Close()
	})
	c := &frameClient{t: t, w: inW, lines: make(chan []byte, 64)}
	go func() { // read all the time, so that the server never blocks writing
		defer close(c.lines)
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			c.lines <- line
		}
	}()
	return c
}

func (c *frameClient) send(frame []byte) {
	c.t.Helper()
	if _, err := c.w.Write(append(append([]byte{}, frame...), '\n')); err != nil {
		c.t.Fatalf("write frame %q: %v", frame, err)
	}
}

// frameAnswer is one line the server wrote.
type frameAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// recv reads the next line; a closed session fails the test.
func (c *frameClient) recv() frameAnswer {
	c.t.Helper()
	line, ok := <-c.lines
	if !ok {
		c.t.Fatal("the session ended")
	}
	var a frameAnswer
	if err := json.Unmarshal(line, &a); err != nil || a.JSONRPC != "2.0" {
		c.t.Fatalf("server wrote %q: %v", line, err)
	}
	return a
}

// ping sends a ping with id and checks that it is answered.
func (c *frameClient) ping(id int) {
	c.t.Helper()
	c.send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
	for {
		a := c.recv()
		if string(a.ID) != fmt.Sprint(id) {
			continue // an frameAnswer to an earlier frame (fuzzing sends valid ones too)
		}
		if a.Error != nil || a.Result == nil {
			c.t.Fatalf("ping %d: %+v", id, a)
		}
		return
	}
}

// badFrames are the malformed frames of the table test and fuzz seeds:
// the frame, the error code and the id the frameAnswer must carry.
var badFrames = []struct {
	name  string
	frame string
	code  int
	id    string
}{
	{"not json", `{not json}`, -32700, "null"},
	{"truncated", `{"jsonrpc":"2.0","id":17,"method":"pi`, -32700, "null"},
	{"NUL", "\x00", -32700, "null"},
	{"empty batch", `[]`, -32600, "null"},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, "null"},
	{"string", `"ping"`, -32600, "null"},
	{"number", `42`, -32600, "null"},
	{"null", `null`, -32600, "null"},
	{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, "7"},
	{"no version", `{"id":"eight","method":"ping"}`, -32600, `"eight"`},
	{"version not a string", `{"jsonrpc":2.0,"id":9,"method":"ping"}`, -32600, "9"},
	{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
	{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null"},
	{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null"},
	{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
	{"method not a string", `{"jsonrpc":"2.0","id":14,"method":5}`, -32600, "14"},
	{"params not structured", `{"jsonrpc":"2.0","id":15,"method":"ping","params":"x"}`, -32600, "15"},
	{"no method", `{"jsonrpc":"2.0","id":16}`, -32600, "16"},
	{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}", -32700, "10"},
	{"invalid UTF-8 outside JSON", "\xff{}", -32700, "null"},
	{"trailing garbage", `{"jsonrpc":"2.0","id":11,"method":"ping"} xyz`, -32700, "11"},
	{"two objects", `{"jsonrpc":"2.0","id":12,"method":"ping"}{"jsonrpc":"2.0","id":13,"method":"ping"}`, -32700, "12"},
	{"over the size limit", `{"jsonrpc":"2.0","id":18,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2048) + `"}}`, -32600, "null"},
}

// TestBadFramesKeepSession feeds every malformed frame, each followed by a
// valid ping, through one session: each gets its JSON-RPC error and the
// ping after it is answered.
func TestBadFramesKeepSession(t *testing.T) {
	var log bytes.Buffer
	c := startFrameServer(t, 1024, &log)
	c.ping(1)
	c.send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if a := c.recv(); a.Error != nil || string(a.ID) != `"init"` {
		t.Fatalf("initialize: %+v", a)
	}
	c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`))
	for i, bf := range badFrames {
		c.send([]byte(bf.frame))
		a := c.recv()
		if a.Error == nil || a.Error.Code != bf.code || string(a.ID) != bf.id {
			t.Errorf("%s: frameAnswer id %s error %+v, want id %s code %d", bf.name, a.ID, a.Error, bf.id, bf.code)
		}
		c.ping(1000 + i)
	}
	// A well-formed request for an unknown method is the SDK's to frameAnswer.
	c.send([]byte(`{"jsonrpc":"2.0","id":"s","method":"no/such"}`))
	if a := c.recv(); a.Error == nil || a.Error.Code != -32601 || string(a.ID) != `"s"` {
		t.Errorf("unknown method: %+v", a)
	}
	// Blank lines and CRLF endings are accepted silently.
	c.send([]byte("   "))
	c.send([]byte("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r"))
	if a := c.recv(); string(a.ID) != "2" || a.Error != nil {
		t.Errorf("CRLF ping: %+v", a)
	}
	c.ping(3)
	if n := strings.Count(log.String(), "bad frame"); n != len(badFrames) {
		t.Errorf("logged %d bad frames, want %d:\n%s", n, len(badFrames), log.String())
	}
}

// FuzzMCPFrame: no input line crashes the server or ends the session; a
// ping after it is always answered.
func FuzzMCPFrame(f *testing.F) {
	for _, bf := range badFrames {
		f.Add([]byte(bf.frame))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":5,"result":{}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{x\n[]"))
	f.Fuzz(func(t *testing.T, frame []byte) {
		c := startFrameServer(t, 4096, nil)
		c.send(frame)
		c.ping(987654321)
	})
}

// lockedWriter serialises writes to a buffer read after the session.
type lockedWriter struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func newTestLogger(b *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(&lockedWriter{b: b}, nil))
}
