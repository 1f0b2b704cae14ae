package protocol

import "time"

// The user's side of the bridge, on the existing wires:
//
//   - extension → daemon (native link), the extension's page asking
//     through the service worker: {id: "ext-<n>", type: "ui.state"} →
//     UIState, and {id, type: "ui.pause", paused} → UIPaused. The ids
//     start with "ext-", as for paths.check.
//   - daemon → extension, two verbs (Verbs): handoff.show hands a tab to
//     the user and waits for Done, Cancel or its timeout; policy.set
//     gives the extension the site rules it enforces itself before it
//     acts (a redirect or a link into a denied site).

// The page's requests to the daemon.
const (
	TypeUIState = "ui.state"
	TypeUIPause = "ui.pause"
	// TypeUIEvaluate is the page's switch of the evaluate action:
	// {id, type: "ui.evaluate", on} → UIEvaluated.
	TypeUIEvaluate = "ui.evaluate"
	// TypeUIReplay is the workspace page's request for its timeline:
	// UIReplayAsk → UIReplay (docs/cli.md, "replay").
	TypeUIReplay = "ui.replay"
)

// UIReplayAsk asks for the timeline of the workspace whose window is
// WindowID (a window of the asking browser). Seq asks for that one step
// with its picture; else the newest steps (at most UIReplaySteps) from
// From on and before Before (0: no bound), each with a thumbnail.
type UIReplayAsk struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	WindowID int    `json:"windowId"`
	From     int    `json:"from,omitempty"`
	Before   int    `json:"before,omitempty"`
	Seq      *int   `json:"seq,omitempty"`
}

// UIReplaySteps is the most steps one UIReplay holds: the native link's
// frames are at most 1 MiB, and a thumbnail is a few KB.
const UIReplaySteps = 20

// UIReplay is a page of a workspace's timeline, oldest first.
type UIReplay struct {
	Workspace string         `json:"workspace"`
	Steps     []UIReplayStep `json:"steps"`
	// More: steps of the range asked for, older than the first sent,
	// were left out (the answer holds a page of the newest).
	More bool `json:"more"`
}

// UIReplayStep is one step: its thumbnail (a data: URL of a small
// JPEG) in a page of steps, its picture when asked for alone; empty
// when it has none.
type UIReplayStep struct {
	Seq     int       `json:"seq"`
	Time    time.Time `json:"time"`
	Action  string    `json:"action"`
	Target  string    `json:"target,omitempty"`
	Outcome string    `json:"outcome"`
	URL     string    `json:"url,omitempty"`
	Title   string    `json:"title,omitempty"`
	Thumb   string    `json:"thumb,omitempty"`
	Image   string    `json:"image,omitempty"`
}

// UIEvaluate is the page's switch "Let the agent run JavaScript", as
// `browser-bridge policy evaluate on|off` (settings.json allowEvaluate).
type UIEvaluate struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	On   bool   `json:"on"`
}

// UIEvaluated answers UIEvaluate with the state now in settings.json.
type UIEvaluated struct {
	On bool `json:"on"`
}

// UIPause is the page's Pause switch: {id, type: "ui.pause", paused}.
type UIPause struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Paused bool   `json:"paused"`
}

// UIPaused answers UIPause with the state now in settings.json.
type UIPaused struct {
	Paused bool `json:"paused"`
}

// UIState is what the extension's page shows of the daemon.
type UIState struct {
	Daemon UIDaemon `json:"daemon"`
	// Off says why the bridge is turned off ("" when it is on).
	Off    string `json:"off,omitempty"`
	Paused bool   `json:"paused"`
	// AskBeforeIrreversible: the user is asked before the agent submits,
	// pays or goes to another site (settings.json askBeforeIrreversible).
	AskBeforeIrreversible bool `json:"askBeforeIrreversible,omitempty"`
	// Evaluate: the agent may run JavaScript in pages (settings.json
	// allowEvaluate).
	Evaluate bool `json:"evaluate"`
	// Policy is the site rules, the built-in ones included.
	Policy     PolicySetParams `json:"policy"`
	Workspaces []UIWorkspace   `json:"workspaces"`
	// Actions are the latest entries of the audit trail, newest first.
	Actions []UIAction `json:"actions"`
}

// UIDaemon is the daemon the page talks to, for its version check.
type UIDaemon struct {
	Version  string `json:"version"`
	Protocol int    `json:"protocol"`
	PID      int    `json:"pid"`
	// Mismatch is the daemon's sentence when the connected extension
	// speaks another protocol.
	Mismatch string `json:"mismatch,omitempty"`
}

// UIWorkspace is one workspace of the registry and the tabs the bridge
// opened in it; the page reads their titles from Chrome itself.
type UIWorkspace struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Color     string `json:"color"`
	WindowID  int    `json:"windowId"`
	GroupID   int    `json:"groupId"`
	Incognito bool   `json:"incognito"`
	Tabs      []int  `json:"tabs"`
}

// UIAction is one line of the audit trail as the page shows it (the
// parameters already redacted by the trail).
type UIAction struct {
	Time      time.Time `json:"time"`
	Session   string    `json:"session"`
	Workspace string    `json:"workspace,omitempty"`
	Action    string    `json:"action"`
	// Browser is the browser the command ran in, as the audit trail
	// names it ("1 (Edge)"); empty when it reached none.
	Browser string         `json:"browser,omitempty"`
	TabID   int            `json:"tabId,omitempty"`
	URL     string         `json:"url,omitempty"`
	Params  map[string]any `json:"params,omitempty"`
	Code    string         `json:"code"`
	Ms      int64          `json:"ms"`
}

// HandoffShowParams: handoff.show brings the tab's window forward, shows
// message in an overlay on the page (an extension frame the page cannot
// read or click) and on the extension's page, and waits up to timeoutMs
// for the user's Done or Cancel.
type HandoffShowParams struct {
	TabID     int    `json:"tabId"`
	Message   string `json:"message"`
	TimeoutMs int    `json:"timeoutMs"`
}

// The outcomes of a hand-off.
const (
	HandoffDone      = "done"
	HandoffCancelled = "cancelled"
	HandoffTimeout   = "timeout"
)

// HandoffShowResult is what the user chose and the tab afterwards.
type HandoffShowResult struct {
	Outcome string `json:"outcome"`
	TabID   int    `json:"tabId"`
	URL     string `json:"url"`
	Title   string `json:"title"`
}

// PolicySetParams: policy.set gives the extension the site rules
// (internal/policy), which it keeps in chrome.storage.session and
// enforces on the bridge's own tabs.
type PolicySetParams struct {
	Allow       []string `json:"allow"`
	Deny        []string `json:"deny"`
	BuiltInDeny []string `json:"builtInDeny"`
	// RefuseProgramEvaluate refuses Runtime.evaluate and callFunctionOn
	// on the program door (settings.RefuseProgramEvaluate).
	RefuseProgramEvaluate bool `json:"refuseProgramEvaluate,omitempty"`
}
