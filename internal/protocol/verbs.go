package protocol

import "encoding/json"

//go:generate go run ../verbgen/cmd/verbgen

// The extension's verbs: one params type and one result type each. A
// params type's json tags are exactly the parameters the extension's
// handler reads (besides id and type). Verbs below is the one list: go
// generate ./internal/protocol writes the extension's table and dispatch
// registration (extension/verbs.gen.js) and the typed methods of
// internal/browser (verbs_gen.go) from it, and a unit test fails when
// either is stale. Change a parameter here and in its handler, regenerate,
// and bump Version.
//
// Optional IDs are plain ints left out when 0: Chrome's tab and window IDs
// start at 1. Where 0 or -1 means something to Chrome (frame 0 is the top
// frame, tab group -1 is "no group"), the field is a pointer.

// Verb is one extension verb: its params and result types, its handler on
// each of the extension's doors, and the typed method internal/browser
// gives it.
type Verb struct {
	Name   string
	Params any // the zero value of the params type
	Result any // the zero value of the result type
	// Actions is the verb's handler on the actions door (the daemon's
	// native link), as "module.function": a module dispatch.js imports
	// (import * as module), or "local" for dispatch.js's own functions.
	// "" when that door does not run the verb.
	Actions string
	// Programs is its handler on the program door (Hive's protocol for
	// programs), likewise; "" when that door does not run it.
	Programs string
	// Go shapes the verb's method of browser.Verbs; the zero value is a
	// method named after the verb (tab.create: TabCreate) that takes the
	// params and returns the whole result.
	Go Method
	// Doc says what the verb does and answers, on each door: the comment
	// of its entry in the extension's table and of its Go method.
	Doc string
}

// Method shapes the method of browser.Verbs generated for a verb that the
// actions door runs.
type Method struct {
	// Name overrides the name derived from the verb; "-" for no method
	// (command.cancel: the link sends it itself).
	Name string
	// Arg, when set, is the one params field the method takes, as an
	// argument of its own (ReadinessNet(ctx, tabID)).
	Arg string
	// Return, when set, is the one result field the method returns; "-"
	// returns only the error, and "out" decodes the result into the
	// caller's out (cdp: its shape is the CDP method's).
	Return string
	// As is the internal/browser type the result decodes into, when it is
	// not protocol's (browser.state: State, which has methods).
	As string
}

