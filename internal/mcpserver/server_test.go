package mcpserver

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// fakeDaemon stands in for the daemon: it records each call and answers
// with answer (an echo of the input by default).
type fakeDaemon struct {
	mu       sync.Mutex
	sessions []string
	inputs   []map[string]any
	answer   func(ctx context.Context, in map[string]any, progress func(string)) (json.RawMessage, error)
}

func (f *fakeDaemon) dial(ctx context.Context, session string) (Daemon, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = append(f.sessions, session)
	return &fakeConn{f: f, session: session}, nil
}

// calls returns the inputs received so far.
func (f *fakeDaemon) calls() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.inputs...)
}

type fakeConn struct {
	f       *fakeDaemon
	session string
}

func (c *fakeConn) Call(ctx context.Context, input any, deadline time.Duration, progress func(string)) (json.RawMessage, error) {
	raw, _ := json.Marshal(input)
	var in map[string]any
	json.Unmarshal(raw, &in)
	in["_session"] = c.session
	c.f.mu.Lock()
	c.f.inputs = append(c.f.inputs, in)
	answer := c.f.answer
	c.f.mu.Unlock()
	if answer != nil {
		return answer(ctx, in, progress)
	}
	return raw, nil
}

func (c *fakeConn) Close() error { return nil }

// connect serves a new Server over an in-memory transport and returns a
// connected SDK client session.
func connect(t *testing.T, opts Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return connectTo(t, srv, "test client", copts)
}

func connectTo(t *testing.T, srv *Server, name string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return cs
}

// call calls a tool with arguments given as JSON text.
func call(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool}
	if args != "" {
		p.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("CallTool %s %s: protocol error %v", tool, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// errorCode is the code of a tool error, or "" for a success.
func errorCode(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if !res.IsError {
		return ""
	}
	var sc struct{ Error protocol.Error }
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sc); err != nil || sc.Error.Code == "" {
		t.Fatalf("tool error without a code in structuredContent: %s / %s", b, text(res))
	}
	if !strings.HasPrefix(text(res), sc.Error.Code+": ") {
		t.Errorf("tool error text %q does not start with its code %q", text(res), sc.Error.Code)
	}
	return sc.Error.Code
}

func TestMalformedArgumentsAreCodedToolErrors(t *testing.T) {
	fake := &fakeDaemon{}
	cs := connect(t, Options{Dial: fake.dial}, nil)
	cases := []struct{ name, args, want string }{
		{"wrong type", `{"action":"status","tabId":"12"}`, `"tabId" must be a whole number`},
		{"wrong type of action", `{"action":5}`, `"action" must be a string`},
		{"unknown action", `{"action":"fly"}`, `unknown action "fly"`},
		{"no action", `{}`, "action is required"},
		{"no arguments", ``, "action is required"},
		{"missing required parameter", `{"action":"open"}`, "open needs url"},
		{"unknown parameter", `{"action":"status","colour":"red"}`, `unknown parameter "colour"`},
		{"parameter of another action", `{"action":"open","url":"https://example.com/","keys":"Enter"}`, `"keys" does not apply to open`},
		{"not an object", `["status"]`, "must be a JSON object"},
		{"negative timeout", `{"action":"status","timeoutMs":-1}`, "timeoutMs must be between 1 and"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, cs, ToolName, c.args)
			if code := errorCode(t, res); code != protocol.CodeInvalidArgument {
				t.Fatalf("code %q, want %q; text %q", code, protocol.CodeInvalidArgument, text(res))
			}
			if !strings.Contains(text(res), c.want) {
				t.Errorf("text %q does not say %q", text(res), c.want)
			}
		})
	}
	if n := len(fake.calls()); n != 0 {
		t.Errorf("bad inputs reached the daemon %d times", n)
	}
	// The server keeps serving.
	if res := call(t, cs, ToolName, `{"action":"status"}`); res.IsError {
		t.Fatalf("status after bad inputs: %s", text(res))
	}
}

func TestDaemonErrorsAreToolErrors(t *testing.T) {
	fake := &fakeDaemon{answer: func(context.Context, map[string]any, func(string)) (json.RawMessage, error) {
		return nil, protocol.Errorf(protocol.CodeNotOwned, "tab 3 was not opened by the bridge; leave it to the user")
	}}
	cs := connect(t, Options{Dial: fake.dial}, nil)
	res := call(t, cs, ToolName, `{"action":"close","tabId":3}`)
	if code := errorCode(t, res); code != protocol.CodeNotOwned {
		t.Fatalf("code %q, text %q", code, text(res))
	}
	if !strings.Contains(text(res), "leave it to the user") {
		t.Errorf("the sentence is lost: %q", text(res))
	}
}

