package bridge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The Hive-compatible verbs (docs/design.md#wire-protocol), relayed by the daemon to the
// extension's program door. A program works there only in tabs and tab
// groups it created (ContextCreate, TabCreate); anything else is
// ErrNotOwned. All programs connected to one daemon count as one owner.
// CDP passes every method except those that read cookies or site storage
// or reach beyond the tab (Target.*, Browser.*, SystemInfo.*):
// ErrMethodNotAllowed names it. Files reach a page (DOM.setFileInputFiles)
// only after the daemon checked every path with the upload rules.

// ContextOptions are context.create's optional parameters.
type ContextOptions struct {
	// DisplayName is the tab group's title (default: the agent ID), kept
	// exactly as given.
	DisplayName string `json:"displayName,omitempty"`
	// WindowID opens the context in that window instead of the window of
	// the program's other groups (or a new unfocused one).
	WindowID int `json:"windowId,omitempty"`
	// RecycleGroupID reuses a group of the program's own that Chrome kept
	// (a saved group).
	RecycleGroupID int `json:"recycleGroupId,omitempty"`
}

// ContextInfo is a context: a tab group of the program's own with its
// first tab.
type ContextInfo struct {
	GroupID  int `json:"groupId"`
	TabID    int `json:"tabId"`
	WindowID int `json:"windowId"`
}

// ContextCreate makes a context for agentID: a new tab group with one
// blank tab, in a window of the program's (never a user's window unless
// opts.WindowID names one).
func (c *Client) ContextCreate(ctx context.Context, agentID string, opts *ContextOptions) (*ContextInfo, error) {
	p := struct {
		AgentID string `json:"agentId"`
		ContextOptions
	}{AgentID: agentID}
	if opts != nil {
		p.ContextOptions = *opts
	}
	out := new(ContextInfo)
	if err := c.verb(ctx, "context.create", p, out); err != nil {
		return nil, err
	}
	return out, nil
}

// ContextDestroyed says what ContextDestroy closed. PersistedGroup: Chrome
// kept the (saved) group, which stays the program's for RecycleGroupID.
type ContextDestroyed struct {
	ClosedTabs     int  `json:"closedTabs"`
	PersistedGroup bool `json:"persistedGroup"`
}

// ContextDestroy closes every tab of a context's group.
func (c *Client) ContextDestroy(ctx context.Context, groupID int) (*ContextDestroyed, error) {
	out := new(ContextDestroyed)
	if err := c.verb(ctx, "context.destroy", map[string]int{"groupId": groupID}, out); err != nil {
		return nil, err
	}
	return out, nil
}

// TabCreate opens a tab in the background, in group groupID (0: the
// window of the program's groups, ungrouped) at url (empty:
// about:blank), and returns its ID.
func (c *Client) TabCreate(ctx context.Context, groupID int, url string) (int, error) {
	p := map[string]any{}
	if groupID > 0 {
		p["groupId"] = groupID
	}
	if url != "" {
		p["url"] = url
	}
	var out struct {
		TabID int `json:"tabId"`
	}
	if err := c.verb(ctx, "tab.create", p, &out); err != nil {
		return 0, err
	}
	return out.TabID, nil
}

// TabClose closes one of the program's tabs.
func (c *Client) TabClose(ctx context.Context, tabID int) error {
	return c.verb(ctx, "tab.close", map[string]int{"tabId": tabID}, nil)
}

// TabActivate makes one of the program's tabs the active tab of its
// window, without focusing the window.
func (c *Client) TabActivate(ctx context.Context, tabID int) error {
	return c.verb(ctx, "tab.activate", map[string]int{"tabId": tabID}, nil)
}

// TabList lists the program's tabs: those of group groupID, or all of
// them when groupID is 0.
func (c *Client) TabList(ctx context.Context, groupID int) ([]Tab, error) {
	p := map[string]int{}
	if groupID > 0 {
		p["groupId"] = groupID
	}
	var out struct {
		Tabs []Tab `json:"tabs"`
	}
	if err := c.verb(ctx, "tab.list", p, &out); err != nil {
		return nil, err
	}
	return out.Tabs, nil
}

// TabGet describes any tab; a user's incognito tab comes back Redacted.
func (c *Client) TabGet(ctx context.Context, tabID int) (*Tab, error) {
	var out struct {
		Tab
		ID int `json:"id"`
	}
	if err := c.verb(ctx, "tab.get", map[string]int{"tabId": tabID}, &out); err != nil {
		return nil, err
	}
	t := out.Tab
	if t.TabID == 0 {
		t.TabID = out.ID // Hive's name
	}
	// The door reports a withheld page as an incognito tab with no URL.
	t.Redacted = t.Redacted || (t.Incognito && t.URL == "" && t.Title == "")
	return &t, nil
}

// TabGroup is one of the program's tab groups.
type TabGroup struct {
	ID        int    `json:"id"`
	Title     string `json:"title"`
	Color     string `json:"color"`
	Collapsed bool   `json:"collapsed"`
	WindowID  int    `json:"windowId"`
}

// TabGroupList lists the program's tab groups.
func (c *Client) TabGroupList(ctx context.Context) ([]TabGroup, error) {
	var out struct {
		Groups []TabGroup `json:"groups"`
	}
	if err := c.verb(ctx, "tabGroup.list", nil, &out); err != nil {
		return nil, err
	}
	return out.Groups, nil
}

// UngroupedTab is a tab outside every tab group (the user's own among
// them); incognito ones come without their URL.
type UngroupedTab struct {
	ID       int    `json:"id"`
	WindowID int    `json:"windowId"`
	URL      string `json:"url"`
}

// TabListUngrouped lists the tabs outside every tab group, as Hive's
// server does to find its stray tabs.
func (c *Client) TabListUngrouped(ctx context.Context) ([]UngroupedTab, error) {
	var out struct {
		Tabs []UngroupedTab `json:"tabs"`
	}
	if err := c.verb(ctx, "tab.listUngrouped", nil, &out); err != nil {
		return nil, err
	}
	return out.Tabs, nil
}

// TabAudit reports what may block automation in one of the program's
// tabs (Hive's tab.audit: its url, incognito, the extension's file
// access, the debugging targets and frames), as raw JSON.
func (c *Client) TabAudit(ctx context.Context, tabID int) (json.RawMessage, error) {
	var out json.RawMessage
	err := c.verb(ctx, "tab.audit", map[string]any{"tabId": tabID}, &out)
	return out, err
}

// CDPAttach attaches the debugger to one of the program's tabs and keeps
// it attached (CDP attaches by itself when needed).
func (c *Client) CDPAttach(ctx context.Context, tabID int) error {
	return c.verb(ctx, "cdp.attach", map[string]int{"tabId": tabID}, nil)
}

// CDPDetach detaches the debugger from one of the program's tabs.
func (c *Client) CDPDetach(ctx context.Context, tabID int) error {
	return c.verb(ctx, "cdp.detach", map[string]int{"tabId": tabID}, nil)
}

// CDP sends one Chrome DevTools Protocol command to one of the program's
// tabs and decodes its result into out (nil: drop it). params must
// marshal to a JSON object (nil: none). A CDP error comes back as an
// *Error with Chrome's own message.
func (c *Client) CDP(ctx context.Context, tabID int, method string, params, out any) error {
	p := struct {
		TabID  int    `json:"tabId"`
		Method string `json:"method"`
		Params any    `json:"params,omitempty"`
	}{tabID, method, params}
	var raw json.RawMessage
	if err := c.verb(ctx, "cdp", p, &raw); err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("bridge: decoding the result of %s: %w", method, err)
	}
	return nil
}