// Verbs lists every verb the extension executes (its allow-list), with the
// params the extension reads and the result it answers with: first the
// verbs of both doors, then the program door's own, then the actions
// door's own, in the extension table's order.
var Verbs = []Verb{
	{
		Name: "context.create", Params: ContextCreateParams{}, Result: ContextCreateResult{},
		Actions: "groups.contextCreate", Programs: "programs.contextCreate",
		Doc: "Actions: a new tab in a new group titled agentId → {groupId, tabId}. Programs: a tab in a new (or the caller's recycleGroupId) group titled displayName or agentId exactly as sent, in windowId or the caller's window or a new unfocused one → {groupId, tabId, windowId}.",
	},
	{
		Name: "context.destroy", Params: ContextDestroyParams{}, Result: ContextDestroyResult{},
		Actions: "groups.contextDestroy", Programs: "programs.contextDestroy",
		Doc: "Closes every tab of the group → {ok, closedTabs}; programs: its own group only, + persistedGroup (Chrome kept the saved group).",
	},
	{
		Name: "tab.create", Params: TabCreateParams{}, Result: TabInfo{},
		Actions: "tabs.create", Programs: "programs.tabCreate",
		Doc: "Actions: a background tab, in windowId or groupId's window, made active in its window if active; waits waitMs for its load → tab info (+loaded). Programs: url in groupId (its own) → {tabId}.",
	},
	{
		Name: "tab.close", Params: TabCloseParams{}, Result: OKResult{},
		Actions: "tabs.close", Programs: "programs.tabClose", Go: Method{Return: "-"},
		Doc: "Closes tabIds, or tabId → {ok}; programs: tabId, its own.",
	},
	{
		Name: "tab.list", Params: TabListParams{}, Result: TabsResult{},
		Actions: "tabs.list", Programs: "programs.tabList", Go: Method{Return: "Tabs"},
		Doc: "The tabs, of groupId or all → {tabs: [tab info]}; programs: of its own groupId or all its own → {tabs: [{id, tabId, url, title, groupId, active, windowId}]}.",
	},
	{
		Name: "tab.activate", Params: TabActivateParams{}, Result: OKResult{},
		Actions: "tabs.activate", Programs: "programs.tabActivate", Go: Method{Return: "-"},
		Doc: "Makes the tab the active one of its window, without focusing the window → {ok}; programs: its own tabs.",
	},
	{
		Name: "cdp.attach", Params: CDPAttachParams{}, Result: CDPAttachResult{},
		Actions: "cdp.attach", Programs: "programs.cdpAttach", Go: Method{Return: "Dialog"},
		Doc: "Attaches the debugger; actions: waiting up to waitMs (at most, and by default, 5 s) for the tab to answer, and with settle first waiting for a command a dialog interrupted → {ok, dialog}. Programs: its own tab, kept attached until cdp.detach, events on → {ok, attached}.",
	},
	{
		Name: "cdp.detach", Params: CDPDetachParams{}, Result: OKResult{},
		Actions: "cdp.detach", Programs: "programs.cdpDetach", Go: Method{Return: "-"},
		Doc: "Detaches the debugger → {ok}.",
	},
	{
		Name: "cdp", Params: CDPParams{}, Result: json.RawMessage{},
		Actions: "cdp.send", Programs: "programs.cdp", Go: Method{Return: "out"},
		Doc: "One CDP command, if the door's policy allows the method (actions: handlers/cdp.js; programs: handlers/programs.js) → the CDP result.",
	},
	{
		Name: "cdp.batch", Params: CDPBatchParams{}, Result: CDPBatchResult{},
		Actions: "cdp.batch",
		Doc:     "CDP commands [{method, params}] in order in one round trip, stopping at a dialog; with check {before, files, fn, frames: [{frameId, args}]}, a page script in those frames before command before, the rest sent only if each answers {ok: true}; then (unless a dialog or the check stopped them) the page script then (page.run's params), net (the tab's readiness.net) and tab (its tab info) → {results, dialog?, interrupted?, check?, stopped?, navigated?, then?, net?, tab?, stale?, before?}; navigated: the page went away under a command that did not answer; expectURL: the URL the daemon judged the tab by, else nothing runs and the answer is {stale, tab}, with it before is the tab as judged; activate: make the tab active before the first command.",
	},
	{
		Name: "dom.setFiles", Params: DOMSetFilesParams{}, Result: OKResult{},
		Actions: "files.setFiles", Go: Method{Return: "-"},
		Doc: "Sets files on the file input a page script marked with token → {ok}.",
	},
	{
		Name: "dom.chooseFiles", Params: DOMChooseFilesParams{}, Result: DOMChooseFilesResult{},
		Actions: "files.chooseFiles",
		Doc:     "Clicks (Input.dispatchMouseEvent commands) an element that opens a file chooser and gives it files → {files, emptied?}.",
	},
	{
		Name: "bridge.ping", Params: BridgePingParams{}, Result: BridgePingResult{},
		Actions: "local.ping", Go: Method{Return: "-"},
		Doc: "The extension answers → {pong: true}.",
	},
	{
		Name: "browser.state", Params: BrowserStateParams{}, Result: BrowserState{},
		Actions: "state.snapshot", Go: Method{As: "State"},
		Doc: "Every window and tab, incognito and file-URL access, the commands running → {windows, ...}.",
	},
	{
		Name: "tab.get", Params: TabGetParams{}, Result: TabInfo{},
		Actions: "tabs.get", Programs: "programs.tabGet",
		Doc: "Actions: one tab → tab info. Programs: → {id, tabId, url, title, groupId, active, windowId}, any tab (an incognito one not its own has url and title blanked).",
	},
	{
		Name: "tab.opened", Params: TabOpenedParams{}, Result: TabsResult{},
		Actions: "tabs.opened", Go: Method{Return: "Tabs"},
		Doc: "The tabs the page of tabId opened that are still open → {tabs}.",
	},
	{
		Name: "tab.navigate", Params: TabNavigateParams{}, Result: TabInfo{},
		Actions: "tabs.navigate",
		Doc:     "Loads url in the tab; waits waitMs for the load → tab info (+loaded).",
	},
	{
		Name: "tab.waitLoad", Params: TabWaitLoadParams{}, Result: TabInfo{},
		Actions: "tabs.waitForLoad",
		Doc:     "Waits up to waitMs for the tab to finish loading → tab info + loaded.",
	},
	{
		Name: "tab.frames", Params: TabFramesParams{}, Result: TabFramesResult{},
		Actions: "tabs.frames", Go: Method{Return: "Frames"},
		Doc: "The tab's frames → {frames: [{frameId, parentFrameId, url, errorOccurred}]}.",
	},
	{
		Name: "tab.group", Params: TabGroupParams{}, Result: TabGroupResult{},
		Actions: "groups.group", Go: Method{Return: "GroupID"},
		Doc: "Adds tabIds (or tabId) to groupId, or to a new group in windowId, with title and color → {groupId}.",
	},
	{
		Name: "window.create", Params: WindowCreateParams{}, Result: TabInfo{},
		Actions: "windows.create",
		Doc:     "A normal window, unfocused unless focused, optionally incognito, url, width and height; waits waitMs → tab info of its tab + windowId.",
	},
	{
		Name: "window.close", Params: WindowCloseParams{}, Result: OKResult{},
		Actions: "windows.close", Go: Method{Return: "-"},
		Doc: "Closes the window → {ok}.",
	},
	{
		Name: "page.run", Params: PageRunParams{}, Result: PageRunResult{},
		Actions: "page.run", Go: Method{Return: "Frames"},
		Doc: "Calls page function fn(args) of the extension's page scripts files in the tab's frames → {frames: [{frameId, documentId, value | error, code?}]}.",
	},
	{
		Name: "readiness.enable", Params: ReadinessEnableParams{}, Result: ReadinessEnableResult{},
		Actions: "readiness.enable", Go: Method{Return: "-"},
		Doc: "Registers page/quiet.js as a content script and puts the action scripts in the bridge's tabs as their documents commit → {ok, registered}.",
	},
	{
		Name: "readiness.disable", Params: ReadinessDisableParams{}, Result: OKResult{},
		Actions: "readiness.disable", Go: Method{Return: "-"},
		Doc: "Undoes both → {ok}.",
	},
	{
		Name: "readiness.net", Params: ReadinessNetParams{}, Result: ReadinessNet{},
		Actions: "readiness.netState", Go: Method{Arg: "TabID"},
		Doc: "The tab's network and navigation activity → {watching, inflightMs, quietMs, navigatingMs?, watchedMs}.",
	},
	{
		Name: "command.cancel", Params: CommandCancelParams{}, Result: CommandCancelResult{},
		Actions: "local.cancel", Go: Method{Name: "-"},
		Doc: "Stops the command commandId of the same connection → {cancelled}.",
	},
	{
		Name: "tab.listUngrouped", Params: NoParams{}, Result: json.RawMessage{},
		Programs: "programs.tabListUngrouped",
		Doc:      "The ungrouped tabs of every window (the user's own among them) → {tabs: [{id, windowId, url}]}, incognito ones with url blanked.",
	},
	{
		Name: "tabGroup.list", Params: NoParams{}, Result: json.RawMessage{},
		Programs: "programs.tabGroupList",
		Doc:      "The caller's own tab groups → {groups: [{id, title, color, collapsed, windowId}]}.",
	},
	{
		Name: "tab.audit", Params: TabAuditParams{}, Result: json.RawMessage{},
		Programs: "programs.tabAudit",
		Doc:      "What may block automation in the caller's tab → {tabId, url, incognito, ourExtensionId, fileAccess, targets, cdpFrames}.",
	},
	{
		Name: "program.call", Params: ProgramCallParams{}, Result: json.RawMessage{},
		Actions: "local.programCall", Go: Method{Arg: "Command"},
		Doc: "Runs command {type, ...params} through the program door for the daemon's local programs (one owner, \"daemon programs\") → its result.",
	},
	{
		Name: "websocket.configure", Params: WebSocketConfig{}, Result: WebSocketStatus{},
		Actions: "websocket.configure",
		Doc:     "Turns the WebSocket transport on (url, default ws://127.0.0.1:14829/bridge; token) or off, kept in chrome.storage.local → {enabled, url, tokenSet, connected, lastError}.",
	},
	{
		Name: "websocket.status", Params: NoParams{}, Result: WebSocketStatus{},
		Actions: "websocket.report",
		Doc:     "The WebSocket transport's setting and state → {enabled, url, tokenSet, connected, lastError}.",
	},
	{
		Name: "handoff.show", Params: HandoffShowParams{}, Result: HandoffShowResult{},
		Actions: "handoff.show",
		Doc:     "Brings the tab's window forward, shows message over the page in an extension frame the page cannot read or click (and on the extension's page), waits up to timeoutMs for Done or Cancel → {outcome: done|cancelled|timeout, tabId, url, title}.",
	},
	{
		Name: "policy.set", Params: PolicySetParams{}, Result: OKResult{},
		Actions: "policy.set", Go: Method{Return: "-"},
		Doc: "The site rules, enforced on the bridge's own tabs before pages load, kept in chrome.storage.session → {ok}. refuseProgramEvaluate: the program door refuses Runtime.evaluate and callFunctionOn.",
	},
	{
		Name: "ask.show", Params: AskShowParams{}, Result: AskShowResult{},
		Actions: "ask.show",
		Doc:     "Asks the user whether the agent may take a step it cannot take back (kind submit|payment|navigation; message, detail), over the tab's page in an extension frame (or, without tabId or a page to show it on, in a window of the extension's own), waiting up to timeoutMs → {outcome: allowed|declined|timeout, overlay} (handlers/ask.js).",
	},
	{
		Name: "downloads.list", Params: DownloadsListParams{}, Result: DownloadsListResult{},
		Actions: "downloads.list", Go: Method{Return: "Downloads"},
		Doc: "Downloads with ids, or started since (ms since the epoch), newest first, at most limit; waitMs waits for one to start → {downloads}. Those asked for by id, and those actedOnTabId (a tab an action just acted on) starts in the next 10 s, are the bridge's: held to the cap (downloads.limit).",
	},
	{
		Name: "downloads.cancel", Params: DownloadsCancelParams{}, Result: OKResult{},
		Actions: "downloads.cancel", Go: Method{Return: "-"},
		Doc: "Cancels the download downloadId in progress → {ok}.",
	},
	{
		Name: "downloads.limit", Params: DownloadsLimitParams{}, Result: OKResult{},
		Actions: "downloads.limit", Go: Method{Return: "-"},
		Doc: "The cap on one download (the settings' downloadMaxBytes), which the extension holds every bridge download to by itself, to its end: cancelled past it while arriving, its file removed when it arrived whole past it → {ok}.",
	},
	{
		Name: "tab.history", Params: TabHistoryParams{}, Result: TabHistoryResult{},
		Actions: "history.step",
		Doc:     "Goes back or forward in the tab's history, or reloads it (bypassCache), and waits up to waitMs for the page it leads to → tab info + loaded, started, sameDocument?, stayed? (a \"leave page?\" dialog was dismissed); no entry to go to: invalid_argument.",
	},
	{
		Name: "tab.viewport", Params: TabViewportParams{}, Result: TabViewportResult{},
		Actions: "viewport.set",
		Doc:     "Lays the tab's page out at width×height CSS px (deviceScaleFactor, mobile), keeping the debugger attached while set, or reset → {width, height, deviceScaleFactor} as laid out now.",
	},
	{
		Name: "tab.emulate", Params: TabEmulateParams{}, Result: TabEmulateResult{},
		Actions: "emulate.set",
		Doc:     "Emulates a device (metrics, touch, user agent), cpuThrottling, network conditions, colorScheme and reducedMotion, each kept until reset (which undoes tab.viewport's size too) or the tab closes; a field left out keeps what is set → {width, height, deviceScaleFactor, touch, userAgent} as the page sees them, and what is set.",
	},
	{
		Name: "trace.record", Params: TraceRecordParams{}, Result: TraceRecordResult{},
		Actions: "trace.record",
		Doc:     "Traces the tab (Tracing, as DevTools' Performance panel records): its reload (reload, default true) until loaded within waitMs and settled, or the next durationMs → {stream, loaded}.",
	},
	{
		Name: "trace.read", Params: TraceReadParams{}, Result: TraceReadResult{},
		Actions: "trace.read",
		Doc:     "The next chunk of a trace's stream (IO.read), or close → {data, eof}.",
	},
	{
		Name: "trace.nodes", Params: TraceNodesParams{}, Result: TraceNodesResult{},
		Actions: "trace.nodes",
		Doc:     "DOM nodes by backend ID (the trace's) → {nodes: [{nodeId, role, name, tag, id, text}]}.",
	},
	{
		Name: "page.evaluate", Params: PageEvaluateParams{}, Result: PageEvaluateResult{},
		Actions: "evaluate.run",
		Doc:     "Runs expression in the page's own context (MAIN world) of frameId (default 0), awaits a promise, returns its JSON cut at maxChars → {frameId, url, type, json, total} or {frameId, url, error} (a throw, a rejection, a syntax error).",
	},
	{
		Name: "record.console", Params: RecordConsoleParams{}, Result: RecordConsoleResult{},
		Actions: "record.consoleRead",
		Doc:     "A tab's console messages and page errors after since, recording the tab from now on if it was not → {startedAt, fromLoad, dropped, nextSince, messages}.",
	},
	{
		Name: "record.network", Params: RecordNetworkParams{}, Result: RecordNetworkResult{},
		Actions: "record.networkRead",
		Doc:     "A tab's requests after since, or with requestId that one with headers and bodies → {startedAt, fromLoad, dropped, nextSince, requests | request | missing}.",
	},
}

