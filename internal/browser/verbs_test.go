package browser_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TestVerbsSendTheirParams checks each typed method against the wire: the
// verb it sends, the command object (params flattened beside id and type,
// optional ones left out), and the result it decodes. Together the cases
// must cover every verb of protocol.Verbs but command.cancel, which the
// Link sends itself.
func TestVerbsSendTheirParams(t *testing.T) {
	t.Parallel()
	zero, group := 0, 4
	tab := browser.TabInfo{TabID: 7, WindowID: 2, URL: "https://example.com/", Title: "Example", Active: true, GroupID: -1, Status: "complete"}
	tests := []struct {
		verb   string
		call   func(context.Context, browser.Verbs) (any, error)
		frame  string // the command without id and type
		answer any    // what the fake answers
		want   any    // what the method returns (nil: answer)
	}{
		{
			verb: "context.create",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.ContextCreate(ctx, protocol.ContextCreateParams{AgentID: "a"})
			},
			frame:  `{"agentId":"a"}`,
			answer: protocol.ContextCreateResult{GroupID: 3, TabID: 9},
		},
		{
			verb: "context.destroy",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.ContextDestroy(ctx, protocol.ContextDestroyParams{GroupID: 3})
			},
			frame:  `{"groupId":3}`,
			answer: protocol.ContextDestroyResult{OK: true, ClosedTabs: 2},
		},
		{
			verb: "tab.create",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabCreate(ctx, protocol.TabCreateParams{URL: "https://example.com/", WindowID: 2, Active: true})
			},
			frame:  `{"url":"https://example.com/","windowId":2,"active":true}`,
			answer: tab,
		},
		{
			verb: "tab.close",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.TabClose(ctx, protocol.TabCloseParams{TabIDs: []int{1, 2}})
			},
			frame:  `{"tabIds":[1,2]}`,
			answer: protocol.OKResult{OK: true},
			want:   nil,
		},
		{
			verb: "tab.list",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabList(ctx, protocol.TabListParams{GroupID: &group})
			},
			frame:  `{"groupId":4}`,
			answer: protocol.TabsResult{Tabs: []browser.TabInfo{tab}},
			want:   []browser.TabInfo{tab},
		},
		{
			verb: "tab.activate",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.TabActivate(ctx, protocol.TabActivateParams{TabID: 7})
			},
			frame:  `{"tabId":7}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "cdp.attach",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.CDPAttach(ctx, protocol.CDPAttachParams{TabID: 7, Settle: true})
			},
			frame:  `{"tabId":7,"settle":true}`,
			answer: protocol.CDPAttachResult{OK: true, Dialog: &protocol.Dialog{Type: "alert", Message: "hi"}},
			want:   &protocol.Dialog{Type: "alert", Message: "hi"},
		},
		{
			verb: "cdp.detach",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.CDPDetach(ctx, protocol.CDPDetachParams{TabID: 7})
			},
			frame:  `{"tabId":7}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "cdp",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				var out struct {
					Data string `json:"data"`
				}
				err := v.CDP(ctx, protocol.CDPParams{TabID: 7, Method: "Page.captureScreenshot", Params: map[string]any{"format": "jpeg"}}, &out)
				return out.Data, err
			},
			frame:  `{"tabId":7,"method":"Page.captureScreenshot","params":{"format":"jpeg"}}`,
			answer: map[string]string{"data": "abc"},
			want:   "abc",
		},
		{
			verb: "cdp.batch",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				r, err := v.CDPBatch(ctx, protocol.CDPBatchParams{TabID: 7, Commands: []protocol.CDPCommand{
					{Method: "Input.dispatchMouseEvent", Params: map[string]any{"type": "mouseMoved"}},
					{Method: "Page.bringToFront"},
				}})
				return r.Interrupted, err
			},
			frame:  `{"tabId":7,"commands":[{"method":"Input.dispatchMouseEvent","params":{"type":"mouseMoved"}},{"method":"Page.bringToFront"}]}`,
			answer: map[string]any{"results": []any{map[string]any{}}, "dialog": map[string]any{"type": "confirm"}, "interrupted": 1},
			want:   1,
		},
		{
			verb: "dom.setFiles",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.DOMSetFiles(ctx, protocol.DOMSetFilesParams{TabID: 7, Token: "ab12", Files: []string{"/tmp/a"}})
			},
			frame:  `{"tabId":7,"token":"ab12","files":["/tmp/a"]}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "dom.chooseFiles",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.DOMChooseFiles(ctx, protocol.DOMChooseFilesParams{TabID: 7, Files: []string{"/tmp/a"}, InFrame: true,
					Commands: []protocol.CDPCommand{{Method: "Input.dispatchMouseEvent"}}})
			},
			frame:  `{"tabId":7,"files":["/tmp/a"],"commands":[{"method":"Input.dispatchMouseEvent"}],"inFrame":true}`,
			answer: protocol.DOMChooseFilesResult{Files: []protocol.FileInfo{{Name: "a", Size: 3}}},
		},
		{
			verb:   "bridge.ping",
			call:   func(ctx context.Context, v browser.Verbs) (any, error) { return nil, v.BridgePing(ctx) },
			frame:  `{}`,
			answer: protocol.BridgePingResult{Pong: true},
		},
		{
			verb:   "browser.state",
			call:   func(ctx context.Context, v browser.Verbs) (any, error) { return v.BrowserState(ctx) },
			frame:  `{}`,
			answer: protocol.BrowserState{LastFocusedWindowID: 2, Windows: []browser.WindowInfo{{WindowID: 2, Tabs: []browser.TabInfo{tab}}}},
			want:   browser.State{LastFocusedWindowID: 2, Windows: []browser.WindowInfo{{WindowID: 2, Tabs: []browser.TabInfo{tab}}}},
		},
		{
			verb: "tab.get",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabGet(ctx, protocol.TabGetParams{TabID: 7})
			},
			frame:  `{"tabId":7}`,
			answer: tab,
		},
		{
			verb: "tab.opened",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabOpened(ctx, protocol.TabOpenedParams{TabID: 7})
			},
			frame:  `{"tabId":7}`,
			answer: protocol.TabsResult{Tabs: []browser.TabInfo{tab}},
			want:   []browser.TabInfo{tab},
		},
		{
			verb: "tab.navigate",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabNavigate(ctx, protocol.TabNavigateParams{TabID: 7, URL: "https://example.com/", WaitMs: 500})
			},
			frame:  `{"tabId":7,"url":"https://example.com/","waitMs":500}`,
			answer: tab,
		},
		{
			verb: "tab.waitLoad",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabWaitLoad(ctx, protocol.TabWaitLoadParams{TabID: 7, WaitMs: 500})
			},
			frame:  `{"tabId":7,"waitMs":500}`,
			answer: tab,
		},
		{
			verb: "tab.frames",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabFrames(ctx, protocol.TabFramesParams{TabID: 7})
			},
			frame:  `{"tabId":7}`,
			answer: protocol.TabFramesResult{Frames: []protocol.Frame{{FrameID: 0, ParentFrameID: -1, URL: "https://example.com/"}}},
			want:   []protocol.Frame{{FrameID: 0, ParentFrameID: -1, URL: "https://example.com/"}},
		},
		{
			verb: "tab.group",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabGroup(ctx, protocol.TabGroupParams{TabID: 7, WindowID: 2, Title: "agent", Color: "blue"})
			},
			frame:  `{"tabId":7,"windowId":2,"title":"agent","color":"blue"}`,
			answer: protocol.TabGroupResult{GroupID: 11},
			want:   11,
		},
		{
			verb: "window.create",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.WindowCreate(ctx, protocol.WindowCreateParams{URL: "https://example.com/", Width: 1280, Height: 800})
			},
			frame:  `{"url":"https://example.com/","width":1280,"height":800}`,
			answer: tab,
		},
		{
			verb: "window.close",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.WindowClose(ctx, protocol.WindowCloseParams{WindowID: 2})
			},
			frame:  `{"windowId":2}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "page.run",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.PageRun(ctx, protocol.PageRunParams{TabID: 7, Files: []string{"page/dom.js"}, Fn: "locate", Args: map[string]int{"n": 1}, FrameID: &zero})
			},
			frame:  `{"tabId":7,"files":["page/dom.js"],"fn":"locate","args":{"n":1},"frameId":0}`,
			answer: protocol.PageRunResult{Frames: []protocol.PageFrameResult{{FrameID: 0, DocumentID: "D", Value: json.RawMessage(`{"x":1}`)}}},
			want:   []protocol.PageFrameResult{{FrameID: 0, DocumentID: "D", Value: json.RawMessage(`{"x":1}`)}},
		},
		{
			verb:   "readiness.enable",
			call:   func(ctx context.Context, v browser.Verbs) (any, error) { return nil, v.ReadinessEnable(ctx) },
			frame:  `{}`,
			answer: protocol.ReadinessEnableResult{OK: true, Registered: true},
		},
		{
			verb:   "readiness.net",
			call:   func(ctx context.Context, v browser.Verbs) (any, error) { return v.ReadinessNet(ctx, 7) },
			frame:  `{"tabId":7}`,
			answer: protocol.ReadinessNet{Watching: true, InflightMs: []int{12}, QuietMs: 3, WatchedMs: 900},
			want:   protocol.ReadinessNet{Watching: true, InflightMs: []int{12}, QuietMs: 3, WatchedMs: 900},
		},
		{
			verb:   "readiness.disable",
			call:   func(ctx context.Context, v browser.Verbs) (any, error) { return nil, v.ReadinessDisable(ctx) },
			frame:  `{}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "program.call",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.ProgramCall(ctx, json.RawMessage(`{"type":"tab.audit","tabId":7}`))
			},
			frame:  `{"command":{"type":"tab.audit","tabId":7}}`,
			answer: json.RawMessage(`{"tabId":7}`),
		},
		{
			verb: "websocket.configure",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.WebSocketConfigure(ctx, protocol.WebSocketConfig{Enabled: true, URL: protocol.DefaultWebSocketURL})
			},
			frame:  `{"enabled":true,"url":"ws://127.0.0.1:14829/bridge"}`,
			answer: protocol.WebSocketStatus{Enabled: true, URL: protocol.DefaultWebSocketURL},
		},
		{
			verb:   "websocket.status",
			call:   func(ctx context.Context, v browser.Verbs) (any, error) { return v.WebSocketStatus(ctx) },
			frame:  `{}`,
			answer: protocol.WebSocketStatus{Connected: true},
		},
		{
			verb: "handoff.show",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.HandoffShow(ctx, protocol.HandoffShowParams{TabID: 7, Message: "Sign in", TimeoutMs: 5000})
			},
			frame:  `{"tabId":7,"message":"Sign in","timeoutMs":5000}`,
			answer: protocol.HandoffShowResult{Outcome: "done", TabID: 7, URL: "https://example.com/", Title: "Example"},
		},
		{
			verb: "policy.set",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.PolicySet(ctx, protocol.PolicySetParams{Deny: []string{"bank.example"}})
			},
			frame:  `{"allow":null,"deny":["bank.example"],"builtInDeny":null}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "ask.show",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.AskShow(ctx, protocol.AskShowParams{TabID: 7, Kind: protocol.AskPayment, Message: "The agent wants to press “Pay” on shop.example", TimeoutMs: 5000})
			},
			frame:  `{"tabId":7,"kind":"payment","message":"The agent wants to press “Pay” on shop.example","timeoutMs":5000}`,
			answer: protocol.AskShowResult{Outcome: "allowed", Overlay: true},
		},
		{
			verb: "downloads.list",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.DownloadsList(ctx, protocol.DownloadsListParams{Since: 1700000000000, WaitMs: 200})
			},
			frame:  `{"since":1700000000000,"waitMs":200}`,
			answer: protocol.DownloadsListResult{Downloads: []protocol.DownloadItem{{ID: 3, Filename: "/home/u/Downloads/a.csv", State: "complete", TabID: 7}}},
			want:   []protocol.DownloadItem{{ID: 3, Filename: "/home/u/Downloads/a.csv", State: "complete", TabID: 7}},
		},
		{
			verb: "downloads.cancel",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.DownloadsCancel(ctx, protocol.DownloadsCancelParams{ID: 3})
			},
			frame:  `{"downloadId":3}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "downloads.limit",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return nil, v.DownloadsLimit(ctx, protocol.DownloadsLimitParams{MaxBytes: 200000})
			},
			frame:  `{"maxBytes":200000}`,
			answer: protocol.OKResult{OK: true},
		},
		{
			verb: "tab.history",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabHistory(ctx, protocol.TabHistoryParams{TabID: 7, Step: "reload", BypassCache: true, WaitMs: 500})
			},
			frame:  `{"tabId":7,"step":"reload","bypassCache":true,"waitMs":500}`,
			answer: protocol.TabHistoryResult{TabInfo: protocol.TabInfo{TabID: 7, URL: "https://example.com/"}, Started: true},
		},
		{
			verb: "tab.viewport",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabViewport(ctx, protocol.TabViewportParams{TabID: 7, Width: 400, Height: 300, Mobile: true})
			},
			frame:  `{"tabId":7,"width":400,"height":300,"mobile":true}`,
			answer: protocol.TabViewportResult{Width: 400, Height: 300, DeviceScaleFactor: 1},
		},
		{
			verb: "tab.emulate",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TabEmulate(ctx, protocol.TabEmulateParams{TabID: 7, CPUThrottling: 4, ColorScheme: "dark"})
			},
			frame:  `{"tabId":7,"cpuThrottling":4,"colorScheme":"dark"}`,
			answer: protocol.TabEmulateResult{Width: 400, Height: 300, DeviceScaleFactor: 1, CPUThrottling: 4, ColorScheme: "dark"},
		},
		{
			verb: "record.console",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.RecordConsole(ctx, protocol.RecordConsoleParams{TabID: 7, Since: 41})
			},
			frame:  `{"tabId":7,"since":41}`,
			answer: protocol.RecordConsoleResult{Messages: []protocol.RecordMessage{{Seq: 42}}},
		},
		{
			verb: "record.network",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.RecordNetwork(ctx, protocol.RecordNetworkParams{TabID: 7, RequestID: "1234"})
			},
			frame:  `{"tabId":7,"requestId":"1234"}`,
			answer: protocol.RecordNetworkResult{Missing: true},
		},
		{
			verb: "trace.record",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TraceRecord(ctx, protocol.TraceRecordParams{TabID: 7, DurationMs: 500})
			},
			frame:  `{"tabId":7,"durationMs":500}`,
			answer: protocol.TraceRecordResult{Stream: "3"},
		},
		{
			verb: "trace.read",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TraceRead(ctx, protocol.TraceReadParams{TabID: 7, Handle: "3"})
			},
			frame:  `{"tabId":7,"handle":"3"}`,
			answer: protocol.TraceReadResult{Data: "{}", EOF: true},
		},
		{
			verb: "trace.nodes",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.TraceNodes(ctx, protocol.TraceNodesParams{TabID: 7, NodeIDs: []int64{12}})
			},
			frame:  `{"tabId":7,"nodeIds":[12]}`,
			answer: protocol.TraceNodesResult{Nodes: []protocol.TraceNode{{NodeID: 12, Tag: "img"}}},
		},
		{
			verb: "page.evaluate",
			call: func(ctx context.Context, v browser.Verbs) (any, error) {
				return v.PageEvaluate(ctx, protocol.PageEvaluateParams{TabID: 7, Expression: "1+1", MaxChars: 500})
			},
			frame:  `{"tabId":7,"expression":"1+1","maxChars":500}`,
			answer: protocol.PageEvaluateResult{URL: "https://example.com/", Type: "number", JSON: "2", Total: 1},
		},
	}
	fake := fakebrowser.New()
	for _, tt := range tests {
		fake.Handle(tt.verb, fakebrowser.Reply(tt.answer))
	}
	l := connected(t, fake)
	// command.cancel is the Link's own; the program door's verbs are
	// reached only through program.call (tested above).
	covered := []string{"command.cancel", "tab.listUngrouped", "tabGroup.list", "tab.audit"}
	for _, tt := range tests {
		t.Run(tt.verb, func(t *testing.T) {
			covered = append(covered, tt.verb)
			before := len(fake.Calls(tt.verb))
			got, err := tt.call(context.Background(), l.Verbs())
			if err != nil {
				t.Fatal(err)
			}
			calls := fake.Calls(tt.verb)
			if len(calls) != before+1 {
				t.Fatalf("the fake got %d %s commands, want 1", len(calls)-before, tt.verb)
			}
			var frame map[string]json.RawMessage
			json.Unmarshal(calls[len(calls)-1].Frame, &frame)
			delete(frame, "id")
			delete(frame, "type")
			gotFrame, _ := json.Marshal(frame)
			var want map[string]json.RawMessage
			json.Unmarshal([]byte(tt.frame), &want)
			wantFrame, _ := json.Marshal(want) // both with sorted keys
			if string(gotFrame) != string(wantFrame) {
				t.Errorf("command params %s, want %s", gotFrame, wantFrame)
			}
			want2 := tt.want
			if want2 == nil && got != nil {
				want2 = tt.answer
			}
			if !reflect.DeepEqual(got, want2) {
				t.Errorf("result %#v, want %#v", got, want2)
			}
		})
	}
	for _, v := range protocol.Verbs {
		if !slices.Contains(covered, v.Name) {
			t.Errorf("verb %s has no typed method tested here", v.Name)
		}
	}
}
