package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/bridge"
	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/clientgen"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// message is what a client sends the daemon: a call (Input) or a verb
// (Verb, Params).
type message struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Input   json.RawMessage `json:"input"`
	Verb    string          `json:"verb"`
	Params  json.RawMessage `json:"params"`
	Browser string          `json:"browser"`
}

// fake starts a fake daemon (ipctest) that hands every message to seen and
// answers it with answer's reply; it returns the daemon's layout.
func fake(t *testing.T, seen chan<- message, answer func(m message) protocol.Reply) paths.Layout {
	t.Helper()
	layout := ipctest.Layout(t)
	ipctest.Start(t, layout, ipctest.WithServe(func(c *ipctest.Conn) {
		for {
			var m message
			if err := c.RecvJSON(&m); err != nil {
				return
			}
			if seen != nil {
				seen <- m
			}
			if m.Type == protocol.TypeCall || m.Type == protocol.TypeVerb {
				r := answer(m)
				r.ID = m.ID
				c.SendJSON(r)
			}
		}
	}))
	return layout
}

// result answers every message with v.
func result(v any) func(message) protocol.Reply {
	return func(message) protocol.Reply { return protocol.Reply{Result: v} }
}

func dial(t *testing.T, opts ...bridge.Option) *bridge.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ipctest.Wait)
	defer cancel()
	c, err := bridge.Dial(ctx, opts...)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func next(t *testing.T, seen <-chan message) message {
	t.Helper()
	select {
	case m := <-seen:
		return m
	case <-time.After(ipctest.Wait):
		t.Fatal("the daemon got nothing")
		return message{}
	}
}

// object decodes a JSON object for comparison.
func object(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %s", raw)
	}
	return m
}