// PageEvaluateParams: page.evaluate runs Expression in the page's own
// context (the MAIN world) of frame FrameID (nil: the top frame), awaits
// a promise, and answers its JSON cut at MaxChars.
type PageEvaluateParams struct {
	TabID      int    `json:"tabId"`
	FrameID    *int   `json:"frameId,omitempty"`
	Expression string `json:"expression"`
	MaxChars   int    `json:"maxChars,omitempty"`
}

// PageEvaluateResult is the frame's answer: the value's JavaScript Type,
// JSON (its first MaxChars characters) and Total (the whole JSON's
// length), or Error, what the expression threw (its syntax error, its
// rejection). URL is the frame's, for the file-URL rules.
type PageEvaluateResult struct {
	FrameID int    `json:"frameId"`
	URL     string `json:"url"`
	Type    string `json:"type,omitempty"`
	JSON    string `json:"json,omitempty"`
	Total   int    `json:"total,omitempty"`
	Error   string `json:"error,omitempty"`
}

// NoParams is the params of a verb that takes none.
type NoParams struct{}

// TabAuditParams asks what may block automation in a program's tab; the
// result is Hive's {tabId, url, incognito, ourExtensionId, fileAccess,
// targets, cdpFrames}.
type TabAuditParams struct {
	TabID int `json:"tabId"`
}

