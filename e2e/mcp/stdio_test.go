package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// rawMCP is `browser-bridge mcp` driven with raw lines on its stdin, as a
// client with a bug (or a stray write to the server's stdin) would.
type rawMCP struct {
	t       *testing.T
	stdin   io.WriteCloser
	replies chan map[string]any // each line of stdout, decoded
	exited  chan error          // the result of the process
	stderr  *syncBuffer
}

func startRawMCP(t *testing.T) *rawMCP {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := bridge.Command(ctx, "mcp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	// Not StdoutPipe: Wait would close it, maybe before the last lines
	// were read. With a writer, Wait returns once all of stdout is copied.
	stdout, stdoutW := io.Pipe()
	cmd.Stdout = stdoutW
	s := &rawMCP{t: t, stdin: stdin, replies: make(chan map[string]any, 100), exited: make(chan error, 1), stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := cmd.Wait()
		stdoutW.Close()
		s.exited <- err
	}()
	go func() {
		defer close(s.replies)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				var m map[string]any
				if json.Unmarshal(line, &m) != nil {
					m = map[string]any{"notJSON": string(line)}
				}
				s.replies <- m
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel() // kills the server if the test did not end it
		stdout.Close()
		<-s.exited
		if out := s.stderr.String(); out != "" {
			t.Logf("browser-bridge mcp stderr:\n%s", out)
		}
	})
	return s
}

func (s *rawMCP) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("writing %s: %v", line, err)
	}
}

// next is the next line the server wrote.
func (s *rawMCP) next() map[string]any {
	s.t.Helper()
	select {
	case m, ok := <-s.replies:
		if !ok {
			s.t.Fatalf("the server closed stdout (exited?); stderr: %s", s.stderr)
		}
		if m["notJSON"] != nil {
			s.t.Fatalf("the server wrote a line that is not JSON: %q", m["notJSON"])
		}
		return m
	case <-time.After(30 * time.Second):
		s.t.Fatal("no reply from the server")
		return nil
	}
}

// TestBadLinesOverStdio: each bad line an agent writes gets a JSON-RPC
// error back, and the server goes on: the call in flight when the bad
// lines came, and the requests after them, are all answered. Before,
// the first bad line made the server exit, and lose the call in flight.
func TestBadLinesOverStdio(t *testing.T) {
	s := startRawMCP(t)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw agent","version":"1"}}}`)
	if m := s.next(); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	status := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"use_user_browser","arguments":{"action":"status"}}}`
	}
	s.send(status("2"))
	bad := []struct {
		line string
		code float64
		id   any // of the error response
	}{
		{`garbage`, -32700, nil},
		{`[{"jsonrpc":"2.0","id":10,"method":"ping"}]`, -32600, nil},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"1.0","id":11,"method":"ping"}`, -32600, 11.0},
		{`{"id":"twelve","method":"ping"}`, -32600, "twelve"},
	}
	for _, b := range bad {
		s.send(b.line)
	}
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	s.send(status(`"four"`))

	var errs []map[string]any
	answered := map[any]map[string]any{}
	for len(errs) < len(bad) || len(answered) < 3 {
		m := s.next()
		switch id := m["id"]; id {
		case 2.0, 3.0, "four":
			answered[id] = m
		default:
			errs = append(errs, m)
		}
		if len(errs) > len(bad) {
			t.Fatalf("more error replies than bad lines: %v", errs)
		}
	}
	for i, b := range bad {
		e, _ := errs[i]["error"].(map[string]any)
		if errs[i]["jsonrpc"] != "2.0" || e == nil || e["code"] != b.code || errs[i]["id"] != b.id {
			t.Errorf("reply to %s: %v; want code %v, id %v", b.line, errs[i], b.code, b.id)
		}
	}
	for _, id := range []any{2.0, "four"} {
		res, _ := answered[id]["result"].(map[string]any)
		sc, _ := res["structuredContent"].(map[string]any)
		if res["isError"] == true || sc["connected"] != true {
			t.Errorf("status (id %v): %v", id, answered[id])
		}
	}
	if list, _ := json.Marshal(answered[3.0]["result"]); !strings.Contains(string(list), `"name":"use_user_browser"`) {
		t.Errorf("tools/list: %s", list)
	}

	// The end of stdin is still a clean end.
	s.stdin.Close()
	select {
	case err := <-s.exited:
		s.exited <- err // for the cleanup
		if err != nil {
			t.Errorf("mcp at the end of stdin: %v; stderr: %s", err, s.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("mcp did not exit at the end of stdin")
	}
}

// TestImageMaxMustNotBeNegative: --image-max -1 is refused as a bad flag
// value, not served as if it were 0.
func TestImageMaxMustNotBeNegative(t *testing.T) {
	res := bridge.Run(t, "mcp", "--image-max=-1")
	if res.Exit != 2 || !strings.Contains(string(res.Stderr), "-image-max: must be 0") {
		t.Errorf("mcp --image-max=-1: exit %d, stderr %s", res.Exit, res.Stderr)
	}
}

// A client may write its requests and close stdin at once
// (`printf ... | browser-bridge mcp`): the requests already read are
// answered before the server exits. Before, it exited in milliseconds
// without a word.
func TestRequestsBeforeEndOfInputAreAnswered(t *testing.T) {
	s := startRawMCP(t)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"piped agent","version":"1"}}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"use_user_browser","arguments":{"action":"status"}}}`)
	s.stdin.Close()
	got := map[float64]bool{}
	for m := range s.replies {
		if id, ok := m["id"].(float64); ok && m["result"] != nil {
			got[id] = true
		}
	}
	if !got[1] || !got[2] {
		t.Fatalf("answered before exit: %v; stderr %s", got, s.stderr.String())
	}
	// stdout ended: the server has exited. Its exit status, then handed
	// back for the cleanup that waits for it too.
	err := <-s.exited
	s.exited <- err
	if err != nil {
		t.Fatalf("exit: %v", err)
	}
}
