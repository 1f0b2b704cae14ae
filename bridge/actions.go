package bridge

import (
	"context"
)

// The actions of the use_user_browser tool (docs/design.md#actions), one method each,
// generated from the contract into actions_gen.go (but for Status). A
// method's params struct marshals to the tool's parameters — its json
// names are the contract's — and the daemon checks them, as it does for
// the MCP server and the command line: a mistake is an *Error with
// ErrInvalidArgument naming the parameter. Zero fields are left out; a
// pointer field is one where zero is a value (Nth: new(0) is the first
// match, nil is "the first visible one").

// Target says where an action runs: the tool's common parameters. Page
// actions use TabID, else the active tab of BrowserWorkspaceID, else the
// active tab of Chrome's current window. Open, search and extract with a
// URL open their tab in the workspace's own window: BrowserWorkspaceID,
// else "run:"+RunID, else the client's session. With several browsers
// connected, Browser (a label or slot from Status.Browsers) picks one;
// by default the one the user focused last. A TabID of a browser other
// than the first carries its slot (slot*10^10 + Chrome's ID) and picks
// its browser by itself.
type Target struct {
	TabID              int    `json:"tabId,omitempty"`
	Browser            string `json:"browser,omitempty"`
	BrowserWorkspaceID string `json:"browserWorkspaceId,omitempty"`
	RunID              string `json:"runId,omitempty"`
	// TimeoutMs shortens the call's deadline (at most 60000, the default).
	TimeoutMs int `json:"timeoutMs,omitempty"`
}

// Status reports the connection, every open tab and the workspaces of the
// default browser, and lists every connected browser.
func (c *Client) Status(ctx context.Context) (*Status, error) {
	return do[Status](ctx, c, "status", nil)
}

// StatusOf is Status of one browser (a label or slot from Browsers).
func (c *Client) StatusOf(ctx context.Context, browser string) (*Status, error) {
	return do[Status](ctx, c, "status", Target{Browser: browser})
}