// ProgramCallParams runs Command ({type, ...params}, a Hive-compatible
// verb) through the extension's program door, as the daemon's local
// programs' one owner; the result is that verb's.
type ProgramCallParams struct {
	Command json.RawMessage `json:"command"`
}

// OKResult is the answer of verbs that only do something: {ok: true}.
type OKResult struct {
	OK bool `json:"ok"`
}

// TabInfo is a tab as the extension reports it (extension/handlers/tabinfo.js
// info): the result of tab.get, tab.create, tab.navigate, tab.waitLoad and
// window.create, and the tab an action's result names (tool.Tab is this
// type). Its tab IDs carry tab:"id", which tool.QualifyTabs rewrites
// with the browser's slot on the way to the agent.
type TabInfo struct {
	TabID     int    `json:"tabId" tab:"id"`
	WindowID  int    `json:"windowId"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Active    bool   `json:"active"`
	GroupID   int    `json:"groupId"`
	Incognito bool   `json:"incognito"`
	Status    string `json:"status"`
	// Loaded is set by the verbs that wait for a load (waitMs): false
	// when the load had not finished within the wait.
	Loaded *bool `json:"loaded,omitempty"`
	// LoadError is the network error of the last navigation while the
	// tab shows the browser's error page for it.
	LoadError string `json:"loadError,omitempty"`
	// OpenerTabID is the tab whose page opened this one (a link to
	// _blank, window.open), 0 for none.
	OpenerTabID int `json:"openerTabId,omitempty" tab:"id"`
	// Stopped is what the site rules stopped the tab from loading, while
	// it shows the extension's blocked page: the extension's own record
	// (extension/handlers/stops.js), never read from the page's URL,
	// which a page could forge.
	Stopped *Stop `json:"stopped,omitempty"`
	// WorkspacePage says the tab is the extension's workspace page, the
	// quiet tab that keeps a workspace's window and group open between
	// the agent's pages: the bridge's, though no workspace owns it.
	WorkspacePage bool `json:"workspacePage,omitempty"`
}

// Stop is a navigation the extension's site rules stopped in one of the
// bridge's tabs.
type Stop struct {
	// URL is the address the tab was stopped from loading: a page's
	// choice, so it is quoted wherever it is shown.
	URL string `json:"url"`
	// Rule is the pattern that refused it ("" for the allow list).
	Rule string `json:"rule"`
	// Kind is "deny", "builtin" or "allow".
	Kind string `json:"kind"`
}

// WindowInfo is a window and its tabs, in BrowserState.
type WindowInfo struct {
	WindowID  int       `json:"windowId"`
	Incognito bool      `json:"incognito"`
	Focused   bool      `json:"focused"`
	Tabs      []TabInfo `json:"tabs"`
}

// TabsResult is a list of tabs: the result of tab.list and tab.opened.
type TabsResult struct {
	Tabs []TabInfo `json:"tabs"`
}

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) open
// on a tab. It stops the page until someone answers it.
type Dialog struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt"`
}

