package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goodLines are messages the filter passes to the SDK unchanged.
var goodLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":"abc","method":"tools/list"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"method":"ping","id":9007199254740992,"jsonrpc":"2.0"}`, // 2^53: still exact
	`{"jsonrpc":"2.0","id":-3,"result":{}}`,                   // a response to the server
	`{"jsonrpc":"2.0","id":4,"error":{"code":1,"message":"no"}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":5}`, // the SDK answers that one
	`{"jsonrpc":"2.0","id":6,"method":""}`,
}

// badLines are lines the filter answers itself, with the error code and
// the id (as JSON) of the response.
var badLines = []struct {
	line string
	code int64
	id   string
}{
	{`garbage`, jsonrpc.CodeParseError, "null"},
	{`{"jsonrpc":"2.0","id":1,"method":"ping"`, jsonrpc.CodeParseError, "null"},
	{`{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`, jsonrpc.CodeParseError, "null"},
	{"\u00a0{}", jsonrpc.CodeParseError, "null"},
	{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null"},
	{`[]`, jsonrpc.CodeInvalidRequest, "null"},
	{`42`, jsonrpc.CodeInvalidRequest, "null"},
	{`"ping"`, jsonrpc.CodeInvalidRequest, "null"},
	{`null`, jsonrpc.CodeInvalidRequest, "null"},
	{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "1.5"},
	{`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "1e3"},
	{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "9007199254740993"},
	{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "7"},
	{`{"id":"a","method":"ping"}`, jsonrpc.CodeInvalidRequest, `"a"`},
	{`{"JSONRPC":"2.0","id":"a","method":"ping"}`, jsonrpc.CodeInvalidRequest, `"a"`},
	{`{"jsonrpc":2,"id":7,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "7"},
	{`{"jsonrpc":"2.0","id":7,"method":5}`, jsonrpc.CodeInvalidRequest, "7"},
	{`{"jsonrpc":"2.0","id":7}`, jsonrpc.CodeInvalidRequest, "7"},
	{`{"jsonrpc":"2.0","result":{}}`, jsonrpc.CodeInvalidRequest, "null"},
	{`{"jsonrpc":"2.0","id":7,"method":"ping","error":"x"}`, jsonrpc.CodeInvalidRequest, "7"},
	{`{"jsonrpc":"2.0","id":"x","method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, jsonrpc.CodeInvalidRequest, `"x"`},
}

// checkResponse fails unless line is one JSON-RPC error response line
// with code and id (as JSON; "" for any null, string or number).
func checkResponse(t testing.TB, line []byte, code int64, id string) {
	t.Helper()
	if bytes.IndexByte(line, '\n') != len(line)-1 {
		t.Fatalf("response is not one line: %q", line)
	}
	var resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		t.Fatalf("response %q: %v", line, err)
	}
	if resp.JSONRPC != "2.0" || resp.Error == nil || resp.Result != nil || resp.Error.Message == "" {
		t.Fatalf("not a JSON-RPC error response: %s", line)
	}
	if code != 0 && resp.Error.Code != code {
		t.Errorf("code %d, want %d: %s", resp.Error.Code, code, line)
	}
	if resp.Error.Code != jsonrpc.CodeParseError && resp.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("code %d is neither parse error nor invalid request: %s", resp.Error.Code, line)
	}
	switch {
	case id != "" && string(resp.ID) != id:
		t.Errorf("id %s, want %s: %s", resp.ID, id, line)
	case id == "":
		var v any
		json.Unmarshal(resp.ID, &v)
		switch v.(type) {
		case nil, string, float64:
		default:
			t.Errorf("id %s is not null, a string or a number", resp.ID)
		}
	}
}

func TestRejectLine(t *testing.T) {
	for _, c := range badLines {
		resp := rejectLine([]byte(c.line))
		if resp == nil {
			t.Errorf("passed %s", c.line)
			continue
		}
		checkResponse(t, resp, c.code, c.id)
	}
	for _, line := range goodLines {
		if resp := rejectLine([]byte(line)); resp != nil {
			t.Errorf("refused %s: %s", line, resp)
		}
	}
}

// filter runs filterLines on in and returns what it passed and replied.
func filter(in io.Reader, max int) (passed string, replies [][]byte, err error) {
	var pass bytes.Buffer
	err = filterLines(in, &pass, func(b []byte) error {
		replies = append(replies, append([]byte(nil), b...))
		return nil
	}, max)
	return pass.String(), replies, err
}

func TestFilterLines(t *testing.T) {
	const max = 200
	// A line of exactly max bytes passes; one more is too long.
	pad := func(n int) string {
		s := `{"jsonrpc":"2.0","method":"x","params":{"p":""}}`
		return s[:len(s)-3] + strings.Repeat("a", n-len(s)) + s[len(s)-3:]
	}
	longest, tooLong := pad(max), pad(max+1)
	in := strings.Join([]string{
		goodLines[0],
		"garbage\r",
		"", "  \t", // blank lines: skipped
		"  " + goodLines[1] + " \r", // blanks around: trimmed
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		longest,
		tooLong,
		tooLong + tooLong,
		`{"jsonrpc":"1.0","id":7,"method":"ping"}`,
		goodLines[2], // last line without a newline
	}, "\n")
	passed, replies, err := filter(strings.NewReader(in), max)
	if err != nil {
		t.Fatalf("at the end of input: %v", err)
	}
	if want := goodLines[0] + "\n" + goodLines[1] + "\n" + longest + "\n" + goodLines[2] + "\n"; passed != want {
		t.Errorf("passed\n%s\nwant\n%s", passed, want)
	}
	want := []struct {
		code int64
		id   string
	}{{jsonrpc.CodeParseError, "null"}, {jsonrpc.CodeInvalidRequest, "null"}, {jsonrpc.CodeInvalidRequest, "null"}, {jsonrpc.CodeInvalidRequest, "null"}, {jsonrpc.CodeInvalidRequest, "7"}}
	if len(replies) != len(want) {
		t.Fatalf("%d replies, want %d: %q", len(replies), len(want), replies)
	}
	for i, w := range want {
		checkResponse(t, replies[i], w.code, w.id)
	}

	// Lines far longer than the read buffer are skipped whole, and the
	// next line is read as it should.
	huge := strings.Repeat("x", 300<<10)
	passed, replies, err = filter(strings.NewReader(huge+"\n"+goodLines[1]+"\n"+huge), 1<<10)
	if err != nil || passed != goodLines[1]+"\n" || len(replies) != 2 {
		t.Errorf("around huge lines: passed %q, %d replies, %v", passed, len(replies), err)
	}

	// A read error ends the filter with that error, after what came before.
	boom := errors.New("boom")
	passed, _, err = filter(io.MultiReader(strings.NewReader(goodLines[1]+"\n"), iotest.ErrReader(boom)), max)
	if !errors.Is(err, boom) || passed != goodLines[1]+"\n" {
		t.Errorf("read error: passed %q, err %v", passed, err)
	}

	// An empty input is a clean end.
	if passed, replies, err := filter(strings.NewReader(""), max); err != nil || passed != "" || replies != nil {
		t.Errorf("empty input: %q %q %v", passed, replies, err)
	}
}

// TestLineWriterKeepsLinesWhole: a message written in pieces is not cut
// by a reply written meanwhile.
func TestLineWriterKeepsLinesWhole(t *testing.T) {
	var out bytes.Buffer
	lw := &lineWriter{w: &out}
	lw.Write([]byte(`{"a":`))
	lw.writeLine([]byte("{\"reply\":1}\n"))
	lw.Write([]byte("1}\n{\"b\":"))
	lw.Write([]byte("2}\n"))
	if want := "{\"reply\":1}\n{\"a\":1}\n{\"b\":2}\n"; out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}

	// And under concurrency, every line stays whole. (The SDK is one
	// writer: it serializes its own Writes.)
	out.Reset()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				line := fmt.Appendf(nil, "{\"w\":%d,\"n\":%d,\"pad\":%q}\n", i, j, strings.Repeat("p", 1000))
				if i == 0 { // the SDK, in pieces
					lw.Write(line[:10])
					lw.Write(line[10:])
				} else {
					lw.writeLine(line)
				}
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 8*50 {
		t.Fatalf("%d lines, want %d", len(lines), 8*50)
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("a line was cut: %.60s…", l)
		}
	}
}

// stdioClient drives serveLines as a client on the other end of stdio
// would, with raw lines.
type stdioClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan []byte // what the server wrote, one line each
	done  chan error  // serveLines's result
}

func startStdio(t *testing.T, srv *Server) *stdioClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, in: inW, lines: make(chan []byte, 100), done: make(chan error, 1)}
	go func() {
		c.done <- srv.serveLines(context.Background(), inR, outW)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(c.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("writing %s: %v", line, err)
	}
}

// next returns the next line the server wrote.
func (c *stdioClient) next() []byte {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server closed stdout")
		}
		if !json.Valid(line) {
			c.t.Fatalf("the server wrote a line that is not JSON: %q", line)
		}
		return line
	case <-time.After(10 * time.Second):
		c.t.Fatal("no reply from the server")
		return nil
	}
}

// TestServeLinesSurvivesBadLines: bad lines are answered with errors, the
// server goes on serving, and a call in flight meanwhile is answered; the
// end of stdin is still a clean end.
func TestServeLinesSurvivesBadLines(t *testing.T) {
	release := make(chan struct{})
	fake := &fakeDaemon{answer: func(ctx context.Context, in map[string]any, _ func(string)) (json.RawMessage, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return json.RawMessage(`{"connected":true,"tabs":[]}`), nil
	}}
	srv, err := New(Options{Dial: fake.dial})
	if err != nil {
		t.Fatal(err)
	}
	c := startStdio(t, srv)
	c.send(goodLines[0]) // initialize, id 1
	if line := c.next(); !bytes.Contains(line, []byte(`"id":1,"result"`)) {
		t.Fatalf("initialize: %s", line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"use_user_browser","arguments":{"action":"status"}}}`)
	for _, b := range badLines {
		c.send(b.line)
	}
	// Lines the SDK answers itself, or ignores, without ending anything.
	c.send(`{"jsonrpc":"2.0","id":40,"method":"tools/list","params":5}`)
	c.send(`{"jsonrpc":"2.0","id":41,"method":""}`)
	c.send(`{"jsonrpc":"2.0","id":99,"result":{}}`)
	c.send(`{"jsonrpc":"2.0","id":42,"method":"tools/list"}`)

	// The filter's replies come in the order of the bad lines; the SDK's
	// (ids 40 to 42) whenever they are ready.
	var errs [][]byte
	answered := map[string][]byte{}
	for len(answered) < 3 {
		line := c.next()
		var resp struct{ ID json.RawMessage }
		json.Unmarshal(line, &resp)
		switch id := string(resp.ID); id {
		case "2", "40", "41", "42":
			answered[id] = line
		default:
			errs = append(errs, line)
		}
	}
	if len(errs) != len(badLines) {
		t.Fatalf("%d error replies for %d bad lines: %q", len(errs), len(badLines), errs)
	}
	for i, b := range badLines {
		checkResponse(t, append(errs[i], '\n'), b.code, b.id)
	}
	if !bytes.Contains(answered["42"], []byte(`"use_user_browser"`)) {
		t.Errorf("tools/list: %s", answered["42"])
	}
	if answered["2"] != nil {
		t.Fatalf("the call answered before its daemon did: %s", answered["2"])
	}
	close(release)
	if line := c.next(); !bytes.Contains(line, []byte(`"id":2,"result"`)) || !bytes.Contains(line, []byte(`connected`)) {
		t.Errorf("the call in flight: %s", line)
	}

	c.in.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("serveLines at the end of stdin: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serveLines did not end at the end of stdin")
	}
}

// nopWriteCloser discards what the SDK writes in FuzzFilterLines.
type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }

// FuzzFilterLines: whatever a client sends, each line is either passed on
// or answered with a JSON-RPC error, and the SDK's own transport reads
// everything passed on without an error (an error there would end the
// connection).
func FuzzFilterLines(f *testing.F) {
	for _, l := range goodLines {
		f.Add([]byte(l + "\n"))
	}
	for _, b := range badLines {
		f.Add([]byte(b.line + "\r\n" + goodLines[1]))
	}
	f.Add([]byte("\n\n  \n"))
	f.Add([]byte(strings.Repeat("x", 300) + "\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const max = 256
		pr, pw := io.Pipe()
		conn, err := (&mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{}, MaxLineLength: -1}).Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var replies [][]byte
		filtered := make(chan error, 1)
		go func() {
			err := filterLines(bytes.NewReader(data), pw, func(b []byte) error {
				replies = append(replies, append([]byte(nil), b...))
				return nil
			}, max)
			pw.CloseWithError(err)
			filtered <- err
		}()
		read := 0
		for {
			msg, err := conn.Read(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("the SDK could not read what was passed on: %v", err)
			}
			if msg == nil {
				t.Fatal("the SDK read a nil message")
			}
			read++
		}
		if err := <-filtered; err != nil {
			t.Fatalf("filterLines on an in-memory input: %v", err)
		}
		for _, r := range replies {
			checkResponse(t, r, 0, "")
		}
		// Every line that is not blank was passed on or answered.
		lines := 0
		for l := range bytes.SplitSeq(data, []byte("\n")) {
			if len(bytes.Trim(l, " \t\r")) > 0 || len(l) > max {
				lines++
			}
		}
		if read+len(replies) != lines {
			t.Fatalf("%d lines, %d passed on and %d answered", lines, read, len(replies))
		}
	})
}