func TestResultTextAndStructuredContent(t *testing.T) {
	raw := `{"tabId":7,"windowId":2,"url":"https://example.com/","title":"Example","owned":true,"workspace":"session:x"}`
	fake := &fakeDaemon{answer: func(context.Context, map[string]any, func(string)) (json.RawMessage, error) {
		return json.RawMessage(raw), nil
	}}
	cs := connect(t, Options{Dial: fake.dial}, nil)
	res := call(t, cs, ToolName, `{"action":"open","url":"https://example.com/"}`)
	if res.IsError {
		t.Fatal(text(res))
	}
	if got := regexp.MustCompile(`page-[a-z2-7]{12}`).ReplaceAllString(text(res), "F"); !strings.HasPrefix(got, `tab 7 · <F part="title">Example</F> · https://example.com/`+"\n\n") || !strings.Contains(got, `"windowId":2`) {
		t.Errorf("text:\n%s", got)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got, want any
	json.Unmarshal(b, &got)
	json.Unmarshal([]byte(raw), &want)
	if !jsonEqual(got, want) {
		t.Errorf("structuredContent %s, want %s", b, raw)
	}
}

func TestMarkdownComesFirst(t *testing.T) {
	fake := &fakeDaemon{answer: func(context.Context, map[string]any, func(string)) (json.RawMessage, error) {
		return json.RawMessage(`{"tabId":1,"title":"T","url":"https://t/","markdown":"# Hello\n\nworld","text":"Hello world","links":[{"text":"a","url":"https://a/"}],"totalChars":20}`), nil
	}}
	cs := connect(t, Options{Dial: fake.dial}, nil)
	res := call(t, cs, ToolName, `{"action":"extract","tabId":1}`)
	want := "tab 1 · <F part=\"title\">T</F> · https://t/\n\n<F part=\"markdown\">\n# Hello\n\nworld\n</F>\n\n<F part=\"links\">\n[a](https://a/)\n</F>\n\n<F part=\"text\">\nHello world\n</F>\n\n{\"totalChars\":20}"
	// F is the result's fence, a random name (see pageText).
	if got := regexp.MustCompile(`page-[a-z2-7]{12}`).ReplaceAllString(text(res), "F"); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	// The page's content is in the text only; the structured content is
	// its metadata and names the parts the text holds.
	b, _ := json.Marshal(res.StructuredContent)
	if got := string(b); got != `{"parts":["markdown","links","text"],"tabId":1,"title":"T","totalChars":20,"url":"https://t/"}` {
		t.Errorf("structuredContent %s", got)
	}
}

func TestRunIDFromMeta(t *testing.T) {
	fake := &fakeDaemon{}
	cs := connect(t, Options{Dial: fake.dial}, nil)
	for _, c := range []struct{ args, want string }{
		{`{"action":"status"}`, "from-meta"},
		{`{"action":"status","runId":"from-args"}`, "from-args"},
	} {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(c.args), Meta: mcp.Meta{"runId": "from-meta"}})
		if err != nil {
			t.Fatal(err)
		}
		calls := fake.calls()
		if got := calls[len(calls)-1]["runId"]; got != c.want {
			t.Errorf("%s: runId %v, want %s", c.args, got, c.want)
		}
	}
}

func TestEachConnectionIsItsOwnSession(t *testing.T) {
	fake := &fakeDaemon{}
	srv, err := New(Options{Dial: fake.dial})
	if err != nil {
		t.Fatal(err)
	}
	a := connectTo(t, srv, "Claude Code", nil)
	b := connectTo(t, srv, "Claude Code", nil)
	for range 2 {
		call(t, a, ToolName, `{"action":"status"}`)
		call(t, b, ToolName, `{"action":"status"}`)
	}
	seen := map[any]int{}
	for _, in := range fake.calls() {
		seen[in["_session"]]++
	}
	if len(seen) != 2 {
		t.Fatalf("sessions %v, want two", seen)
	}
	for s, n := range seen {
		name, _ := s.(string)
		if !strings.HasPrefix(name, "session:claude-code-") || n != 2 {
			t.Errorf("session %q had %d calls", name, n)
		}
	}
}

