package bridge

import (
	"context"
)

// The actions of the use_user_browser tool (SPEC §2), one method each. A
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

// SearchParams are search's parameters.
type SearchParams struct {
	Target
	Query string `json:"query"`
	// Incognito searches in an incognito window (nil: the workspace's).
	Incognito *bool `json:"incognito,omitempty"`
}

// Search runs a web search in a visible tab of the workspace. A consent
// wall or an "unusual traffic" page is an error, not zero results.
func (c *Client) Search(ctx context.Context, p SearchParams) (*SearchResult, error) {
	return do[SearchResult](ctx, c, "search", p)
}

// OpenParams are open's parameters.
type OpenParams struct {
	Target
	URL string `json:"url"`
	// Where is the tool's target: "current" loads URL in the active tab
	// instead of a new one ("new", the default). Target.TabID loads it in
	// that tab.
	Where     string `json:"target,omitempty"`
	Incognito *bool  `json:"incognito,omitempty"`
	// Dialog answers dialogs the page shows meanwhile: "accept" or
	// "dismiss" (default: accept alerts, dismiss the others). Every page
	// action takes it.
	Dialog string `json:"dialog,omitempty"`
}

// Open loads a URL (http, https, file or about:blank) in a new tab of the
// workspace's window, in the current tab, or in Target.TabID.
func (c *Client) Open(ctx context.Context, p OpenParams) (*OpenResult, error) {
	return do[OpenResult](ctx, c, "open", p)
}

// ExtractParams are extract's parameters: a URL to open first, or the tab
// of Target.
type ExtractParams struct {
	Target
	URL       string   `json:"url,omitempty"`
	Where     string   `json:"target,omitempty"`
	Incognito *bool    `json:"incognito,omitempty"`
	WaitFor   *WaitFor `json:"waitFor,omitempty"`
	// Include narrows the result to these parts: markdown, reader, links,
	// headings, text, frames (warnings come with every result).
	Include []string `json:"include,omitempty"`
	// MaxChars is the size budget (default 20000); Offset continues at an
	// earlier result's NextOffset, with Target.TabID.
	MaxChars int    `json:"maxChars,omitempty"`
	Offset   int    `json:"offset,omitempty"`
	Dialog   string `json:"dialog,omitempty"`
}

// Extract reads a page once it is loaded and quiet: markdown, reader
// view, links, headings and frames.
func (c *Client) Extract(ctx context.Context, p ExtractParams) (*ExtractResult, error) {
	return do[ExtractResult](ctx, c, "extract", p)
}

// InspectParams are inspect's parameters.
type InspectParams struct {
	Target
	MaxChars int    `json:"maxChars,omitempty"`
	Offset   int    `json:"offset,omitempty"`
	Dialog   string `json:"dialog,omitempty"`
}

// Inspect lists the page's interactive elements, each with a ref to use
// as a locator.
func (c *Client) Inspect(ctx context.Context, p InspectParams) (*InspectResult, error) {
	return do[InspectResult](ctx, c, "inspect", p)
}

// WaitParams are wait's parameters: one condition — Load, a locator, or
// URLContains.
type WaitParams struct {
	Target
	Locator
	URLContains string `json:"urlContains,omitempty"`
	Load        bool   `json:"load,omitempty"`
	Dialog      string `json:"dialog,omitempty"`
}

// Wait waits until the condition holds; ErrTimeout names it when it does
// not within the deadline.
func (c *Client) Wait(ctx context.Context, p WaitParams) (*WaitResult, error) {
	return do[WaitResult](ctx, c, "wait", p)
}

// ClickParams are click's parameters.
type ClickParams struct {
	Target
	Locator
	// InputMode "dom" clicks with DOM events instead of trusted input
	// ("cdp", the default).
	InputMode  string `json:"inputMode,omitempty"`
	Button     string `json:"button,omitempty"` // left (default), right, middle
	ClickCount int    `json:"clickCount,omitempty"`
	Dialog     string `json:"dialog,omitempty"`
}

// Click clicks an element with trusted mouse input.
func (c *Client) Click(ctx context.Context, p ClickParams) (*ActResult, error) {
	return do[ActResult](ctx, c, "click", p)
}