// CDPCommand is one CDP command of cdp.batch and dom.chooseFiles.
type CDPCommand struct {
	Method string `json:"method"`
	Params any    `json:"params,omitempty"`
}

// ContextCreateParams: context.create (Hive) opens a tab in a new tab group
// labelled agentId.
type ContextCreateParams struct {
	AgentID string `json:"agentId,omitempty"`
	// DisplayName is the group's title, kept as sent; AgentID when empty.
	// (Programs on the WebSocket door get Hive's U+200B marker added, as
	// Hive's own extension adds it; the daemon's programs do not.)
	DisplayName string `json:"displayName,omitempty"`
	// WindowID puts the group in that window; RecycleGroupID reuses a
	// group the caller made before.
	WindowID       int `json:"windowId,omitempty"`
	RecycleGroupID int `json:"recycleGroupId,omitempty"`
}

// ContextCreateResult is the new group, its tab and its window.
type ContextCreateResult struct {
	GroupID  int `json:"groupId"`
	TabID    int `json:"tabId"`
	WindowID int `json:"windowId,omitempty"`
}

// ContextDestroyParams: context.destroy (Hive) closes every tab of a group.
type ContextDestroyParams struct {
	GroupID int `json:"groupId"`
}

// ContextDestroyResult says how many tabs were closed.
type ContextDestroyResult struct {
	OK         bool `json:"ok"`
	ClosedTabs int  `json:"closedTabs"`
}

// TabCreateParams: tab.create opens a tab in the background, made the active
// tab of its window (never focusing the window) when Active is set.
type TabCreateParams struct {
	URL      string `json:"url,omitempty"`
	WindowID int    `json:"windowId,omitempty"`
	// GroupID puts the tab into that group (and its window).
	GroupID *int `json:"groupId,omitempty"`
	Active  bool `json:"active,omitempty"`
	// WaitMs > 0 waits up to that long for the load (see TabInfo.Loaded).
	WaitMs int `json:"waitMs,omitempty"`
}

// TabCloseParams: tab.close closes TabIDs, or TabID when TabIDs is empty.
type TabCloseParams struct {
	TabID  int   `json:"tabId,omitempty"`
	TabIDs []int `json:"tabIds,omitempty"`
}

// TabListParams: tab.list (Hive) lists every tab, or those of GroupID (-1:
// the ungrouped ones).
type TabListParams struct {
	GroupID *int `json:"groupId,omitempty"`
}

// TabActivateParams: tab.activate makes a tab the active one of its window
// without focusing the window.
type TabActivateParams struct {
	TabID int `json:"tabId"`
}