func TestActionsMarshalToTheToolInput(t *testing.T) {
	t.Parallel()
	seen := make(chan message, 1)
	layout := fake(t, seen, result(map[string]any{"tabId": 7}))
	c := dial(t, bridge.WithHome(layout.State))
	ctx := context.Background()
	tests := []struct {
		name string
		run  func() error
		want map[string]any
	}{
		{"status", func() error { _, err := c.Status(ctx); return err },
			map[string]any{"action": "status"}},
		{"open", func() error {
			_, err := c.Open(ctx, bridge.OpenParams{URL: "https://example.com/", Where: "current", Incognito: new(false),
				Target: bridge.Target{BrowserWorkspaceID: "research", TimeoutMs: 9000}})
			return err
		}, map[string]any{"action": "open", "url": "https://example.com/", "target": "current", "incognito": false,
			"browserWorkspaceId": "research", "timeoutMs": 9000.0}},
		{"click at nth 0 in frame 0", func() error {
			_, err := c.Click(ctx, bridge.ClickParams{Target: bridge.Target{TabID: 3}, Locator: bridge.Locator{Role: "button", Name: "Save", Nth: new(0), FrameID: new(0)}, ClickCount: 2})
			return err
		}, map[string]any{"action": "click", "tabId": 3.0, "role": "button", "name": "Save", "nth": 0.0, "frameId": 0.0, "clickCount": 2.0}},
		{"click at a point", func() error {
			_, err := c.Click(ctx, bridge.ClickParams{Locator: bridge.Locator{X: new(0.0), Y: new(12.5), Coordinates: "document"}})
			return err
		}, map[string]any{"action": "click", "x": 0.0, "y": 12.5, "coordinates": "document"}},
		{"extract with waitFor", func() error {
			_, err := c.Extract(ctx, bridge.ExtractParams{URL: "https://example.com/", WaitFor: &bridge.WaitFor{Locator: bridge.Locator{Selector: "#results"}},
				Include: []string{"markdown", "links"}, MaxChars: 5000})
			return err
		}, map[string]any{"action": "extract", "url": "https://example.com/", "waitFor": map[string]any{"selector": "#results"},
			"include": []any{"markdown", "links"}, "maxChars": 5000.0}},
		{"type", func() error {
			_, err := c.Type(ctx, bridge.TypeParams{Locator: bridge.Locator{Label: "Email"}, Value: "ada@example.com", Clear: true})
			return err
		}, map[string]any{"action": "type", "label": "Email", "value": "ada@example.com", "clear": true}},
		{"check off", func() error {
			_, err := c.Check(ctx, bridge.CheckParams{Locator: bridge.Locator{Text: "Subscribe", Exact: true}, Checked: new(false)})
			return err
		}, map[string]any{"action": "check", "text": "Subscribe", "exact": true, "checked": false}},
		{"scroll by", func() error {
			_, err := c.Scroll(ctx, bridge.ScrollParams{DeltaY: new(0.0)})
			return err
		}, map[string]any{"action": "scroll", "deltaY": 0.0}},
		{"screenshot clip", func() error {
			_, err := c.Screenshot(ctx, bridge.ScreenshotParams{Clip: &bridge.Clip{Width: 100, Height: 50}, Dialog: "dismiss"})
			return err
		}, map[string]any{"action": "screenshot", "clip": map[string]any{"x": 0.0, "y": 0.0, "width": 100.0, "height": 50.0}, "dialog": "dismiss"}},
		{"close workspace", func() error {
			_, err := c.CloseTabs(ctx, bridge.CloseParams{Target: bridge.Target{RunID: "r1"}, CloseWorkspace: true})
			return err
		}, map[string]any{"action": "close", "runId": "r1", "closeWorkspace": true}},
		{"do with a map", func() error {
			_, err := c.Do(ctx, "drag", map[string]any{"selector": "#a"})
			return err
		}, map[string]any{"action": "drag", "selector": "#a"}},
	}
	for _, tt := range tests {
		if err := tt.run(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		m := next(t, seen)
		if m.Type != protocol.TypeCall {
			t.Errorf("%s: sent %q, want a call", tt.name, m.Type)
		}
		if diff := cmp.Diff(tt.want, object(t, m.Input)); diff != "" {
			t.Errorf("%s: input (-want +got):\n%s", tt.name, diff)
		}
	}
}

func jsonNames(v any) []string {
	var out []string
	for _, f := range tool.FieldsOf(reflect.TypeOf(v)) {
		out = append(out, f.Name)
	}
	slices.Sort(out)
	return out
}

// The params structs are the contract: for every action of internal/tool,
// exactly the parameters it takes, by their names.
func TestParamsAreTheContractsParameters(t *testing.T) {
	t.Parallel()
	for _, name := range tool.Names() {
		spec, _ := tool.Lookup(name)
		var want []string
		for _, f := range tool.Fields() {
			if f.Name != "action" && spec.Takes(f.Name) {
				want = append(want, f.Name)
			}
		}
		slices.Sort(want)
		method, params := clientgen.Names(name)
		if method == "" {
			continue // status: Status and StatusOf
		}
		m, ok := reflect.TypeFor[*bridge.Client]().MethodByName(method)
		if !ok {
			t.Errorf("action %s has no method %s in package bridge", name, method)
			continue
		}
		p := reflect.New(m.Type.In(2)).Elem().Interface()
		if got := m.Type.In(2).Name(); got != params {
			t.Errorf("%s takes %s, want %s", method, got, params)
		}
		if diff := cmp.Diff(want, jsonNames(p)); diff != "" {
			t.Errorf("%T (-contract +bridge):\n%s", p, diff)
		}
	}
}

// Every action's method returns the contract's result type of the action
// (tool.Spec.Result), so a field the engine sends is a field of the client:
// the client re-exports the contract's types instead of copying them.
func TestResultsAreTheContracts(t *testing.T) {
	t.Parallel()
	ct := reflect.TypeFor[*bridge.Client]()
	for _, spec := range tool.Specs() {
		name, _ := clientgen.Names(spec.Name)
		if name == "" {
			name = "Status"
		}
		m, ok := ct.MethodByName(name)
		if !ok {
			t.Errorf("action %s has no method %s", spec.Name, name)
			continue
		}
		want := reflect.PointerTo(reflect.TypeOf(spec.Result))
		if got := m.Type.Out(0); got != want {
			t.Errorf("%s returns %v, but the engine sends %v", name, got, want)
		}
	}
}

func TestResultsDecode(t *testing.T) {
	t.Parallel()
	layout := fake(t, nil, result(map[string]any{
		"tabId": 7, "url": "http://x/", "title": "X", "markdown": "# X", "nextOffset": 500, "totalChars": 900,
		"links":    []any{map[string]any{"text": "a", "url": "http://x/a"}},
		"headings": []any{map[string]any{"level": 1, "text": "X"}},
		"element":  map[string]any{"frameId": 0, "tag": "button", "matches": 2, "visible": true},
		"selected": []any{"b"}, "selectedLabels": []any{"Bee"},
	}))
	c := dial(t, bridge.WithHome(layout.State))
	ctx := context.Background()
	e, err := c.Extract(ctx, bridge.ExtractParams{})
	if err != nil {
		t.Fatal(err)
	}
	want := &bridge.ExtractResult{Page: bridge.Page{TabID: 7, URL: "http://x/", Title: "X"}, Markdown: new("# X"), NextOffset: new(500), TotalChars: 900,
		Links: []bridge.Link{{Text: "a", URL: "http://x/a"}}, Headings: []bridge.Heading{{Level: 1, Text: "X"}}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("extract (-want +got):\n%s", diff)
	}
	s, err := c.Select(ctx, bridge.SelectParams{})
	if err != nil {
		t.Fatal(err)
	}
	if s.TabID != 7 || s.Element == nil || s.Element.Tag != "button" || s.Element.Matches != 2 || !slices.Equal(s.SelectedLabels, []string{"Bee"}) {
		t.Errorf("select result %+v (element %+v)", s, s.Element)
	}
}

// Inspect's elements come compact (rect as [x, y, w, h]; visible and
// enabled said only when false) and decode whole; a click's downloads
// decode too.
func TestCompactResultsDecode(t *testing.T) {
	t.Parallel()
	layout := fake(t, nil, result(map[string]any{
		"tabId": 7, "url": "http://x/", "title": "X",
		"elements": []any{
			map[string]any{"ref": "e1", "tag": "a", "name": "Home", "rect": []any{8, 14, 37, 16}},
			map[string]any{"ref": "f3e2", "tag": "button", "frameId": 3, "rect": []any{1, 2, 3, 4}, "visible": false, "enabled": false},
		},
		"downloads": []any{map[string]any{"id": 4, "name": "a.csv", "path": "/d/a.csv", "bytes": 14, "state": "done", "savedBy": "bridge"}},
	}))
	c := dial(t, bridge.WithHome(layout.State))
	ctx := context.Background()
	ins, err := c.Inspect(ctx, bridge.InspectParams{})
	if err != nil {
		t.Fatal(err)
	}
	want := []bridge.Control{
		{Ref: "e1", Tag: "a", Name: "Home", Rect: [4]float64{8, 14, 37, 16}},
		{Ref: "f3e2", Tag: "button", FrameID: 3, Rect: [4]float64{1, 2, 3, 4}, Visible: new(false), Enabled: new(false)},
	}
	if diff := cmp.Diff(want, ins.Elements); diff != "" {
		t.Errorf("inspect elements (-want +got):\n%s", diff)
	}
	cl, err := c.Click(ctx, bridge.ClickParams{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bridge.Download{{ID: 4, Name: "a.csv", Path: "/d/a.csv", Bytes: 14, State: "done", SavedBy: "bridge"}}, cl.Downloads); diff != "" {
		t.Errorf("click downloads (-want +got):\n%s", diff)
	}
}

func TestErrorsKeepTheDaemonsCode(t *testing.T) {
	t.Parallel()
	layout := fake(t, nil, func(message) protocol.Reply {
		return protocol.Reply{Error: protocol.Errorf(protocol.CodeElementNotFound, "no element with text %q", "Nope")}
	})
	c := dial(t, bridge.WithHome(layout.State))
	_, err := c.Click(context.Background(), bridge.ClickParams{Locator: bridge.Locator{Text: "Nope"}})
	if !errors.Is(err, bridge.ErrElementNotFound) {
		t.Fatalf("errors.Is(%v, ErrElementNotFound) is false", err)
	}
	if errors.Is(err, bridge.ErrTimeout) {
		t.Error("an element_not_found error is also ErrTimeout")
	}
	var e *bridge.Error
	if !errors.As(err, &e) || e.Code != bridge.ErrElementNotFound || e.Message != `no element with text "Nope"` {
		t.Fatalf("errors.As: %#v", e)
	}
	if got := err.Error(); got != `element_not_found: no element with text "Nope"` {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(err, &bridge.Error{Code: bridge.ErrElementNotFound}) {
		t.Error("errors.Is with an *Error of the same code is false")
	}
	// A verb's error too.
	err = c.TabClose(context.Background(), 9)
	if !errors.Is(err, bridge.ErrElementNotFound) {
		t.Errorf("TabClose: %v", err)
	}
}

func TestDoRefusesParamsThatAreNoObject(t *testing.T) {
	t.Parallel()
	seen := make(chan message, 4)
	layout := fake(t, seen, result(map[string]any{}))
	c := dial(t, bridge.WithHome(layout.State))
	for _, p := range []any{[]int{1}, "x", map[string]any{"action": "close"}} {
		if _, err := c.Do(context.Background(), "open", p); !errors.Is(err, bridge.ErrInvalidArgument) {
			t.Errorf("Do(open, %#v): %v, want invalid_argument", p, err)
		}
	}
	if len(seen) != 0 {
		t.Errorf("%d bad calls reached the daemon", len(seen))
	}
}

func TestVerbsSendTheirParams(t *testing.T) {
	t.Parallel()
	seen := make(chan message, 1)
	layout := fake(t, seen, func(m message) protocol.Reply {
		switch m.Verb {
		case "context.create":
			return protocol.Reply{Result: map[string]any{"groupId": 5, "tabId": 8, "windowId": 2}}
		case "context.destroy":
			return protocol.Reply{Result: map[string]any{"ok": true, "closedTabs": 2, "persistedGroup": false}}
		case "tab.create":
			return protocol.Reply{Result: map[string]any{"tabId": 9}}
		case "tab.list":
			return protocol.Reply{Result: map[string]any{"tabs": []any{map[string]any{"id": 8, "tabId": 8, "windowId": 2, "url": "about:blank", "title": "", "groupId": 5, "active": true}}}}
		case "tab.get":
			return protocol.Reply{Result: map[string]any{"id": 8, "tabId": 8, "windowId": 2, "url": "", "title": "", "groupId": -1, "active": false, "incognito": true}}
		case "tabGroup.list":
			return protocol.Reply{Result: map[string]any{"groups": []any{map[string]any{"id": 5, "title": "agent", "color": "blue", "collapsed": false, "windowId": 2}}}}
		case "cdp":
			return protocol.Reply{Result: map[string]any{"result": map[string]any{"type": "string", "value": "Hi"}}}
		case "websocket.configure", "websocket.status":
			return protocol.Reply{Result: map[string]any{"enabled": true, "url": protocol.DefaultWebSocketURL, "tokenSet": true}}
		}
		return protocol.Reply{Result: map[string]any{"ok": true}}
	})
	c := dial(t, bridge.WithHome(layout.State))
	ctx := context.Background()
	sent := map[string]bool{}
	check := func(verb string, params map[string]any) {
		t.Helper()
		m := next(t, seen)
		sent[m.Verb] = true
		if m.Type != protocol.TypeVerb || m.Verb != verb {
			t.Errorf("sent %s %q, want verb %q", m.Type, m.Verb, verb)
		}
		got := map[string]any{}
		if len(m.Params) > 0 && string(m.Params) != "null" {
			got = object(t, m.Params)
		}
		if diff := cmp.Diff(params, got); diff != "" {
			t.Errorf("%s params (-want +got):\n%s", verb, diff)
		}
	}

	info, err := c.ContextCreate(ctx, "agent-1", &bridge.ContextOptions{DisplayName: "Agent\u200b"})
	if err != nil || *info != (bridge.ContextInfo{GroupID: 5, TabID: 8, WindowID: 2}) {
		t.Errorf("ContextCreate: %+v %v", info, err)
	}
	check("context.create", map[string]any{"agentId": "agent-1", "displayName": "Agent\u200b"})
	if _, err := c.ContextCreate(ctx, "agent-2", nil); err != nil {
		t.Error(err)
	}
	check("context.create", map[string]any{"agentId": "agent-2"})

	d, err := c.ContextDestroy(ctx, 5)
	if err != nil || d.ClosedTabs != 2 || d.PersistedGroup {
		t.Errorf("ContextDestroy: %+v %v", d, err)
	}
	check("context.destroy", map[string]any{"groupId": 5.0})

	if id, err := c.TabCreate(ctx, 5, "https://example.com/"); err != nil || id != 9 {
		t.Errorf("TabCreate: %d %v", id, err)
	}
	check("tab.create", map[string]any{"groupId": 5.0, "url": "https://example.com/"})
	if _, err := c.TabCreate(ctx, 0, ""); err != nil {
		t.Error(err)
	}
	check("tab.create", map[string]any{})

	tabs, err := c.TabList(ctx, 0)
	if err != nil || len(tabs) != 1 || tabs[0] != (bridge.Tab{TabID: 8, WindowID: 2, URL: "about:blank", GroupID: 5, Active: true}) {
		t.Errorf("TabList: %+v %v", tabs, err)
	}
	check("tab.list", map[string]any{})
	c.TabList(ctx, 5)
	check("tab.list", map[string]any{"groupId": 5.0})

	tab, err := c.TabGet(ctx, 8)
	if err != nil || !tab.Redacted || tab.TabID != 8 {
		t.Errorf("TabGet of a user's incognito tab: %+v %v", tab, err)
	}
	check("tab.get", map[string]any{"tabId": 8.0})

	groups, err := c.TabGroupList(ctx)
	if err != nil || len(groups) != 1 || groups[0] != (bridge.TabGroup{ID: 5, Title: "agent", Color: "blue", WindowID: 2}) {
		t.Errorf("TabGroupList: %+v %v", groups, err)
	}
	check("tabGroup.list", map[string]any{})
	if _, err := c.TabListUngrouped(ctx); err != nil {
		t.Errorf("TabListUngrouped: %v", err)
	}
	check("tab.listUngrouped", map[string]any{})
	if _, err := c.TabAudit(ctx, 8); err != nil {
		t.Errorf("TabAudit: %v", err)
	}
	check("tab.audit", map[string]any{"tabId": 8.0})

	for _, v := range []struct {
		verb string
		run  func(context.Context, int) error
	}{{"tab.close", c.TabClose}, {"tab.activate", c.TabActivate}, {"cdp.attach", c.CDPAttach}, {"cdp.detach", c.CDPDetach}} {
		if err := v.run(ctx, 8); err != nil {
			t.Errorf("%s: %v", v.verb, err)
		}
		check(v.verb, map[string]any{"tabId": 8.0})
	}

	var eval struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	if err := c.CDP(ctx, 8, "Runtime.evaluate", map[string]any{"expression": "document.title"}, &eval); err != nil || eval.Result.Value != "Hi" {
		t.Errorf("CDP: %+v %v", eval, err)
	}
	check("cdp", map[string]any{"tabId": 8.0, "method": "Runtime.evaluate", "params": map[string]any{"expression": "document.title"}})
	if err := c.CDP(ctx, 8, "Page.enable", nil, nil); err != nil {
		t.Error(err)
	}
	check("cdp", map[string]any{"tabId": 8.0, "method": "Page.enable"})

	ws, err := c.WebSocketEnable(ctx, "", "tok")
	if err != nil || !ws.Enabled || !ws.TokenSet {
		t.Errorf("WebSocketEnable: %+v %v", ws, err)
	}
	check("websocket.configure", map[string]any{"enabled": true, "url": protocol.DefaultWebSocketURL, "token": "tok"})
	c.WebSocketDisable(ctx)
	check("websocket.configure", map[string]any{"enabled": false})
	c.WebSocketStatus(ctx)
	check("websocket.status", map[string]any{})

	// Every verb the daemon relays for programs has its method.
	for _, v := range protocol.ProgramVerbs {
		if !sent[v] {
			t.Errorf("no method of Client sends the program verb %q", v)
		}
	}
}

// WithVerbsIn names its browser in every verb the client sends, and a
// client without it names none (the daemon then keeps the connection's
// verbs in one browser); the actions are not affected.
func TestWithVerbsInNamesTheBrowserOfEveryVerb(t *testing.T) {
	t.Parallel()
	seen := make(chan message, 4)
	layout := fake(t, seen, result(map[string]any{"tabs": []any{}}))
	ctx := context.Background()
	for _, tt := range []struct {
		opts []bridge.Option
		want string
	}{
		{[]bridge.Option{bridge.WithHome(layout.State)}, ""},
		{[]bridge.Option{bridge.WithHome(layout.State), bridge.WithVerbsIn("Edge")}, "Edge"},
	} {
		c := dial(t, tt.opts...)
		for range 2 {
			if _, err := c.TabList(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if m := next(t, seen); m.Verb != "tab.list" || m.Browser != tt.want {
				t.Errorf("sent verb %q to browser %q, want tab.list to %q", m.Verb, m.Browser, tt.want)
			}
		}
		if _, err := c.Status(ctx); err != nil {
			t.Fatal(err)
		}
		if m := next(t, seen); m.Type != protocol.TypeCall || m.Browser != "" || strings.Contains(string(m.Input), "Edge") {
			t.Errorf("Status sent %s with browser %q and input %s, want a call naming no browser", m.Type, m.Browser, m.Input)
		}
	}
}

func TestDialNamesTheSessionAfterTheProgram(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		opts []bridge.Option
		want string
	}{
		{nil, "program:" + filepath.Base(os.Args[0])},
		{[]bridge.Option{bridge.WithSession("nightly-report")}, "nightly-report"},
	} {
		layout := ipctest.Layout(t)
		seen := make(chan protocol.Auth, 1)
		ipctest.Start(t, layout, ipctest.WithServe(func(c *ipctest.Conn) { seen <- c.Auth }))
		dial(t, append(tt.opts, bridge.WithHome(layout.State))...)
		if got := (<-seen).Session; got != tt.want {
			t.Errorf("session %q, want %q", got, tt.want)
		}
	}
}

// WithSocket dials exactly that socket and never starts a daemon.
func TestDialWithSocket(t *testing.T) {
	t.Parallel()
	layout := fake(t, nil, result(map[string]any{"connected": true}))
	c := dial(t, bridge.WithSocket(layout.Socket, layout.Secret()))
	if s, err := c.Status(context.Background()); err != nil || !s.Connected {
		t.Errorf("Status over WithSocket: %+v %v", s, err)
	}

	socket := filepath.Join(ipctest.Dir(t), "forwarded.sock")
	start := time.Now()
	_, err := bridge.Dial(context.Background(), bridge.WithSocket(socket, layout.Secret()))
	if err == nil || !strings.Contains(err.Error(), socket) {
		t.Errorf("Dial of a socket nobody listens on: %v, want an error naming it", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("Dial took %s: it should fail at once, starting nothing", time.Since(start))
	}
	if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("something listens on %s after Dial: %v", socket, err)
	}
	if _, err := bridge.Dial(context.Background(), bridge.WithSocket(socket, "")); err == nil {
		t.Error("WithSocket without a secret file was accepted")
	}
}

// BROWSER_BRIDGE_SOCKET and BROWSER_BRIDGE_SECRET_FILE point Dial (and
// the command line, and mcp) at a forwarded socket.
func TestDialHonoursTheForwardingVariables(t *testing.T) {
	layout := ipctest.Layout(t)
	seen := make(chan protocol.Auth, 1)
	ipctest.Start(t, layout, ipctest.WithServe(func(c *ipctest.Conn) { seen <- c.Auth }))
	t.Setenv("BROWSER_BRIDGE_SOCKET", layout.Socket)
	t.Setenv("BROWSER_BRIDGE_SECRET_FILE", layout.Secret())
	dial(t, bridge.WithSession("over-ssh"))
	if got := (<-seen).Session; got != "over-ssh" {
		t.Errorf("session %q reached the forwarded daemon, want over-ssh", got)
	}
	t.Setenv("BROWSER_BRIDGE_SECRET_FILE", "")
	if _, err := bridge.Dial(context.Background()); err == nil || !strings.Contains(err.Error(), "BROWSER_BRIDGE_SECRET_FILE") {
		t.Errorf("Dial with only BROWSER_BRIDGE_SOCKET: %v, want an error naming the other variable", err)
	}
}

// Dial starts the install's daemon when none runs, with the browser-bridge
// binary on PATH (TestMain puts the built one there), as the command line
// does; the daemon it starts keeps the state folder of WithHome.
func TestDialStartsTheDaemonWhenNoneRuns(t *testing.T) {
	t.Parallel()
	env, err := browsertest.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := bridge.Dial(ctx, bridge.WithHome(env.Home))
	if err != nil {
		t.Fatalf("Dial of an install without a daemon: %v", err)
	}
	defer c.Close()
	st, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Connected || st.Reason == "" || st.Diagnostics == nil {
		t.Errorf("status of a daemon without a browser: %+v", st)
	}
	var d struct {
		StateFolder string `json:"stateFolder"`
	}
	b, _ := json.Marshal(st.Diagnostics)
	json.Unmarshal(b, &d)
	if d.StateFolder != env.Home {
		t.Errorf("the daemon Dial started keeps its state in %q, want %q", d.StateFolder, env.Home)
	}
}

// A program reaches the real bridge through a forwarded socket: here a
// relay in this process stands in for ssh -L, which copies the bytes of
// each connection to the daemon's socket just so.
func TestWithSocketThroughAForwardedSocket(t *testing.T) {
	t.Parallel()
	daemon := paths.ForHome(os.Getenv("BROWSER_BRIDGE_HOME"))
	forwarded := filepath.Join(ipctest.Dir(t), "daemon.sock") // 0700, as the recipe's folder
	l, err := net.Listen("unix", forwarded)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("unix", daemon.Socket)
			if err != nil {
				in.Close()
				continue
			}
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()

	c := dial(t, bridge.WithSocket(forwarded, daemon.Secret()))
	ctx := context.Background()
	tab, err := c.Open(ctx, bridge.OpenParams{URL: site + "/done"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseTabs(ctx, bridge.CloseParams{Target: bridge.Target{TabID: tab.TabID}})
	if tab.Title != "Terms" {
		t.Errorf("opened %q through the forwarded socket, want Terms", tab.Title)
	}
}

// Every stable code of internal/protocol/errors.go has its constant here,
// with the same value.
func TestEveryProtocolCodeIsExported(t *testing.T) {
	t.Parallel()
	exported := map[string]bool{}
	for _, c := range []bridge.Code{bridge.ErrExtensionNotConnected, bridge.ErrBridgeDisabled, bridge.ErrTimeout,
		bridge.ErrElementNotFound, bridge.ErrElementObscured, bridge.ErrProtectedPage, bridge.ErrFullPageUnavailable, bridge.ErrUploadPathRejected,
		bridge.ErrTabNotFound, bridge.ErrNotOwned, bridge.ErrInvalidArgument, bridge.ErrIncognitoNotAllowed,
		bridge.ErrBlockedByPolicy, bridge.ErrVersionMismatch, bridge.ErrPausedByUser, bridge.ErrDeclinedByUser,
		bridge.ErrHandoffInProgress, bridge.ErrInternal, bridge.ErrUnknownVerb, bridge.ErrMethodNotAllowed,
		bridge.ErrEvaluateDisabled, bridge.ErrEvaluationFailed} {
		exported[string(c)] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "../internal/protocol/errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, name := range v.Names {
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !strings.HasPrefix(name.Name, "Code") || !ok {
					continue
				}
				n++
				if code, _ := strconv.Unquote(lit.Value); !exported[code] {
					t.Errorf("protocol.%s (%s) has no constant in package bridge", name.Name, lit.Value)
				}
			}
		}
	}
	if n != len(exported) {
		t.Errorf("protocol has %d codes, package bridge %d", n, len(exported))
	}
}
