package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport serves MCP over newline-delimited JSON-RPC on a pair of
// streams, like the SDK's IOTransport, with two differences that keep a
// session alive and complete:
//   - a line that is not a valid JSON-RPC message gets a JSON-RPC error
//     reply (-32700 parse error, -32600 invalid request) and the session
//     goes on; the SDK's transport ends the session instead, and drops a
//     message without a method or a request with a null id unanswered;
//   - when the input ends, requests already read are answered before the
//     session closes (within DrainTimeout), so a client that writes its
//     requests and closes stdin still gets every answer.
type StdioTransport struct {
	In  io.ReadCloser
	Out io.WriteCloser
	// DrainTimeout bounds the wait for in-flight answers after the input
	// ends; 0 means one minute.
	DrainTimeout time.Duration
	Logger       *slog.Logger
}

// maxLine bounds one inbound message; a longer line is refused with an
// error reply, never buffered whole.
const maxLine = 64 << 20

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	logger := t.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	drain := t.DrainTimeout
	if drain <= 0 {
		drain = time.Minute
	}
	c := &lineConn{
		in: t.In, out: t.Out, logger: logger, drain: drain,
		incoming: make(chan jsonrpc.Message),
		eof:      make(chan struct{}),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]bool{},
	}
	c.idle = sync.NewCond(&c.mu)
	go c.readLoop()
	return c, nil
}

type lineConn struct {
	in     io.ReadCloser
	out    io.WriteCloser
	logger *slog.Logger
	drain  time.Duration

	incoming chan jsonrpc.Message
	eof      chan struct{} // closed when the input ended and answers drained
	closed   chan struct{}

	writeMu sync.Mutex

	mu      sync.Mutex
	idle    *sync.Cond
	pending map[jsonrpc.ID]bool // requests read and not yet answered

	closeOnce sync.Once
}

func (c *lineConn) SessionID() string { return "" }

func (c *lineConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			if msg := c.decode(line); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.logger.Warn("stdin read failed", "err", err)
			}
			c.waitForAnswers()
			close(c.eof)
			return
		}
	}
}

// readLine reads one '\n'-terminated line; a line over maxLine is
// discarded up to its end and returned as a marker the decoder refuses.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			line = []byte("\x00too long")
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return line, err
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// decode turns one line into a message, or answers it with a JSON-RPC
// error and returns nil.
func (c *lineConn) decode(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if bytes.HasPrefix(line, []byte("\x00too long")) {
		c.replyError(nil, -32600, fmt.Sprintf("message longer than %d bytes", maxLine))
		return nil
	}
	if _, problem := checkMessage(line); problem != nil {
		if problem.detail != "" {
			c.logger.Warn("refused an inbound message", "code", problem.code, "detail", problem.detail)
		}
		if problem.notification {
			c.logger.Warn("dropped a notification with invalid params", "message", problem.message)
			return nil
		}
		c.replyError(problem.id, problem.code, problem.message)
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		// checkMessage let through what the go-sdk refuses: its words may
		// name Go types, so they go to the log, not to the client.
		c.logger.Warn("the go-sdk refused an inbound message checkMessage passed", "err", err)
		c.replyError(rawID(line), codeInvalidRequest, "invalid request: the message is not a JSON-RPC 2.0 request, notification or response")
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		c.mu.Lock()
		c.pending[req.ID] = true
		c.mu.Unlock()
	}
	return msg
}

// rawID is the "id" of a malformed message when it is a valid JSON-RPC id
// (a string or a number), for its error reply; nil otherwise.
func rawID(line []byte) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return nil
	}
	id := bytes.TrimSpace(fields["id"])
	if len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return id
	}
	return nil
}

func (c *lineConn) replyError(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	reply, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	c.logger.Warn("refused an inbound message", "code", code, "message", message)
	if err := c.writeLine(reply); err != nil {
		c.logger.Warn("could not answer a malformed message", "err", err)
	}
}

// waitForAnswers waits until every request read has been answered, or the
// drain timeout passes.
func (c *lineConn) waitForAnswers() {
	timer := time.AfterFunc(c.drain, func() {
		c.mu.Lock()
		clear(c.pending)
		c.idle.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	for len(c.pending) > 0 {
		select {
		case <-c.closed:
			c.mu.Unlock()
			return
		default:
		}
		c.idle.Wait()
	}
	c.mu.Unlock()
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg := <-c.incoming:
		return msg, nil
	case <-c.eof:
		return nil, io.EOF
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := encodeMessage(msg)
	if err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error != nil {
		data = c.plainError(data)
	}
	err = c.writeLine(data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.idle.Broadcast()
		c.mu.Unlock()
	}
	return err
}

// plainError is an encoded error response with its message replaced when
// it shows Go internals (a type or struct field name from a decoder):
// checkMessage refuses what the go-sdk would word that way, so this is the
// last guard, for what it missed. The original goes to the log.
func (c *lineConn) plainError(data []byte) []byte {
	var resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &resp) != nil || !showsInternals(resp.Error.Message) {
		return data
	}
	c.logger.Warn("an error answer named Go internals; the client gets a plain one", "code", resp.Error.Code, "message", resp.Error.Message)
	resp.Error.Message = plainErrorMessage(resp.Error.Code)
	if plain, err := json.Marshal(resp); err == nil {
		return plain
	}
	return data
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		return err
	}
	return nil
}

// encodeMessage is jsonrpc.EncodeMessage, but a successful response is
// framed by hand around its result, which the SDK marshaled a moment ago:
// EncodeMessage would validate and copy a megabyte-sized result once more.
// The line ends with room for the newline, so writeLine copies nothing.
func encodeMessage(msg jsonrpc.Message) ([]byte, error) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) < plainMinBytes {
		return jsonrpc.EncodeMessage(msg)
	}
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil {
		return nil, err
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	data := make([]byte, 0, len(head)+len(id)+len(mid)+len(resp.Result)+2)
	data = append(data, head...)
	data = append(data, id...)
	data = append(data, mid...)
	data = append(data, resp.Result...)
	return append(data, '}'), nil
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		c.mu.Lock()
		c.idle.Broadcast()
		c.mu.Unlock()
		err = errors.Join(c.in.Close(), c.out.Close())
	})
	return err
}