// CDPAttachParams: cdp.attach attaches the debugger to a tab (kept until
// the tab has been idle a few seconds) and reports a dialog open on it.
type CDPAttachParams struct {
	TabID int `json:"tabId"`
	// Settle waits (up to 5 s) for a batch command that a dialog
	// interrupted to finish, or for its next dialog.
	Settle bool `json:"settle,omitempty"`
	// WaitMs bounds the wait for the tab to answer the debugger (a
	// dialog that opened unseen holds it); 0 or more than 5 s is 5 s.
	WaitMs int `json:"waitMs,omitempty"`
}

// CDPAttachResult carries the dialog open on the tab, if any.
type CDPAttachResult struct {
	OK     bool    `json:"ok"`
	Dialog *Dialog `json:"dialog"`
}

// CDPDetachParams: cdp.detach detaches the debugger from a tab.
type CDPDetachParams struct {
	TabID int `json:"tabId"`
}

// CDPParams: cdp sends one CDP command to a tab (attaching first). Its
// result is the CDP method's result, as Chrome returns it.
type CDPParams struct {
	TabID  int    `json:"tabId"`
	Method string `json:"method"`
	Params any    `json:"params,omitempty"`
}

// CDPBatchParams: cdp.batch sends several CDP commands in order in one
// round trip, stopping at the first failure or at a dialog.
type CDPBatchParams struct {
	TabID    int          `json:"tabId"`
	Commands []CDPCommand `json:"commands"`
	// Then, if set, is a page script (page.run's params; TabID is the
	// batch's) run right after the commands; Net asks for the tab's
	// activity (readiness.net) after it, and Tab for its tab info: a look
	// at what the input did in the same round trip as the input. None of
	// them runs when a dialog stopped the commands.
	Then *PageRunParams `json:"then,omitempty"`
	Net  bool           `json:"net,omitempty"`
	Tab  bool           `json:"tab,omitempty"`
	// Check, if set, is made in the same round trip before command
	// Check.Before: the commands from there on are sent only if it passes.
	Check *BatchCheck `json:"check,omitempty"`
	// ExpectURL, if set, is the URL the daemon judged the tab by without
	// a look of its own: a tab that shows another URL gets nothing (the
	// result says Stale). Activate makes the tab the active one of its
	// window before the first command.
	ExpectURL string `json:"expectURL,omitempty"`
	Activate  bool   `json:"activate,omitempty"`
}

// BatchCheck is a check cdp.batch makes between two of its commands (or
// after the last, Before = len(Commands)): the page script function Fn of
// Files runs in each of Frames with that frame's Args, as page.run runs
// it, and passes when every frame answers an object with ok: true.
type BatchCheck struct {
	Before int               `json:"before"`
	Files  []string          `json:"files"`
	Fn     string            `json:"fn"`
	Frames []BatchCheckFrame `json:"frames"`
}

// BatchCheckFrame is one frame a BatchCheck runs in, with its arguments.
type BatchCheckFrame struct {
	FrameID int `json:"frameId"`
	Args    any `json:"args"`
}

// CDPBatchResult has the results of the commands that ran. When a dialog
// opened, Dialog is set and Interrupted is the index of the command it
// stopped: that command finishes once the dialog is answered, the ones
// after it were not sent.
type CDPBatchResult struct {
	Results     []json.RawMessage `json:"results"`
	Dialog      *Dialog           `json:"dialog,omitempty"`
	Interrupted int               `json:"interrupted,omitempty"`
	// Then, Net and Tab answer the params' Then, Net and Tab.
	Then *PageRunResult `json:"then,omitempty"`
	Net  *ReadinessNet  `json:"net,omitempty"`
	Tab  *TabInfo       `json:"tab,omitempty"`
	// Check has the frames' answers to the params' Check, once it ran;
	// Stopped says it failed (or a dialog held it) and the commands from
	// Check.Before on were not sent.
	Check   []PageFrameResult `json:"check,omitempty"`
	Stopped bool              `json:"stopped,omitempty"`
	// Navigated says the tab's page began to navigate away while command
	// Interrupted waited for its answer, which did not come within a
	// second: the commands after it were not sent (they would reach the
	// next page), nor Then.
	Navigated bool `json:"navigated,omitempty"`
	// Stale says the tab no longer showed the params' ExpectURL: nothing
	// ran, and Tab is the tab as it is. Before, with ExpectURL, is the
	// tab as the batch found it before its check and commands.
	Stale  bool     `json:"stale,omitempty"`
	Before *TabInfo `json:"before,omitempty"`
}

// DOMSetFilesParams: dom.setFiles sets the files of the file input a page
// script marked with data-bb-upload=Token. The daemon has checked Files.
type DOMSetFilesParams struct {
	TabID int      `json:"tabId"`
	Token string   `json:"token"`
	Files []string `json:"files"`
}

// DOMChooseFilesParams: dom.chooseFiles clicks an element (Commands, only
// Input.dispatchMouseEvent) and answers the file chooser it opens with
// Files. InFrame says the element is in a child frame.
type DOMChooseFilesParams struct {
	TabID    int          `json:"tabId"`
	Files    []string     `json:"files"`
	Commands []CDPCommand `json:"commands"`
	InFrame  bool         `json:"inFrame,omitempty"`
}