// HoverParams are hover's parameters.
type HoverParams struct {
	Target
	Locator
	Dialog string `json:"dialog,omitempty"`
}

// Hover moves the mouse over an element (CSS :hover and mouseover react).
func (c *Client) Hover(ctx context.Context, p HoverParams) (*HoverResult, error) {
	return do[HoverResult](ctx, c, "hover", p)
}

// DragParams are drag's parameters: From is what to drag (one locator),
// To where to drop it (a locator, or X and Y).
type DragParams struct {
	Target
	From   Locator `json:"from"`
	To     Locator `json:"to"`
	Dialog string  `json:"dialog,omitempty"`
}

// Drag presses the mouse on From, moves it onto To and releases it, with
// trusted events (HTML5 drag and drop and pointer-based lists both work).
func (c *Client) Drag(ctx context.Context, p DragParams) (*DragResult, error) {
	return do[DragResult](ctx, c, "drag", p)
}

// TypeParams are type's parameters.
type TypeParams struct {
	Target
	Locator
	Value string `json:"value,omitempty"`
	// Clear replaces the field's content (with an empty Value: empties it).
	Clear     bool   `json:"clear,omitempty"`
	InputMode string `json:"inputMode,omitempty"`
	Dialog    string `json:"dialog,omitempty"`
}

// Type focuses a field and types Value into it.
func (c *Client) Type(ctx context.Context, p TypeParams) (*TypeResult, error) {
	return do[TypeResult](ctx, c, "type", p)
}

// PressParams are press's parameters; the locator, if any, is focused
// first.
type PressParams struct {
	Target
	Locator
	Keys      string `json:"keys"` // e.g. Enter, Tab, Control+A
	InputMode string `json:"inputMode,omitempty"`
	Dialog    string `json:"dialog,omitempty"`
}

// Press presses keys.
func (c *Client) Press(ctx context.Context, p PressParams) (*ActResult, error) {
	return do[ActResult](ctx, c, "press", p)
}

// SelectParams are select's parameters: Option (a value or label) or
// Options (several, for a multiple select).
type SelectParams struct {
	Target
	Locator
	Option  string   `json:"option,omitempty"`
	Options []string `json:"options,omitempty"`
	Dialog  string   `json:"dialog,omitempty"`
}

// Select chooses options of a <select>.
func (c *Client) Select(ctx context.Context, p SelectParams) (*SelectResult, error) {
	return do[SelectResult](ctx, c, "select", p)
}

// CheckParams are check's parameters; Checked nil means true.
type CheckParams struct {
	Target
	Locator
	Checked *bool  `json:"checked,omitempty"`
	Dialog  string `json:"dialog,omitempty"`
}

// Check sets a checkbox, radio or switch; it does nothing when it already
// is in that state.
func (c *Client) Check(ctx context.Context, p CheckParams) (*CheckResult, error) {
	return do[CheckResult](ctx, c, "check", p)
}

// UploadParams are upload's parameters: up to 20 absolute paths of files
// on the machine of the browser.
type UploadParams struct {
	Target
	Locator
	Paths  []string `json:"paths"`
	Dialog string   `json:"dialog,omitempty"`
}

// Upload puts files into a file input. The daemon checks every path first
// (ErrUploadPathRejected names the path and the rule).
func (c *Client) Upload(ctx context.Context, p UploadParams) (*UploadResult, error) {
	return do[UploadResult](ctx, c, "upload", p)
}

// ScrollParams are scroll's parameters: To ("top" or "bottom"), a locator
// to bring into view, or DeltaX/DeltaY.
type ScrollParams struct {
	Target
	Locator
	To     string   `json:"to,omitempty"`
	DeltaX *float64 `json:"deltaX,omitempty"`
	DeltaY *float64 `json:"deltaY,omitempty"`
	Dialog string   `json:"dialog,omitempty"`
}

// Scroll scrolls the page, or the container that holds an element.
func (c *Client) Scroll(ctx context.Context, p ScrollParams) (*ScrollResult, error) {
	return do[ScrollResult](ctx, c, "scroll", p)
}

