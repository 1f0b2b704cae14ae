package protocol

import "encoding/json"

// The extension's verbs: one params type and one result type each, in the
// order of extension/dispatch.js. A params type's json tags are exactly the
// parameters the extension's handler reads (besides id and type); its twin
// is VERBS in extension/protocol.js, and verbs_test.go fails when the two
// lists differ. Change a parameter on both sides and bump Version.
//
// Optional IDs are plain ints left out when 0: Chrome's tab and window IDs
// start at 1. Where 0 or -1 means something to Chrome (frame 0 is the top
// frame, tab group -1 is "no group"), the field is a pointer.

// Verb names one extension verb with its params and result types.
type Verb struct {
	Name   string
	Params any // the zero value of the params type
	Result any // the zero value of the result type
}

// Verbs lists every verb the extension executes (its allow-list), with the
// params the extension reads and the result it answers with.
var Verbs = []Verb{
	{"context.create", ContextCreateParams{}, ContextCreateResult{}},
	{"context.destroy", ContextDestroyParams{}, ContextDestroyResult{}},
	{"tab.create", TabCreateParams{}, TabInfo{}},
	{"tab.close", TabCloseParams{}, OKResult{}},
	{"tab.list", TabListParams{}, TabsResult{}},
	{"tab.activate", TabActivateParams{}, OKResult{}},
	{"cdp.attach", CDPAttachParams{}, CDPAttachResult{}},
	{"cdp.detach", CDPDetachParams{}, OKResult{}},
	{"cdp", CDPParams{}, json.RawMessage{}},
	{"cdp.batch", CDPBatchParams{}, CDPBatchResult{}},
	{"dom.setFiles", DOMSetFilesParams{}, OKResult{}},
	{"dom.chooseFiles", DOMChooseFilesParams{}, DOMChooseFilesResult{}},
	{"bridge.ping", BridgePingParams{}, BridgePingResult{}},
	{"browser.state", BrowserStateParams{}, BrowserState{}},
	{"tab.get", TabGetParams{}, TabInfo{}},
	{"tab.opened", TabOpenedParams{}, TabsResult{}},
	{"tab.navigate", TabNavigateParams{}, TabInfo{}},
	{"tab.waitLoad", TabWaitLoadParams{}, TabInfo{}},
	{"tab.frames", TabFramesParams{}, TabFramesResult{}},
	{"tab.group", TabGroupParams{}, TabGroupResult{}},
	{"window.create", WindowCreateParams{}, TabInfo{}},
	{"window.close", WindowCloseParams{}, OKResult{}},
	{"page.run", PageRunParams{}, PageRunResult{}},
	{"readiness.enable", ReadinessEnableParams{}, ReadinessEnableResult{}},
	{"readiness.disable", ReadinessDisableParams{}, OKResult{}},
	{"readiness.net", ReadinessNetParams{}, ReadinessNet{}},
	{"command.cancel", CommandCancelParams{}, CommandCancelResult{}},
	// The program door's own (Hive protocol 6).
	{"tab.listUngrouped", NoParams{}, json.RawMessage{}},
	{"tabGroup.list", NoParams{}, json.RawMessage{}},
	{"tab.audit", TabAuditParams{}, json.RawMessage{}},
	// The daemon's door to the program door and the WebSocket setting.
	{"program.call", ProgramCallParams{}, json.RawMessage{}},
	{"websocket.configure", WebSocketConfig{}, WebSocketStatus{}},
	{"websocket.status", NoParams{}, WebSocketStatus{}},
	// The user's side.
	{"handoff.show", HandoffShowParams{}, HandoffShowResult{}},
	{"policy.set", PolicySetParams{}, OKResult{}},
	{"ask.show", AskShowParams{}, AskShowResult{}},
	{"downloads.list", DownloadsListParams{}, DownloadsListResult{}},
	{"downloads.cancel", DownloadsCancelParams{}, OKResult{}},
	{"downloads.limit", DownloadsLimitParams{}, OKResult{}},
	// The navigation actions (navigation.go).
	{"tab.history", TabHistoryParams{}, TabHistoryResult{}},
	{"tab.viewport", TabViewportParams{}, TabViewportResult{}},
	// The exec family.
	{"page.evaluate", PageEvaluateParams{}, PageEvaluateResult{}},
	// The developer tools' records (record.go).
	{"record.console", RecordConsoleParams{}, RecordConsoleResult{}},
	{"record.network", RecordNetworkParams{}, RecordNetworkResult{}},
	// performance (trace.go).
	{"trace.record", TraceRecordParams{}, TraceRecordResult{}},
	{"trace.read", TraceReadParams{}, TraceReadResult{}},
	{"trace.nodes", TraceNodesParams{}, TraceNodesResult{}},
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
// window.create.
type TabInfo struct {
	TabID     int    `json:"tabId"`
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
	OpenerTabID int `json:"openerTabId,omitempty"`
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
