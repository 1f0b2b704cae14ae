package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineBytes bounds one line of stdin, that is one JSON-RPC message
// (without its line end). Requests are small; the bound only keeps a
// runaway client from making the server buffer without end. A longer line
// is answered with an error, like any other bad line.
const maxLineBytes = 64 << 20

// ServeStdio serves one MCP connection on stdin and stdout.
//
// The SDK's stdio transport ends the whole connection on the first line it
// cannot decode, and with it the calls still in flight: one bad line from
// a client would cost the agent its browser tool and the replies it waits
// for. So stdin goes through filterLines, which hands the SDK only lines it
// takes and answers every other line itself with a JSON-RPC error.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.serveLines(ctx, os.Stdin, os.Stdout)
}

// serveLines is ServeStdio on in and out: newline-delimited JSON-RPC, as the
// MCP stdio transport frames it.
func (s *Server) serveLines(ctx context.Context, in io.Reader, out io.Writer) error {
	open := &openRequests{ids: map[string]bool{}, done: make(chan struct{}, 1)}
	w := &lineWriter{w: out, answered: open.answered}
	pr, pw := io.Pipe()
	go func() {
		// nil at the end of in: the SDK reads io.EOF and the connection
		// ends normally, as it did reading stdin itself — once the
		// requests already read are answered (a client may write its
		// requests and close stdin: `printf ... | browser-bridge mcp`).
		// When the connection ends first, the SDK closes pr and the next
		// Write here fails, which ends this goroutine (unless it is
		// blocked reading stdin, which the process's exit ends).
		err := filterLines(in, &requestWriter{pw, open.sent}, w.writeLine, maxLineBytes)
		if err == nil {
			open.wait(ctx, drainWait)
		}
		pw.CloseWithError(err)
	}()
	// No SDK cap on a message: filterLines bounds lines already, and the
	// SDK's cap, when hit, ends the connection.
	return s.Serve(ctx, &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1})
}

// lineWriter is stdout, shared by the SDK's messages and filterLines's
// error replies. Both write whole lines under one lock, so two messages
// never interleave. The SDK (v1.8.0) writes each message with its newline
// in one Write; lineWriter still holds back a partial line until its end
// comes, so that an SDK writing a message in pieces could not let a reply
// land inside it.
type lineWriter struct {
	mu       sync.Mutex
	w        io.Writer
	pending  []byte            // the start of the SDK's unfinished line
	answered func(line []byte) // told of each whole line the SDK writes
}

// Write is the SDK's side: it writes what p completes, and keeps the rest.
func (lw *lineWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	end := bytes.LastIndexByte(p, '\n') + 1
	if end == 0 {
		lw.pending = append(lw.pending, p...)
		return len(p), nil
	}
	var err error
	if len(lw.pending) == 0 {
		_, err = lw.w.Write(p[:end]) // the usual case: no copy
		lw.tell(p[:end])
	} else {
		lw.pending = append(lw.pending, p[:end]...)
		_, err = lw.w.Write(lw.pending)
		lw.tell(lw.pending)
		lw.pending = lw.pending[:0]
	}
	lw.pending = append(lw.pending, p[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// tell passes each whole line of lines to answered.
func (lw *lineWriter) tell(lines []byte) {
	if lw.answered == nil {
		return
	}
	for _, l := range bytes.Split(lines, []byte{'\n'}) {
		if len(l) > 0 {
			lw.answered(l)
		}
	}
}

// drainWait bounds the wait, at the end of stdin, for the answers to the
// requests already read: the longest call takes 60 s and some slack.
const drainWait = 70 * time.Second

// openRequests are the requests passed to the SDK and not answered yet.
type openRequests struct {
	mu   sync.Mutex
	ids  map[string]bool
	done chan struct{} // signalled when ids becomes empty
}

// idOf returns the id of a JSON-RPC message, and whether it is a request
// (it has a method) or a response.
func idOf(line []byte) (id string, request bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return "", false
	}
	return string(m.ID), m.Method != ""
}

// sent notes a request passed to the SDK.
func (o *openRequests) sent(line []byte) {
	if id, request := idOf(line); request {
		o.mu.Lock()
		o.ids[id] = true
		o.mu.Unlock()
	}
}

// answered notes a response the SDK wrote.
func (o *openRequests) answered(line []byte) {
	if id, request := idOf(line); id != "" && !request {
		o.mu.Lock()
		delete(o.ids, id)
		if len(o.ids) == 0 {
			select {
			case o.done <- struct{}{}:
			default:
			}
		}
		o.mu.Unlock()
	}
}

// wait returns when every request read is answered, ctx ends, or d passes.
func (o *openRequests) wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		o.mu.Lock()
		n := len(o.ids)
		o.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-o.done:
		case <-ctx.Done():
			return
		case <-t.C:
			return
		}
	}
}

// requestWriter is the pipe to the SDK, noting the requests it carries.
type requestWriter struct {
	w    io.Writer
	sent func(line []byte)
}

func (rw *requestWriter) Write(p []byte) (int, error) {
	rw.sent(p) // one whole message per Write (filterLines)
	return rw.w.Write(p)
}

// Close leaves stdout open, as the SDK's own stdio transport does: the
// process may still print on its way out.
func (lw *lineWriter) Close() error { return nil }

// writeLine writes one whole line (ending in a newline) between the SDK's
// messages.
func (lw *lineWriter) writeLine(line []byte) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, err := lw.w.Write(line)
	return err
}

