package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxFrame is the largest frame (one line) FrameTransport accepts,
// the SDK's own default.
const DefaultMaxFrame = sdk.DefaultMaxLineLength

// FrameTransport is newline-delimited JSON-RPC 2.0 over a reader and a
// writer (stdin and stdout for `codectx mcp`) that survives bad input. The
// SDK's IOTransport ends the session on the first frame it cannot decode;
// this one reads the lines itself, checks each, answers a bad one with a
// JSON-RPC error (-32700 parse error: not JSON, invalid UTF-8, trailing
// data; -32600 invalid request: not an object, a batch, a wrong "jsonrpc"
// version, an id that is not a string or an integer, a missing or
// non-string method, a frame over MaxFrame bytes), with the frame's id when
// one could be read and a null id otherwise, logs it, and goes on with the
// next line. Good frames go to the SDK unchanged. Empty lines are skipped.
type FrameTransport struct {
	In  io.ReadCloser
	Out io.WriteCloser
	// MaxFrame bounds one line in bytes; 0 means DefaultMaxFrame. A longer
	// line is read to its end without being kept, then answered -32600.
	MaxFrame int
	// Logger receives one line per bad frame (at Info level); nil discards.
	Logger *slog.Logger
}

// Connect implements sdk.Transport.
func (t *FrameTransport) Connect(context.Context) (sdk.Connection, error) {
	max := t.MaxFrame
	if max <= 0 {
		max = DefaultMaxFrame
	}
	log := t.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &frameConn{in: t.In, out: t.Out, log: log, incoming: make(chan frameOrErr), closed: make(chan struct{})}
	go c.readLoop(max)
	return c, nil
}

type frameOrErr struct {
	msg jsonrpc.Message
	err error
}

// frameConn is the sdk.Connection of a FrameTransport.
type frameConn struct {
	in  io.ReadCloser
	out io.WriteCloser
	log *slog.Logger

	writeMu  sync.Mutex
	incoming chan frameOrErr

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// readLoop reads lines until the input ends, answering bad frames and
// handing good messages to Read. Like the SDK's reader it may stay blocked
// in In.Read after Close when In cannot be unblocked (stdin).
func (c *frameConn) readLoop(max int) {
	r := bufio.NewReaderSize(c.in, 64<<10)
	var line []byte
	for {
		var err error
		var tooBig bool
		line, tooBig, err = readFrame(r, line[:0], max)
		if len(line) > 0 || tooBig {
			if msg := c.check(line, tooBig, max); msg != nil {
				select {
				case c.incoming <- frameOrErr{msg: msg}:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF // the SDK treats a bare io.EOF as a normal end
			}
			select {
			case c.incoming <- frameOrErr{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readFrame appends the next line (without "\n" or "\r\n") to buf. A line
// longer than max is consumed to its end but not kept: tooBig reports it.
func readFrame(r *bufio.Reader, buf []byte, max int) (line []byte, tooBig bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooBig {
			if len(buf)+len(chunk) > max+2 { // room for "\r\n"
				tooBig = true
				buf = buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte{'\n'})
		buf = bytes.TrimSuffix(buf, []byte{'\r'})
		if !tooBig && len(buf) > max {
			tooBig, buf = true, buf[:0]
		}
		return buf, tooBig, err
	}
}

// frameHead is what check reads of a frame before the SDK decodes it.
type frameHead struct {
	JSONRPC *json.RawMessage `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id"`
	Method  *json.RawMessage `json:"method"`
	Params  *json.RawMessage `json:"params"`
	Result  *json.RawMessage `json:"result"`
	Error   *json.RawMessage `json:"error"`
}

// check returns the message of a good frame, or answers a bad one and
// returns nil.
func (c *frameConn) check(line []byte, tooBig bool, max int) jsonrpc.Message {
	if tooBig {
		c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("frame larger than %d bytes", max), len(line))
		return nil
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	// The first JSON value of the line, to find an id even when the rest
	// of the frame is bad.
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: "+oneLine(err), len(line))
		return nil
	}
	var head frameHead
	isObject := first[0] == '{' && json.Unmarshal(first, &head) == nil
	id, idOK := frameID(head.ID)
	if !idOK {
		id = nil
	}
	if dec.InputOffset() != int64(len(trimmed)) {
		c.reject(id, jsonrpc.CodeParseError, "parse error: data after the JSON value", len(line))
		return nil
	}
	if !utf8.Valid(trimmed) {
		c.reject(id, jsonrpc.CodeParseError, "parse error: invalid UTF-8", len(line))
		return nil
	}
	switch {
	case first[0] == '[':
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported", len(line))
		return nil
	case !isObject:
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON object", len(line))
		return nil
	case head.JSONRPC == nil || string(*head.JSONRPC) != `"2.0"`:
		c.reject(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, len(line))
		return nil
	case head.ID != nil && !idOK:
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or an integer", len(line))
		return nil
	case head.Method != nil && !isJSONString(*head.Method):
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: method must be a string", len(line))
		return nil
	case head.Method != nil && head.Params != nil && !isStructured(*head.Params):
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: params must be an object or an array", len(line))
		return nil
	case head.Method == nil && (id == nil || (head.Result == nil && head.Error == nil)):
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: no method", len(line))
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: "+oneLine(err), len(line))
		return nil
	}
	return msg
}

// frameID returns the id as the JSON-RPC answer must echo it (a string or
// an int64), nil for an absent or null id; ok is false for any other id.
func frameID(raw *json.RawMessage) (any, bool) {
	if raw == nil || string(*raw) == "null" {
		return nil, true
	}
	var v any
	if err := json.Unmarshal(*raw, &v); err != nil {
		return nil, false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), true
		}
	}
	return nil, false
}

func isJSONString(raw json.RawMessage) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil && len(raw) > 0 && raw[0] == '"'
}

func isStructured(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '{' || raw[0] == '[')
}

func oneLine(err error) string {
	return string(bytes.Join(bytes.Fields([]byte(err.Error())), []byte(" ")))
}

// reject answers a bad frame with a JSON-RPC error; id nil is written as
// null.
func (c *frameConn) reject(id any, code int, msg string, size int) {
	c.log.Info("mcp: bad frame answered with an error", "code", code, "error", msg, "id", id, "bytes", size)
	data, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err != nil {
		c.log.Info("mcp: encode error answer", "err", err)
		return
	}
	if err := c.writeLine(data); err != nil {
		c.log.Info("mcp: write error answer", "err", err)
	}
}

func (c *frameConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Read implements sdk.Connection.
func (c *frameConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case v := <-c.incoming:
		return v.msg, v.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements sdk.Connection.
func (c *frameConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.writeLine(data)
}

// Close implements sdk.Connection: it closes both streams.
func (c *frameConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.in.Close(), c.out.Close())
		close(c.closed)
	})
	return c.closeErr
}

// SessionID implements sdk.Connection (stdio has no session id).
func (c *frameConn) SessionID() string { return "" }
