// Package protocol defines the messages on the bridge's wires, once, in Go.
// Its JavaScript twin is extension/protocol.js; both carry Version and check
// the other side's.
//
// Two wires use these messages, both framed by package nmframe:
//
//   - daemon ⇄ extension (relayed unchanged by the native host): the
//     Hive-compatible protocol. The daemon sends a Command {id, type,
//     ...params}; the extension answers {id, result} or {id, error}; the
//     extension announces itself with {type: "hello"}. The verbs and their
//     params and results are in verbs.go.
//   - client/host ⇄ daemon (unix socket): a connection opens with Auth and
//     the per-install secret; clients then send Call and Cancel and get
//     Reply and Progress back.
package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the protocol version. The extension's hello carries its own;
// a different number is reported as version_mismatch. 2: the verbs and
// their parameters are written down on both sides (verbs.go, VERBS in
// extension/protocol.js). 5: cdp.batch takes expectURL and activate
// (type in one round trip). 6: downloads.limit (the extension holds
// downloads to the cap by itself).
const Version = 6

// EnvDisable forces the bridge off at every layer (client, daemon, native
// host) when set to 1.
const EnvDisable = "BROWSER_BRIDGE_DISABLE"

// NativeHostName is the name under which the native messaging host is
// registered with Chrome (host manifest "name").
const NativeHostName = "com.browser_bridge.host"

// DevExtensionID is the ID Chrome gives the unpacked extension: it is derived
// from the public "key" in extension/manifest.json.
const DevExtensionID = "aiponkfbabfbibgdjamacpapdfpcjeeo"

// Message types on the socket and from the extension.
const (
	TypeHello    = "hello"    // extension → daemon: who it is
	TypePing     = "ping"     // extension → host: keep-alive, answered by the host
	TypePong     = "pong"     // host → extension
	TypeAuth     = "auth"     // client/host → daemon: first message, with the secret
	TypeAuthOK   = "auth.ok"  // daemon → client/host
	TypeCall     = "call"     // client → daemon: run one action
	TypeCancel   = "cancel"   // client → daemon: abandon a call
	TypeProgress = "progress" // daemon → client: a call is still waiting
	TypeShutdown = "shutdown" // client → daemon: exit (a newer binary replaces it)
	// TypeFocused: extension → daemon, {id, type}: the user focused one of
	// this browser's windows (chrome.windows.onFocusChanged), which makes
	// it the default browser; answered {id, result: {ok: true}}.
	TypeFocused = "browser.focused"
)

// Roles a socket peer announces in Auth.
const (
	RoleHost   = "host"
	RoleClient = "client"
)

// Envelope is any message, decoded just far enough to route it.
type Envelope struct {
	ID     string          `json:"id,omitempty"`
	Type   string          `json:"type,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Decode parses one frame into an Envelope. Frames come from outside the
// process (Chrome, a page's influence on the extension, other local
// programs), so anything that is not a JSON object is an error.
func Decode(frame []byte) (Envelope, error) {
	var e Envelope
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 || frame[0] != '{' {
		return e, errors.New("decoding message: not a JSON object")
	}
	if err := json.Unmarshal(frame, &e); err != nil {
		return e, fmt.Errorf("decoding message: %w", err)
	}
	return e, nil
}

// Command is a message to the extension: {id, type, ...params}. Params must
// marshal to a JSON object (or be nil); its fields are merged beside id and
// type, as the Hive protocol has them.
type Command struct {
	ID     string
	Type   string
	Params any
}

// MarshalJSON flattens the params into the command object.
func (c Command) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}{c.ID, c.Type})
	if err != nil {
		return nil, err
	}
	if c.Params == nil {
		return head, nil
	}
	p, err := json.Marshal(c.Params)
	if err != nil {
		return nil, fmt.Errorf("encoding params of %q: %w", c.Type, err)
	}
	p = bytes.TrimSpace(p)
	if len(p) < 2 || p[0] != '{' {
		return nil, fmt.Errorf("params of %q are not an object", c.Type)
	}
	if len(p) == 2 { // {}
		return head, nil
	}
	out := make([]byte, 0, len(head)+len(p))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	out = append(out, p[1:]...)
	return out, nil
}

// Hello is the extension's first message on every connection.
type Hello struct {
	Type        string `json:"type"`
	Version     string `json:"version"`  // extension version (manifest)
	Protocol    int    `json:"protocol"` // its protocol Version
	ExtensionID string `json:"extensionId"`
	// InstanceID names this installation of the extension in this browser
	// profile (random, kept in the extension's storage): tab IDs are only
	// unique within one, and one daemon may serve several.
	InstanceID string `json:"instanceId,omitempty"`
	// BrowserSession names this run of the browser (kept in
	// chrome.storage.session, gone when the browser restarts). Tab IDs are
	// unique only within one run, so ownership is kept per run.
	BrowserSession   string `json:"browserSession,omitempty"`
	IncognitoAllowed bool   `json:"incognitoAllowed"`
	UserAgent        string `json:"userAgent,omitempty"`
	// Brand is the browser's name as navigator.userAgentData has it
	// (Chromium, Google Chrome, Microsoft Edge…), for status's label.
	Brand string `json:"brand,omitempty"`
	// Focused: a window of this browser has the focus as it connects
	// (later changes come as TypeFocused).
	Focused bool `json:"focused,omitempty"`
}

// Auth opens every socket connection to the daemon.
type Auth struct {
	Type     string `json:"type"`
	Role     string `json:"role"`
	Secret   string `json:"secret"`
	Protocol int    `json:"protocol"`
	// Session names the client's session (e.g. "cli" or an MCP session);
	// workspaces are resolved from it.
	Session string `json:"session,omitempty"`
	PID     int    `json:"pid,omitempty"`
	// EndsWithConnection marks an agent's session (an MCP connection):
	// when its last connection ends, the daemon cleans up the session's
	// own workspace after a grace period.
	EndsWithConnection bool `json:"endsWithConnection,omitempty"`
}

// AuthOK answers a good Auth.
type AuthOK struct {
	Type      string `json:"type"`
	DaemonPID int    `json:"daemonPid"`
	Version   string `json:"version"`
}

// Call asks the daemon to run one action; Input is the tool input object
// ({"action": ..., ...}).
type Call struct {
	ID    string          `json:"id"`
	Type  string          `json:"type"`
	Input json.RawMessage `json:"input"`
}

// Reply answers a Call or a Command: exactly one of Result and Error is set.
type Reply struct {
	ID     string `json:"id"`
	Result any    `json:"result,omitempty"`
	Error  *Error `json:"error,omitempty"`
}

// Progress tells a client that its call is still running, and why.
type Progress struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Message string `json:"message"`
}
