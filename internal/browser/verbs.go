package browser

import (
	"context"
	"encoding/json"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Caller sends one verb to the extension and decodes its result into out.
// *Link is one; so is anything that stands in for it (actions.Browser).
type Caller interface {
	Call(ctx context.Context, verb string, params, out any) error
}

// Verbs gives each extension verb a typed method over a Caller: the params
// and result types are protocol's (verbs.go), one pair per verb, so that a
// changed parameter is a compile error here rather than a surprise in the
// extension. command.cancel has none: the Link sends it itself.
type Verbs struct{ Caller }

// call sends verb with p and decodes its result as an R.
func call[R any](ctx context.Context, c Caller, verb string, p any) (R, error) {
	var r R
	err := c.Call(ctx, verb, p, &r)
	return r, err
}

// ContextCreate opens a tab in a new tab group labelled p.AgentID (Hive's
// verb; the bridge makes its workspaces with TabGroup).
func (v Verbs) ContextCreate(ctx context.Context, p protocol.ContextCreateParams) (protocol.ContextCreateResult, error) {
	return call[protocol.ContextCreateResult](ctx, v, "context.create", p)
}

// ContextDestroy closes every tab of a tab group (Hive's verb).
func (v Verbs) ContextDestroy(ctx context.Context, p protocol.ContextDestroyParams) (protocol.ContextDestroyResult, error) {
	return call[protocol.ContextDestroyResult](ctx, v, "context.destroy", p)
}

// TabCreate opens a tab in the background (see protocol.TabCreateParams).
func (v Verbs) TabCreate(ctx context.Context, p protocol.TabCreateParams) (TabInfo, error) {
	return call[TabInfo](ctx, v, "tab.create", p)
}

// TabClose closes tabs.
func (v Verbs) TabClose(ctx context.Context, p protocol.TabCloseParams) error {
	_, err := call[protocol.OKResult](ctx, v, "tab.close", p)
	return err
}

// TabList lists the tabs of every window, or of one tab group.
func (v Verbs) TabList(ctx context.Context, p protocol.TabListParams) ([]TabInfo, error) {
	r, err := call[protocol.TabsResult](ctx, v, "tab.list", p)
	return r.Tabs, err
}

// TabActivate makes a tab the active one of its window, leaving the focus
// where the user has it.
func (v Verbs) TabActivate(ctx context.Context, p protocol.TabActivateParams) error {
	_, err := call[protocol.OKResult](ctx, v, "tab.activate", p)
	return err
}

// CDPAttach attaches the debugger to a tab and returns the dialog open on
// it, if any.
func (v Verbs) CDPAttach(ctx context.Context, p protocol.CDPAttachParams) (*protocol.Dialog, error) {
	r, err := call[protocol.CDPAttachResult](ctx, v, "cdp.attach", p)
	return r.Dialog, err
}

// CDPDetach detaches the debugger from a tab.
func (v Verbs) CDPDetach(ctx context.Context, p protocol.CDPDetachParams) error {
	_, err := call[protocol.OKResult](ctx, v, "cdp.detach", p)
	return err
}

// CDP sends one CDP command to a tab and decodes the method's result into
// out (which may be nil): its shape is the CDP method's.
func (v Verbs) CDP(ctx context.Context, p protocol.CDPParams, out any) error {
	return v.Call(ctx, "cdp", p, out)
}

// CDPBatch sends several CDP commands to a tab in one round trip.
func (v Verbs) CDPBatch(ctx context.Context, p protocol.CDPBatchParams) (protocol.CDPBatchResult, error) {
	return call[protocol.CDPBatchResult](ctx, v, "cdp.batch", p)
}

// DOMSetFiles sets the files of the file input a page script marked.
func (v Verbs) DOMSetFiles(ctx context.Context, p protocol.DOMSetFilesParams) error {
	_, err := call[protocol.OKResult](ctx, v, "dom.setFiles", p)
	return err
}

// DOMChooseFiles clicks an element and answers the file chooser it opens.
func (v Verbs) DOMChooseFiles(ctx context.Context, p protocol.DOMChooseFilesParams) (protocol.DOMChooseFilesResult, error) {
	return call[protocol.DOMChooseFilesResult](ctx, v, "dom.chooseFiles", p)
}

// BridgePing checks that the extension answers.
func (v Verbs) BridgePing(ctx context.Context) error {
	_, err := call[protocol.BridgePingResult](ctx, v, "bridge.ping", protocol.BridgePingParams{})
	return err
}

// BrowserState lists every window and its tabs.
func (v Verbs) BrowserState(ctx context.Context) (State, error) {
	return call[State](ctx, v, "browser.state", protocol.BrowserStateParams{})
}

// TabGet describes one tab.
func (v Verbs) TabGet(ctx context.Context, p protocol.TabGetParams) (TabInfo, error) {
	return call[TabInfo](ctx, v, "tab.get", p)
}

// TabOpened lists the open tabs that a tab's page opened.
func (v Verbs) TabOpened(ctx context.Context, p protocol.TabOpenedParams) ([]TabInfo, error) {
	r, err := call[protocol.TabsResult](ctx, v, "tab.opened", p)
	return r.Tabs, err
}

// TabNavigate loads a URL in a tab.
func (v Verbs) TabNavigate(ctx context.Context, p protocol.TabNavigateParams) (TabInfo, error) {
	return call[TabInfo](ctx, v, "tab.navigate", p)
}

// TabWaitLoad waits for a tab's load; the result's Loaded says whether it
// finished in time.
func (v Verbs) TabWaitLoad(ctx context.Context, p protocol.TabWaitLoadParams) (TabInfo, error) {
	return call[TabInfo](ctx, v, "tab.waitLoad", p)
}

// TabFrames lists a tab's frames.
func (v Verbs) TabFrames(ctx context.Context, p protocol.TabFramesParams) ([]protocol.Frame, error) {
	r, err := call[protocol.TabFramesResult](ctx, v, "tab.frames", p)
	return r.Frames, err
}

// TabGroup puts tabs into a tab group and returns the group's ID.
func (v Verbs) TabGroup(ctx context.Context, p protocol.TabGroupParams) (int, error) {
	r, err := call[protocol.TabGroupResult](ctx, v, "tab.group", p)
	return r.GroupID, err
}

// WindowCreate opens a window and returns its tab.
func (v Verbs) WindowCreate(ctx context.Context, p protocol.WindowCreateParams) (TabInfo, error) {
	return call[TabInfo](ctx, v, "window.create", p)
}

// WindowClose closes a window.
func (v Verbs) WindowClose(ctx context.Context, p protocol.WindowCloseParams) error {
	_, err := call[protocol.OKResult](ctx, v, "window.close", p)
	return err
}

// PageRun runs one of the extension's page scripts in a tab's frames and
// returns each frame's answer.
func (v Verbs) PageRun(ctx context.Context, p protocol.PageRunParams) ([]protocol.PageFrameResult, error) {
	r, err := call[protocol.PageRunResult](ctx, v, "page.run", p)
	return r.Frames, err
}

// PageEvaluate runs an expression in the page's own context (evaluate).
func (v Verbs) PageEvaluate(ctx context.Context, p protocol.PageEvaluateParams) (protocol.PageEvaluateResult, error) {
	return call[protocol.PageEvaluateResult](ctx, v, "page.evaluate", p)
}

// ReadinessEnable registers the quiet-DOM content script.
func (v Verbs) ReadinessEnable(ctx context.Context) error {
	_, err := call[protocol.ReadinessEnableResult](ctx, v, "readiness.enable", protocol.ReadinessEnableParams{})
	return err
}

// ReadinessNet reports the tab's network and navigation activity.
func (v Verbs) ReadinessNet(ctx context.Context, tabID int) (protocol.ReadinessNet, error) {
	return call[protocol.ReadinessNet](ctx, v, "readiness.net", protocol.ReadinessNetParams{TabID: tabID})
}

// ReadinessDisable unregisters the quiet-DOM content script.
func (v Verbs) ReadinessDisable(ctx context.Context) error {
	_, err := call[protocol.OKResult](ctx, v, "readiness.disable", protocol.ReadinessDisableParams{})
	return err
}

// ProgramCall runs a Hive-compatible verb through the extension's program
// door for the daemon's local programs (their one owner there). command is
// {type, ...params} as JSON. The program door's own verbs (tab.audit,
// tab.listUngrouped, tabGroup.list) are reached only this way.
func (v Verbs) ProgramCall(ctx context.Context, command json.RawMessage) (json.RawMessage, error) {
	return call[json.RawMessage](ctx, v, "program.call", protocol.ProgramCallParams{Command: command})
}

// WebSocketConfigure turns the extension's WebSocket transport on or off.
func (v Verbs) WebSocketConfigure(ctx context.Context, p protocol.WebSocketConfig) (protocol.WebSocketStatus, error) {
	return call[protocol.WebSocketStatus](ctx, v, "websocket.configure", p)
}

// WebSocketStatus reports the WebSocket transport's setting and state.
func (v Verbs) WebSocketStatus(ctx context.Context) (protocol.WebSocketStatus, error) {
	return call[protocol.WebSocketStatus](ctx, v, "websocket.status", protocol.NoParams{})
}

// DownloadsList lists downloads: by ID, or those started since a moment.
func (v Verbs) DownloadsList(ctx context.Context, p protocol.DownloadsListParams) ([]protocol.DownloadItem, error) {
	r, err := call[protocol.DownloadsListResult](ctx, v, "downloads.list", p)
	return r.Downloads, err
}

// DownloadsCancel cancels a download in progress.
func (v Verbs) DownloadsCancel(ctx context.Context, p protocol.DownloadsCancelParams) error {
	_, err := call[protocol.OKResult](ctx, v, "downloads.cancel", p)
	return err
}

// RecordConsole reads a tab's recorded console messages after since.
func (v Verbs) RecordConsole(ctx context.Context, p protocol.RecordConsoleParams) (protocol.RecordConsoleResult, error) {
	return call[protocol.RecordConsoleResult](ctx, v, "record.console", p)
}

// RecordNetwork reads a tab's recorded requests after since, or one in
// full.
func (v Verbs) RecordNetwork(ctx context.Context, p protocol.RecordNetworkParams) (protocol.RecordNetworkResult, error) {
	return call[protocol.RecordNetworkResult](ctx, v, "record.network", p)
}

// TraceRecord traces a tab (performance).
func (v Verbs) TraceRecord(ctx context.Context, p protocol.TraceRecordParams) (protocol.TraceRecordResult, error) {
	return call[protocol.TraceRecordResult](ctx, v, "trace.record", p)
}

// TraceRead reads the next chunk of a trace.
func (v Verbs) TraceRead(ctx context.Context, p protocol.TraceReadParams) (protocol.TraceReadResult, error) {
	return call[protocol.TraceReadResult](ctx, v, "trace.read", p)
}

// TraceNodes describes DOM nodes a trace names.
func (v Verbs) TraceNodes(ctx context.Context, p protocol.TraceNodesParams) (protocol.TraceNodesResult, error) {
	return call[protocol.TraceNodesResult](ctx, v, "trace.nodes", p)
}
