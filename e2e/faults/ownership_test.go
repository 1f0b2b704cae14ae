//go:build unix

package faults

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// agent is an MCP client running `browser-bridge mcp` as an agent does:
// one MCP connection, one session.
type agent struct {
	cs *mcp.ClientSession
}

func startAgent(t *testing.T, name string) *agent {
	t.Helper()
	cmd := bridge.Command(context.Background(), "mcp")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to browser-bridge mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return &agent{cs}
}

// call calls use_user_browser and returns its structured result, or its
// coded error.
func (a *agent) call(t *testing.T, args map[string]any) (map[string]any, *protocol.Error) {
	t.Helper()
	res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "use_user_browser", Arguments: args})
	if err != nil {
		t.Fatalf("calling %v: %v", args, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	json.Unmarshal(b, &m)
	if res.IsError {
		var e struct{ Error *protocol.Error }
		json.Unmarshal(b, &e)
		if e.Error == nil {
			t.Fatalf("%v: a tool error without a code: %s", args, b)
		}
		return nil, e.Error
	}
	return m, nil
}

func (a *agent) must(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	m, e := a.call(t, args)
	if e != nil {
		t.Fatalf("%v: %s: %s", args, e.Code, e.Message)
	}
	return m
}

// asSession runs a CLI call as another session (BROWSER_BRIDGE_WORKSPACE
// names the CLI's session).
func asSession(t *testing.T, session string, in map[string]any) outcome {
	t.Helper()
	e := bridge.Env
	e.Vars = append(append([]string(nil), e.Vars...), "BROWSER_BRIDGE_WORKSPACE="+session)
	raw, _ := json.Marshal(in)
	start := time.Now()
	r := e.Run(t, "call", string(raw))
	o := outcome{In: in, Deadline: deadlineOf(in), Took: time.Since(start), Stdout: r.Stdout, Stderr: r.Stderr, Exit: r.Exit}
	o.decode()
	return o.once(t)
}

// A tab belongs to the workspace that opened it: another session may not
// close it (not_owned) unless it names that workspace; the session that
// opened it may; and the user's own tabs stay usable by every session.
func TestTabsBelongToTheirSession(t *testing.T) {
	before := take(t)
	a := startAgent(t, "agent a")
	opened := a.must(t, map[string]any{"action": "open", "url": page("/page/AgentA")})
	tab := num(t, opened, "tabId")
	ws := opened["workspace"].(string)
	if !strings.HasPrefix(ws, "session:agent-a-") {
		t.Fatalf("the agent's tab is in workspace %q", ws)
	}

	refused := asSession(t, "session:b", map[string]any{"action": "close", "tabId": tab})
	wantCode(t, refused, protocol.CodeNotOwned)
	if !strings.Contains(refused.Err.Message, ws) {
		t.Errorf("the refusal does not name the workspace: %s", refused.Err.Message)
	}
	if !strings.Contains(string(runNow(t, map[string]any{"action": "status"}).Stdout), page("/page/AgentA")) {
		t.Fatal("the refused close closed the tab")
	}
	// The agent's own work goes on; a CLI session in a named workspace
	// keeps using its tabs by tabId, as it always has.
	a.must(t, map[string]any{"action": "extract", "tabId": tab})
	mine := asSession(t, "session:b", map[string]any{"action": "open", "url": page("/page/Bs"), "browserWorkspaceId": "b-named"})
	asSession(t, "session:b", map[string]any{"action": "extract", "tabId": num(t, mine.Result, "tabId")}).must(t)
	if _, e := a.call(t, map[string]any{"action": "close", "tabId": num(t, mine.Result, "tabId")}); e == nil || e.Code != protocol.CodeNotOwned {
		t.Errorf("the agent closed a tab of session b's named workspace: %v", e)
	}

	// The user's tab: everyone's.
	user, closeUser := userTab(t, page("/page/Users"))
	for _, s := range []string{"session:b", "session:c"} {
		asSession(t, s, map[string]any{"action": "extract", "tabId": user}).must(t)
	}
	a.must(t, map[string]any{"action": "extract", "tabId": user})
	closeUser()

	// Naming the workspace closes it.
	named := asSession(t, "session:b", map[string]any{"action": "close", "tabId": tab, "browserWorkspaceId": ws}).must(t)
	if ids, _ := named["closedTabs"].([]any); len(ids) != 1 {
		t.Fatalf("close naming the workspace: %v", named)
	}
	again := a.must(t, map[string]any{"action": "open", "url": page("/page/AgentA2")})
	a.must(t, map[string]any{"action": "close", "tabId": num(t, again, "tabId")})
	a.must(t, map[string]any{"action": "close", "closeWorkspace": true})
	asSession(t, "session:b", map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "b-named"}).must(t)
	report(t, "close of another session's tab", refused, before.leaks(t, leakCheck{}))
}

// Page actions on another session's tab are refused as close is. They go
// through the engine's guard step (internal/actions/steps.go guardTab),
// which calls mayTouch.
func TestPageActionsOnAnotherSessionsTabAreRefused(t *testing.T) {
	a := startAgent(t, "agent a")
	opened := a.must(t, map[string]any{"action": "open", "url": page("/form")})
	tab := num(t, opened, "tabId")
	ws := opened["workspace"].(string)
	defer a.call(t, map[string]any{"action": "close", "closeWorkspace": true})
	for _, in := range []map[string]any{
		{"action": "click", "tabId": tab, "selector": "#go"},
		{"action": "type", "tabId": tab, "selector": "#name", "value": "x"},
		{"action": "extract", "tabId": tab},
		{"action": "screenshot", "tabId": tab},
		{"action": "open", "tabId": tab, "url": page("/page/Hijacked")},
	} {
		wantCode(t, asSession(t, "session:b", in), protocol.CodeNotOwned)
	}
	named := map[string]any{"action": "extract", "tabId": tab, "browserWorkspaceId": ws}
	asSession(t, "session:b", named).must(t)
}

// userTab opens a tab as the user does (through the test's own debugging
// connection, not the bridge) and returns its tab ID; it closes with the
// test, or when closed is called.
func userTab(t *testing.T, url string) (tabID int, closed func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := bridge.CDP.Call(ctx, "", "Target.createTarget", map[string]any{"url": url}, &created); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closed = func() { once.Do(func() { cdp(t, "Target.closeTarget", map[string]any{"targetId": created.TargetID}) }) }
	t.Cleanup(closed)
	for ctx.Err() == nil {
		st := runNow(t, map[string]any{"action": "status"}).must(t)
		for _, w := range st["windows"].([]any) {
			for _, tab := range w.(map[string]any)["tabs"].([]any) {
				if tm := tab.(map[string]any); tm["url"] == url && tm["owned"] == false {
					return int(tm["tabId"].(float64)), closed
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the user's tab at %s did not show up", url)
	return 0, nil
}