func TestProgressAndCancel(t *testing.T) {
	cancelled := make(chan time.Time, 1)
	fake := &fakeDaemon{answer: func(ctx context.Context, in map[string]any, progress func(string)) (json.RawMessage, error) {
		if progress != nil {
			progress("waiting for the page to load")
		}
		<-ctx.Done()
		cancelled <- time.Now()
		return nil, ctx.Err()
	}}
	notes := make(chan *mcp.ProgressNotificationParams, 100)
	cs := connect(t, Options{Dial: fake.dial, ProgressEvery: 20 * time.Millisecond}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { notes <- r.Params },
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		p := &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(`{"action":"open","url":"https://slow.example/"}`)}
		p.SetProgressToken("tok-1")
		_, err := cs.CallTool(ctx, p)
		done <- err
	}()
	var got []string
	for len(got) < 3 {
		select {
		case n := <-notes:
			if n.ProgressToken != "tok-1" {
				t.Errorf("progress token %v", n.ProgressToken)
			}
			got = append(got, n.Message)
		case <-time.After(5 * time.Second):
			t.Fatalf("progress so far: %q", got)
		}
	}
	if got[0] != "waiting for the page to load" || !strings.HasPrefix(got[1], "open: still working") {
		t.Errorf("progress messages %q", got)
	}
	start := time.Now()
	cancel()
	select {
	case at := <-cancelled:
		if d := at.Sub(start); d > 2*time.Second {
			t.Errorf("the daemon call was cancelled after %s", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the MCP request did not cancel the daemon call")
	}
	if err := <-done; err == nil {
		t.Error("a cancelled call returned no error")
	}
	fake.mu.Lock()
	fake.answer = nil
	fake.mu.Unlock()
	if res := call(t, cs, ToolName, `{"action":"status"}`); res.IsError {
		t.Errorf("the session does not serve after a cancel: %s", text(res))
	}
}

func TestNoProgressWithoutToken(t *testing.T) {
	fake := &fakeDaemon{answer: func(ctx context.Context, in map[string]any, progress func(string)) (json.RawMessage, error) {
		if progress != nil {
			t.Error("a progress function without a progress token")
		}
		time.Sleep(60 * time.Millisecond)
		return json.RawMessage(`{"ok":true}`), nil
	}}
	notes := make(chan struct{}, 10)
	cs := connect(t, Options{Dial: fake.dial, ProgressEvery: 10 * time.Millisecond}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { notes <- struct{}{} },
	})
	call(t, cs, ToolName, `{"action":"status"}`)
	if len(notes) != 0 {
		t.Errorf("%d progress notifications without a token", len(notes))
	}
}

func TestSplitTools(t *testing.T) {
	fake := &fakeDaemon{}
	cs := connect(t, Options{Dial: fake.dial, Tools: ModeSplit}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range res.Tools {
		names[tl.Name] = true
	}
	for _, a := range tool.Listed() {
		if !names[SplitToolName(a)] {
			t.Errorf("no tool %s in %v", SplitToolName(a), names)
		}
	}
	if names[ToolName] {
		t.Errorf("split mode also lists %s", ToolName)
	}
	if r := call(t, cs, "browser_open", `{"url":"https://example.com/"}`); r.IsError {
		t.Fatal(text(r))
	}
	if got := fake.calls()[0]["action"]; got != "open" {
		t.Errorf("browser_open sent action %v", got)
	}
	r := call(t, cs, "browser_open", `{"action":"close","tabId":1}`)
	if errorCode(t, r) != protocol.CodeInvalidArgument || !strings.Contains(text(r), "call browser_close") {
		t.Errorf("browser_open with another action: %s", text(r))
	}
}

func TestRedialsWhenTheDaemonRestarted(t *testing.T) {
	var mu sync.Mutex
	dials := 0
	dial := func(ctx context.Context, session string) (Daemon, error) {
		mu.Lock()
		defer mu.Unlock()
		dials++
		return &brokenOnce{broken: dials == 1}, nil
	}
	cs := connect(t, Options{Dial: dial}, nil)
	res := call(t, cs, ToolName, `{"action":"status"}`)
	if res.IsError {
		t.Fatalf("not retried on a fresh connection: %s", text(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if dials != 2 {
		t.Errorf("%d dials, want 2", dials)
	}
}

// brokenOnce is a connection whose daemon went away, if broken.
type brokenOnce struct{ broken bool }

func (b *brokenOnce) Call(context.Context, any, time.Duration, func(string)) (json.RawMessage, error) {
	if b.broken {
		return nil, errString("the daemon closed the connection: EOF")
	}
	return json.RawMessage(`{"connected":false}`), nil
}

func (b *brokenOnce) Close() error { return nil }

type errString string

func (e errString) Error() string { return string(e) }

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestPrepareRunsWhenAConnectionStarts(t *testing.T) {
	prepared := make(chan struct{})
	var once sync.Once
	connect(t, Options{Dial: (&fakeDaemon{}).dial, Prepare: func(context.Context) error {
		once.Do(func() { close(prepared) })
		return nil
	}}, nil)
	select {
	case <-prepared:
	case <-time.After(5 * time.Second):
		t.Fatal("Prepare did not run")
	}
}