// filterLines reads in line by line. A line that is one JSON-RPC message
// the SDK takes goes to pass, without surrounding blanks and with a
// newline, in one Write; every other line is answered through reply with
// a JSON-RPC error response (see rejectLine), and a line over max bytes
// too. Blank lines are skipped, as the SDK's decoder skipped them.
// filterLines returns nil at the end of in, or the first error reading in
// or writing.
func filterLines(in io.Reader, pass io.Writer, reply func([]byte) error, max int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	for {
		line, tooLong, readErr := readLine(r, buf[:0], max)
		var err error
		if tooLong {
			err = reply(errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: line longer than "+strconv.Itoa(max)+" bytes"))
		} else if msg := bytes.Trim(line, " \t\r\n"); len(msg) > 0 {
			if resp := rejectLine(msg); resp != nil {
				err = reply(resp)
			} else {
				// The append may overwrite a trailing blank of line,
				// which is not needed any more. The pipe's Write
				// returns once the SDK has read all of it, so buf can
				// be reused then.
				_, err = pass.Write(append(msg, '\n'))
			}
		}
		if err != nil {
			return err
		}
		if readErr == io.EOF {
			return nil
		}
		if readErr != nil {
			return readErr
		}
		buf = line
		if cap(buf) > 1<<20 {
			buf = nil // do not hold on to the memory of one long line
		}
	}
}

// readLine reads one line, with its newline, appending it to buf. A line
// of more than max bytes (its newline not counted) is read to its end but
// not kept: tooLong reports it. err is that of the read that ended the line
// (io.EOF for a last line without a newline, and for no line at all).
func readLine(r *bufio.Reader, buf []byte, max int) (line []byte, tooLong bool, err error) {
	for {
		var chunk []byte
		chunk, err = r.ReadSlice('\n')
		switch {
		case tooLong: // skip to the line's end
		case len(buf)+len(chunk) > max+1: // +1: the newline
			tooLong, buf = true, buf[:0]
		default:
			buf = append(buf, chunk...)
		}
		if err != bufio.ErrBufferFull {
			break
		}
	}
	if !tooLong && len(bytes.TrimSuffix(buf, []byte("\n"))) > max {
		tooLong, buf = true, buf[:0]
	}
	return buf, tooLong, err
}

// maxExactInt is the largest integer a float64 holds exactly. The SDK
// decodes a numeric id as a float64, so a larger one could come back
// changed in the response.
const maxExactInt = 1 << 53

// rejectLine returns the error response (a line, with its newline) that
// answers line, or nil when the SDK takes line as it is, without ending
// the connection. That is a single JSON object (no batch: MCP dropped
// batches in 2025-06-18) with "jsonrpc":"2.0", an "id" that is absent, a
// string or an integer (MCP forbids null), and a string "method", or else
// an id and a "result" or "error" (a response to the server). line has no
// blanks around it.
//
// Invalid JSON is a parse error (-32700), anything else an invalid request
// (-32600). The response carries the line's id when it has a string or a
// number there, and null otherwise, as JSON-RPC 2.0 asks.
func rejectLine(line []byte) []byte {
	if !json.Valid(line) {
		return errorResponse(nil, jsonrpc.CodeParseError, "Parse error: the line is not one JSON value")
	}
	var fields map[string]json.RawMessage
	if line[0] == '[' {
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported; send each message on a line of its own")
	}
	if line[0] != '{' || json.Unmarshal(line, &fields) != nil {
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON-RPC message object")
	}
	rawID, hasID := fields["id"]
	var id json.RawMessage // echoed only when it is a string or a number
	if len(rawID) > 0 && (rawID[0] == '"' || rawID[0] == '-' || rawID[0] >= '0' && rawID[0] <= '9') {
		id = rawID
	}
	invalid := func(why string) []byte {
		return errorResponse(id, jsonrpc.CodeInvalidRequest, "Invalid Request: "+why)
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if hasID && !validID(rawID) {
		return invalid(`"id" must be a string or an integer`)
	}
	rawMethod, hasMethod := fields["method"]
	var method string
	if hasMethod && json.Unmarshal(rawMethod, &method) != nil {
		return invalid(`"method" must be a string`)
	}
	if !hasMethod {
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if !hasID || !hasResult && !hasError {
			return invalid(`no "method"`)
		}
	}
	// The last word is the SDK's own decoder (which differs from
	// encoding/json in details: it matches field names by case, and
	// bounds nesting): what it refuses would end the connection.
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return invalid(err.Error())
	}
	if req, ok := msg.(*jsonrpc.Request); ok && hasID && !req.IsCall() {
		// Should encoding/json and the SDK's decoder ever read a
		// duplicate "id" key differently, the SDK could see no id where
		// there is one, take the call for a notification and never
		// answer it.
		return invalid(`"id" must be a string or an integer`)
	}
	return nil
}

// validID reports whether raw is an id MCP allows and the SDK echoes
// unchanged: a string, or an integer written in digits of at most 2^53
// (the SDK would truncate 1.5, and round a larger one; 1e3 could be
// exact, but telling when is not worth it: clients write digits).
func validID(raw json.RawMessage) bool {
	if len(raw) > 0 && raw[0] == '"' {
		return true // a valid JSON value (the line is), so a string
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && -maxExactInt <= n && n <= maxExactInt
}

// errorResponse is a JSON-RPC error response line; a nil id is null.
func errorResponse(id json.RawMessage, code int, message string) []byte {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: message}})
	if err != nil {
		panic(err) // cannot happen: id is valid JSON, the rest plain values
	}
	return append(b, '\n')
}