// ScreenshotParams are screenshot's parameters: the whole page by
// default, Mode "viewport", or Clip.
type ScreenshotParams struct {
	Target
	Mode   string `json:"mode,omitempty"`
	Clip   *Clip  `json:"clip,omitempty"`
	Dialog string `json:"dialog,omitempty"`
}

// Screenshot saves a JPEG of the page. A page that cannot be captured
// whole is ErrFullPageUnavailable, never a silent viewport image.
func (c *Client) Screenshot(ctx context.Context, p ScreenshotParams) (*ScreenshotResult, error) {
	return do[ScreenshotResult](ctx, c, "screenshot", p)
}

// DownloadsParams are the downloads action's parameters.
type DownloadsParams struct {
	Target
}

// Downloads lists the files the bridge's clicks and key presses
// downloaded recently, brought up to date (one in progress then may be
// done now).
func (c *Client) Downloads(ctx context.Context, p DownloadsParams) (*DownloadsResult, error) {
	return do[DownloadsResult](ctx, c, "downloads", p)
}

// ConsoleParams are console's parameters.
type ConsoleParams struct {
	Target
	// Level keeps that level and more severe ones (error, warning, info,
	// log, debug).
	Level string `json:"level,omitempty"`
	// Since is a previous result's NextSince: only newer messages.
	Since int `json:"since,omitempty"`
}

// Console reads a tab's console messages and page errors, as the
// extension recorded them.
func (c *Client) Console(ctx context.Context, p ConsoleParams) (*ConsoleResult, error) {
	return do[ConsoleResult](ctx, c, "console", p)
}

// NetworkParams are network's parameters.
type NetworkParams struct {
	Target
	URLContains string `json:"urlContains,omitempty"`
	Since       int    `json:"since,omitempty"`
	// RequestID asks for one request in full (headers and bodies, cut
	// at MaxChars).
	RequestID string `json:"requestId,omitempty"`
	MaxChars  int    `json:"maxChars,omitempty"`
}

// Network lists a tab's requests, or one in full, with credentials
// redacted.
func (c *Client) Network(ctx context.Context, p NetworkParams) (*NetworkResult, error) {
	return do[NetworkResult](ctx, c, "network", p)
}

// CloseParams are close's parameters: Target.TabID (one tab), or
// CloseWorkspace (the workspace's tabs and its window).
type CloseParams struct {
	Target
	CloseWorkspace bool `json:"closeWorkspace,omitempty"`
}

// CloseTabs closes a tab the bridge opened, or a workspace's tabs; a tab
// the user opened is ErrNotOwned. (Close ends the connection.)
func (c *Client) CloseTabs(ctx context.Context, p CloseParams) (*CloseResult, error) {
	return do[CloseResult](ctx, c, "close", p)
}

// EvaluateParams are evaluate's parameters. Evaluate is off until the
// user runs `browser-bridge policy evaluate on` (ErrEvaluateDisabled); an
// expression that throws is ErrEvaluationFailed.
type EvaluateParams struct {
	Target
	Expression string `json:"expression"`
	FrameID    *int   `json:"frameId,omitempty"`
	MaxChars   int    `json:"maxChars,omitempty"`
	Dialog     string `json:"dialog,omitempty"`
}

// Evaluate runs an expression in the page's own context and returns its
// value as JSON (a promise is awaited).
func (c *Client) Evaluate(ctx context.Context, p EvaluateParams) (*EvaluateResult, error) {
	return do[EvaluateResult](ctx, c, "evaluate", p)
}

// FillParams are fill's parameters: the fields, set in order.
type FillParams struct {
	Target
	Fields []FillField `json:"fields"`
	Dialog string      `json:"dialog,omitempty"`
}

// Fill sets several fields in one call, as Type, Select and Check do; the
// first failure stops it, and its error names the field.
func (c *Client) Fill(ctx context.Context, p FillParams) (*FillResult, error) {
	return do[FillResult](ctx, c, "fill", p)
}

// FindParams are find's parameters.
type FindParams struct {
	Target
	Query  string `json:"query"`
	Dialog string `json:"dialog,omitempty"`
}

// Find finds text on the visible page; each match's Ref is a locator.
func (c *Client) Find(ctx context.Context, p FindParams) (*FindResult, error) {
	return do[FindResult](ctx, c, "find", p)
}
