package protocol

import "encoding/json"

// Programs: local programs (the public Go client package, `browser-bridge
// websocket`) may run some extension verbs directly, and the extension may
// ask the daemon to check upload paths for a program's
// DOM.setFileInputFiles. Both ride the existing wires:
//
//   - client → daemon: VerbCall {id, type: "verb", verb, params}; the daemon
//     answers with a Reply. Only ProgramVerbs are relayed; the context,
//     tab and cdp verbs run through the extension's program door
//     (extension verb "program.call"), where a program works only in tabs
//     it created and cdp refuses the methods of
//     docs/design.md#wire-protocol.
//   - extension → daemon (native link): a request {id, type:
//     "paths.check", paths}; the daemon answers {id, result: PathsChecked}
//     or {id, error}. Its ids start with "ext-", so they never collide
//     with the daemon's own.

// TypeVerb is a client's request to run one extension verb.
const TypeVerb = "verb"

// TypePathsCheck is the extension's request to check upload paths.
const TypePathsCheck = "paths.check"

// The extension's requests about a WebSocket program's command: admit it
// before it runs (refused while the bridge is off or paused), and record
// how it ended (the audit trail).
const (
	TypeProgramAdmit = "program.admit"
	TypeProgramDone  = "program.done"
)

// ProgramCommand is the params of program.admit and program.done: which
// program (its WebSocket URL as the extension names it) ran which verb,
// on which tab, and how it ended (done only).
type ProgramCommand struct {
	Owner  string `json:"owner"`
	Verb   string `json:"verb"`
	TabID  int    `json:"tabId,omitempty"`
	Method string `json:"method,omitempty"`
	Code   string `json:"code,omitempty"`
	Ms     int64  `json:"ms,omitempty"`
}

// VerbCall asks the daemon to run one extension verb for a local program.
// Browser, when set, names the browser it runs in (a label or slot, as
// status lists them); without it the verb goes where the connection's
// first verb went (see the daemon's verbRoute).
type VerbCall struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Verb    string          `json:"verb"`
	Params  json.RawMessage `json:"params,omitempty"`
	Browser string          `json:"browser,omitempty"`
}

// ProgramVerbs are the verbs a local program may ask the daemon for.
// The Hive-compatible ones run in the extension's program door; the
// websocket ones turn the extension's WebSocket transport on and off.
var ProgramVerbs = []string{
	"context.create", "context.destroy",
	"tab.create", "tab.close", "tab.list", "tab.activate", "tab.get",
	"tab.listUngrouped", "tabGroup.list", "tab.audit",
	"cdp.attach", "cdp.detach", "cdp",
	"websocket.configure", "websocket.status",
}

// PathsCheck is the extension's request {id, type: "paths.check", paths}.
type PathsCheck struct {
	ID    string   `json:"id"`
	Type  string   `json:"type"`
	Paths []string `json:"paths"`
}

// PathsChecked answers a PathsCheck: the paths to give Chrome (the same
// paths, or private copies of the files that were checked).
type PathsChecked struct {
	Paths []string `json:"paths"`
}

// WebSocketConfig is the params of websocket.configure: what the
// extension keeps in chrome.storage.local.
type WebSocketConfig struct {
	Enabled bool   `json:"enabled"`
	URL     string `json:"url,omitempty"`
	Token   string `json:"token,omitempty"`
}

// WebSocketStatus is the result of websocket.configure and
// websocket.status.
type WebSocketStatus struct {
	Enabled   bool   `json:"enabled"`
	URL       string `json:"url"`
	TokenSet  bool   `json:"tokenSet"`
	Connected bool   `json:"connected"`
	LastError string `json:"lastError,omitempty"`
}

// DefaultWebSocketURL is Hive's current bridge port and path.
const DefaultWebSocketURL = "ws://127.0.0.1:14829/bridge"