// WebSocketState is the extension's WebSocket transport (serving Hive's
// protocol to a server on this machine) as it stands.
type WebSocketState struct {
	Enabled   bool   `json:"enabled"`
	URL       string `json:"url"`
	TokenSet  bool   `json:"tokenSet"`
	Connected bool   `json:"connected"`
	LastError string `json:"lastError,omitempty"`
}

// WebSocketEnable turns the extension's WebSocket transport on: it dials
// url — a loopback ws:// URL; empty for Hive's default
// ws://127.0.0.1:14829/bridge — sending token (if any) in its hello.
func (c *Client) WebSocketEnable(ctx context.Context, url, token string) (*WebSocketState, error) {
	if url == "" {
		url = protocol.DefaultWebSocketURL
	}
	return c.webSocket(ctx, "websocket.configure", protocol.WebSocketConfig{Enabled: true, URL: url, Token: token})
}

// WebSocketDisable turns the extension's WebSocket transport off.
func (c *Client) WebSocketDisable(ctx context.Context) (*WebSocketState, error) {
	return c.webSocket(ctx, "websocket.configure", protocol.WebSocketConfig{})
}

// WebSocketStatus reports the extension's WebSocket transport.
func (c *Client) WebSocketStatus(ctx context.Context) (*WebSocketState, error) {
	return c.webSocket(ctx, "websocket.status", nil)
}

func (c *Client) webSocket(ctx context.Context, verb string, params any) (*WebSocketState, error) {
	out := new(WebSocketState)
	if err := c.verb(ctx, verb, params, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Tab is a tab as the program verbs describe it (TabList, TabGet); TabGet
// marks a user's incognito tab Redacted, its URL and title withheld.
type Tab struct {
	TabID     int    `json:"tabId"`
	WindowID  int    `json:"windowId,omitempty"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	GroupID   int    `json:"groupId,omitempty"`
	Active    bool   `json:"active,omitempty"`
	Owned     bool   `json:"owned,omitempty"`
	Incognito bool   `json:"incognito,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
}