// DOMChooseFilesResult is the files as the page received them: names and
// sizes, never content.
type DOMChooseFilesResult struct {
	Files []FileInfo `json:"files"`
	// Emptied: the page read the files when told of them and emptied the
	// input, as many upload widgets do; Files are what it got.
	Emptied bool `json:"emptied,omitempty"`
}

// FileInfo is one file a file input holds.
type FileInfo struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// BridgePingParams: bridge.ping checks that the extension answers.
type BridgePingParams struct{}

// BridgePingResult is {pong: true}.
type BridgePingResult struct {
	Pong bool `json:"pong"`
}

// BrowserStateParams: browser.state lists every normal and pop-up window
// and its tabs.
type BrowserStateParams struct{}

// BrowserState is the extension's browser.state.
type BrowserState struct {
	LastFocusedWindowID int          `json:"lastFocusedWindowId"`
	IncognitoAllowed    bool         `json:"incognitoAllowed"`
	Windows             []WindowInfo `json:"windows"`
	// Running lists the other commands in flight in the extension, by
	// verb: a command the daemon gave up on is cancelled there too.
	Running []string `json:"running"`
	// FileSchemeAccess is whether the extension may read file URLs.
	FileSchemeAccess *bool `json:"fileSchemeAccess"`
	// DebuggedTabs are the tabs that a debugger other than the bridge's
	// (DevTools, another extension) is attached to: one that pauses the
	// page at a breakpoint stops the bridge's commands there.
	DebuggedTabs []int `json:"debuggedTabs,omitempty"`
}

// TabGetParams: tab.get describes one tab.
type TabGetParams struct {
	TabID int `json:"tabId"`
}

// TabOpenedParams: tab.opened lists the open tabs that TabID's page opened.
type TabOpenedParams struct {
	TabID int `json:"tabId"`
}

// TabNavigateParams: tab.navigate loads URL in a tab.
type TabNavigateParams struct {
	TabID int    `json:"tabId"`
	URL   string `json:"url"`
	// WaitMs > 0 waits up to that long for the load (see TabInfo.Loaded).
	WaitMs int `json:"waitMs,omitempty"`
}

// TabWaitLoadParams: tab.waitLoad waits up to WaitMs for a tab's load; the
// result says Loaded: false when it had not finished.
type TabWaitLoadParams struct {
	TabID  int `json:"tabId"`
	WaitMs int `json:"waitMs"`
}

// TabFramesParams: tab.frames lists a tab's frames.
type TabFramesParams struct {
	TabID int `json:"tabId"`
}

// TabFramesResult is webNavigation.getAllFrames, trimmed.
type TabFramesResult struct {
	Frames []Frame `json:"frames"`
}

// Frame is one frame of a tab.
type Frame struct {
	FrameID       int    `json:"frameId"`
	ParentFrameID int    `json:"parentFrameId"`
	URL           string `json:"url"`
	ErrorOccurred bool   `json:"errorOccurred"`
}

// TabGroupParams: tab.group adds TabIDs (or TabID) to GroupID, or to a new
// group in WindowID, and labels the group with Title and Color. Color must
// be one of Chrome's group colours; it is checked before anything changes.
type TabGroupParams struct {
	TabID    int    `json:"tabId,omitempty"`
	TabIDs   []int  `json:"tabIds,omitempty"`
	GroupID  *int   `json:"groupId,omitempty"`
	WindowID int    `json:"windowId,omitempty"`
	Title    string `json:"title,omitempty"`
	Color    string `json:"color,omitempty"`
}

// TabGroupResult is the group the tabs are in.
type TabGroupResult struct {
	GroupID int `json:"groupId"`
}

// WindowCreateParams: window.create opens a normal window, unfocused unless
// Focused; its result is its first tab (with the window's ID and
// incognito flag).
type WindowCreateParams struct {
	URL       string `json:"url,omitempty"`
	Focused   bool   `json:"focused,omitempty"`
	Incognito bool   `json:"incognito,omitempty"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	// WaitMs > 0 waits up to that long for the load (see TabInfo.Loaded).
	WaitMs int `json:"waitMs,omitempty"`
}

// WindowCloseParams: window.close closes a window.
type WindowCloseParams struct {
	WindowID int `json:"windowId"`
}

// PageRunParams: page.run calls __bb[Fn](Args) in a tab's frames, injecting
// Files (the extension's own page scripts, extension/page/*.js, never code
// from the daemon) when Fn is missing. It runs in FrameID, or every frame
// with AllFrames, else the top frame.
type PageRunParams struct {
	TabID     int      `json:"tabId"`
	Files     []string `json:"files"`
	Fn        string   `json:"fn"`
	Args      any      `json:"args,omitempty"`
	FrameID   *int     `json:"frameId,omitempty"`
	AllFrames bool     `json:"allFrames,omitempty"`
}

// PageRunResult has one entry per frame the script ran in.
type PageRunResult struct {
	Frames []PageFrameResult `json:"frames"`
}

// PageFrameResult is one frame's answer to a page script: its value, or
// the error it threw (with a code when the script gave one).
type PageFrameResult struct {
	FrameID    int    `json:"frameId"`
	DocumentID string `json:"documentId"`
	// URL is the frame's address when the script ran (location.href).
	URL   string          `json:"url,omitempty"`
	Value json.RawMessage `json:"value"`
	Error string          `json:"error"`
	Code  string          `json:"code"`
}

// ReadinessEnableParams: readiness.enable registers page/quiet.js as a
// content script of every frame until Chrome restarts, and from then on
// puts the action scripts (page/dom.js, locate.js and act.js) in the top
// frame of each document that commits in one of the bridge's own tabs.
type ReadinessEnableParams struct{}

// ReadinessEnableResult says whether this call registered it.
type ReadinessEnableResult struct {
	OK         bool `json:"ok"`
	Registered bool `json:"registered"`
}

// ReadinessDisableParams: readiness.disable unregisters the quiet-DOM
// content script and stops putting the action scripts in new documents.
type ReadinessDisableParams struct{}

// ReadinessNetParams: readiness.net reports a tab's network and navigation
// activity, as the extension's worker has seen it.
type ReadinessNetParams struct {
	TabID int `json:"tabId"`
}

// ReadinessNet is a tab's activity: the requests that bring a page its
// content (documents, scripts, styles, fetch/XHR; but for frame
// documents, the top frame's only) and its top frame's navigation.
type ReadinessNet struct {
	// Watching is false when the extension cannot see requests.
	Watching bool `json:"watching"`
	// InflightMs are the ages of the requests in flight, youngest first
	// (at most 20).
	InflightMs []int `json:"inflightMs"`
	// QuietMs is the time since a request last started or ended.
	QuietMs int `json:"quietMs"`
	// NavigatingMs is the age of a top-frame navigation not yet
	// committed; nil when none is pending.
	NavigatingMs *int `json:"navigatingMs,omitempty"`
	// WatchedMs is how long the worker has kept the record (a restarted
	// worker knows nothing of requests begun before).
	WatchedMs int `json:"watchedMs"`
}

// CommandCancelParams: command.cancel stops the command CommandID that the
// daemon no longer waits for. Its reply goes nowhere.
type CommandCancelParams struct {
	CommandID string `json:"commandId"`
}

// CommandCancelResult says whether the command was still running.
type CommandCancelResult struct {
	Cancelled bool `json:"cancelled"`
}

// DownloadsListParams: downloads.list answers the downloads IDs, or those
// that started at or after Since (ms since the epoch), newest first, at
// most Limit (default 20). With WaitMs, when none has started since then,
// it waits up to that long (at most 10 s) for one to start. The downloads
// asked for by ID are the bridge's, and the extension holds them to the
// cap (DownloadsLimitParams), as it does a download that ActedOnTabID (a
// tab an action just acted on, a user's one included) starts within the
// next 10 s (the daemon's window for a download an action started).
// (Not "tabId": a tab handed to the user refuses verbs that name it.)
type DownloadsListParams struct {
	IDs          []int `json:"ids,omitempty"`
	Since        int64 `json:"since,omitempty"`
	Limit        int   `json:"limit,omitempty"`
	WaitMs       int   `json:"waitMs,omitempty"`
	ActedOnTabID int   `json:"actedOnTabId,omitempty"`
}

// DownloadsListResult is the downloads found.
type DownloadsListResult struct {
	Downloads []DownloadItem `json:"downloads"`
}

// DownloadItem is one of Chrome's downloads (chrome.downloads.DownloadItem,
// trimmed), with the tab that started it when the extension could tell
// (a download that began as a navigation of that tab).
type DownloadItem struct {
	ID            int    `json:"id"`
	URL           string `json:"url"`
	Referrer      string `json:"referrer"`
	Filename      string `json:"filename"` // where Chrome saves it: an absolute path
	MIME          string `json:"mime"`
	State         string `json:"state"` // in_progress, interrupted, complete
	Error         string `json:"error"`
	Danger        string `json:"danger"`
	BytesReceived int64  `json:"bytesReceived"`
	TotalBytes    int64  `json:"totalBytes"` // -1 or 0 when unknown
	FileSize      int64  `json:"fileSize"`
	Exists        bool   `json:"exists"`
	Incognito     bool   `json:"incognito"`
	StartTime     string `json:"startTime"` // ISO 8601
	TabID         int    `json:"tabId,omitempty"`
}

// DownloadsCancelParams: downloads.cancel cancels the download ID in
// progress. (Not "id": that is the command's own.)
type DownloadsCancelParams struct {
	ID int `json:"downloadId"`
}

// DownloadsLimitParams: downloads.limit gives the extension the cap on one
// download (the settings' downloadMaxBytes), which it holds every bridge
// download to by itself, to its end, whether or not an action is
// waiting on it: one still arriving past the cap is cancelled, one that
// arrived whole past it has its file removed. The daemon sends it after
// each hello and whenever the setting changes, beside policy.set.
type DownloadsLimitParams struct {
	MaxBytes int64 `json:"maxBytes"`
}
