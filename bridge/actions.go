package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
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

// Locator names the element a page action targets: exactly one of
// Selector, Text, Role (with Name), Label, Placeholder, Ref (from
// Inspect), or X and Y (in Coordinates "viewport", the default, or
// "document"). FrameID and Nth narrow it; Exact requires equal text
// instead of a case-insensitive substring.
type Locator struct {
	Selector    string   `json:"selector,omitempty"`
	Text        string   `json:"text,omitempty"`
	Role        string   `json:"role,omitempty"`
	Name        string   `json:"name,omitempty"`
	Label       string   `json:"label,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Ref         string   `json:"ref,omitempty"`
	X           *float64 `json:"x,omitempty"`
	Y           *float64 `json:"y,omitempty"`
	Coordinates string   `json:"coordinates,omitempty"`
	FrameID     *int     `json:"frameId,omitempty"`
	Nth         *int     `json:"nth,omitempty"`
	Exact       bool     `json:"exact,omitempty"`
}

// WaitFor is Extract's wait condition: one element locator (not a point),
// or URLContains.
type WaitFor struct {
	Locator
	URLContains string `json:"urlContains,omitempty"`
}

// Clip is a screenshot rectangle in CSS pixels of the document.
type Clip struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Tab is a tab as the bridge reports it. Status, OpenedTabs and the Hive
// verbs fill the fields they know; Redacted marks a user's incognito tab
// whose URL and title are withheld.
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

// Window is a browser window and its tabs.
type Window struct {
	WindowID  int   `json:"windowId"`
	Incognito bool  `json:"incognito"`
	Focused   bool  `json:"focused"`
	Tabs      []Tab `json:"tabs"`
}

// Workspace is one of the bridge's workspaces: its window, tab group and
// tabs.
type Workspace struct {
	ID        string `json:"id"`
	WindowID  int    `json:"windowId"`
	Incognito bool   `json:"incognito"`
	GroupID   int    `json:"groupId"`
	Title     string `json:"title"`
	Color     string `json:"color"`
	Tabs      []int  `json:"tabs"`
}

// Status is what status reports. Connected: the active tab, every window
// and the bridge's workspaces. Not connected: Reason and Diagnostics (every
// link of the chain, as JSON).
type Status struct {
	Connected  bool        `json:"connected"`
	ActiveTab  *Tab        `json:"activeTab,omitempty"`
	Windows    []Window    `json:"windows,omitempty"`
	Workspaces []Workspace `json:"workspaces,omitempty"`
	// Disabled says why the bridge is turned off (empty: it is on).
	Disabled string `json:"disabled,omitempty"`
	// Problem is set when the extension cannot serve (ErrVersionMismatch).
	Problem     *Error          `json:"error,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Diagnostics json.RawMessage `json:"diagnostics,omitempty"`
	// Browsers lists every connected browser; the rest of Status
	// describes the one marked Shown.
	Browsers []Browser `json:"browsers,omitempty"`
}

// Browser is one connected browser (an extension instance in one browser
// profile).
type Browser struct {
	Slot        int       `json:"slot"`
	Label       string    `json:"label"`
	Name        string    `json:"name,omitempty"`
	Instance    string    `json:"instance"`
	Version     string    `json:"version,omitempty"`
	UserAgent   string    `json:"userAgent,omitempty"`
	ConnectedAt time.Time `json:"connectedAt,omitzero"`
	FocusedAt   time.Time `json:"focusedAt,omitzero"`
	// Default: a call that names no browser goes to this one.
	Default bool `json:"default"`
	// Shown: the Status describes this one.
	Shown bool `json:"shown"`
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

// SearchHit is one result of a search.
type SearchHit struct {
	// Kind is organic, ad, featured, people_also_ask, video, news, …
	Kind     string `json:"kind"`
	Position int    `json:"position"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Snippet  string `json:"snippet"`
}

// SearchResult is the results page and what it lists.
type SearchResult struct {
	TabID     int         `json:"tabId"`
	URL       string      `json:"url"`
	Title     string      `json:"title"`
	Query     string      `json:"query"`
	Results   []SearchHit `json:"results"`
	Workspace string      `json:"workspace,omitempty"`
	Incognito bool        `json:"incognito"`
	Warnings  []string    `json:"warnings,omitempty"`
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

// OpenResult is the tab that was opened.
type OpenResult struct {
	TabID     int    `json:"tabId"`
	WindowID  int    `json:"windowId"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Workspace string `json:"workspace,omitempty"`
	GroupID   int    `json:"groupId,omitempty"`
	Owned     bool   `json:"owned"`
	Incognito bool   `json:"incognito,omitempty"`
	// LoadError is the network error when the page could not be loaded.
	LoadError string   `json:"loadError,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
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

// Reader is the main content of a page.
type Reader struct {
	Title    string `json:"title"`
	Byline   string `json:"byline,omitempty"`
	Markdown string `json:"markdown"`
}

// Link is a visible link.
type Link struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// Heading is a visible heading.
type Heading struct {
	Level int    `json:"level"`
	Text  string `json:"text"`
}

// Frame says what became of one frame of the page: read in place, or why
// not.
type Frame struct {
	FrameID     int    `json:"frameId"`
	URL         string `json:"url"`
	CrossOrigin bool   `json:"crossOrigin"`
	Included    bool   `json:"included"`
	Reason      string `json:"reason,omitempty"`
}

// ExtractResult is the rendered, visible page. When the page is larger
// than MaxChars, NextOffset is where the next Extract continues; it is 0
// at the end.
type ExtractResult struct {
	TabID      int       `json:"tabId"`
	URL        string    `json:"url"`
	Title      string    `json:"title"`
	Markdown   string    `json:"markdown,omitempty"`
	Text       string    `json:"text,omitempty"`
	Reader     *Reader   `json:"reader,omitempty"`
	Links      []Link    `json:"links,omitempty"`
	Headings   []Heading `json:"headings,omitempty"`
	Frames     []Frame   `json:"frames,omitempty"`
	Warnings   []string  `json:"warnings,omitempty"`
	TotalChars int       `json:"totalChars"`
	Offset     int       `json:"offset,omitempty"`
	NextOffset int       `json:"nextOffset,omitempty"`
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

// Rect is a rectangle in CSS pixels. Inspect sends it as [x, y, width,
// height]; both that and an object decode.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// UnmarshalJSON takes [x, y, width, height] or {x, y, width, height}.
func (r *Rect) UnmarshalJSON(b []byte) error {
	var a []float64
	if json.Unmarshal(b, &a) == nil {
		if len(a) != 4 {
			return fmt.Errorf("a rect has 4 numbers, not %d", len(a))
		}
		*r = Rect{X: a[0], Y: a[1], Width: a[2], Height: a[3]}
		return nil
	}
	type plain Rect
	return json.Unmarshal(b, (*plain)(r))
}

// Control is one interactive element that Inspect lists; its Ref is a
// locator (Locator{Ref: …}). Inspect sends only what tells elements
// apart: Role when the tag does not say it, Selector when a short one
// finds the element, FrameID for frames other than the top one, and
// visible and enabled only when false — Visible and Enabled are true
// unless the element is hidden or disabled.
type Control struct {
	Ref         string `json:"ref"`
	Tag         string `json:"tag"`
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Text        string `json:"text,omitempty"`
	Type        string `json:"type,omitempty"`
	Checked     *bool  `json:"checked,omitempty"`
	Href        string `json:"href,omitempty"`
	Editable    bool   `json:"editable,omitempty"`
	// Editor names the code editor whose input this is (monaco,
	// codemirror, editcontext, …).
	Editor   string `json:"editor,omitempty"`
	Selector string `json:"selector,omitempty"`
	FrameID  int    `json:"frameId,omitempty"`
	Rect     Rect   `json:"rect"`
	Visible  bool   `json:"visible"`
	Enabled  bool   `json:"enabled"`
}

// UnmarshalJSON reads an element as inspect sends it: visible and
// enabled are left out when true.
func (c *Control) UnmarshalJSON(b []byte) error {
	type plain Control
	p := plain{Visible: true, Enabled: true}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = Control(p)
	return nil
}

// InspectResult lists a page's interactive elements; NextOffset as in
// ExtractResult.
type InspectResult struct {
	TabID int    `json:"tabId"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// Viewport is the top frame's viewport (first window only), to tell
	// which rects are in view.
	Viewport *struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"viewport,omitempty"`
	Elements   []Control `json:"elements"`
	Count      int       `json:"count"`
	TotalChars int       `json:"totalChars"`
	Offset     int       `json:"offset,omitempty"`
	NextOffset int       `json:"nextOffset,omitempty"`
	Warnings   []string  `json:"warnings,omitempty"`
}

// Inspect lists the page's interactive elements, each with a ref to use
// as a locator.
func (c *Client) Inspect(ctx context.Context, p InspectParams) (*InspectResult, error) {
	return do[InspectResult](ctx, c, "inspect", p)
}

// Element is the element an action located.
type Element struct {
	FrameID int    `json:"frameId"`
	Ref     string `json:"ref,omitempty"`
	Tag     string `json:"tag,omitempty"`
	Role    string `json:"role,omitempty"`
	Name    string `json:"name,omitempty"`
	Text    string `json:"text,omitempty"`
	Visible bool   `json:"visible"`
	// Matches is how many elements the locator matched.
	Matches int   `json:"matches,omitempty"`
	Rect    *Rect `json:"rect,omitempty"`
	// ObscuredBy names what covers the element, if anything.
	ObscuredBy string `json:"obscuredBy,omitempty"`
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

// WaitResult says what the wait found.
type WaitResult struct {
	TabID int    `json:"tabId"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// Waited is the condition, in words.
	Waited   string   `json:"waited"`
	WaitedMs int64    `json:"waitedMs"`
	Element  *Element `json:"element,omitempty"`
}

// Wait waits until the condition holds; ErrTimeout names it when it does
// not within the deadline.
func (c *Client) Wait(ctx context.Context, p WaitParams) (*WaitResult, error) {
	return do[WaitResult](ctx, c, "wait", p)
}

// Dialog is a JavaScript dialog an action opened, and how the bridge
// answered it.
type Dialog struct {
	Type    string `json:"type"` // alert, confirm, prompt, beforeunload
	Message string `json:"message"`
	Answer  string `json:"answer"` // accepted or dismissed
}

// ActResult is what a page action returns: the tab afterwards, the
// element it acted on, and what the action set off.
type ActResult struct {
	TabID     int      `json:"tabId"`
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Element   *Element `json:"element,omitempty"`
	Navigated bool     `json:"navigated,omitempty"`
	Dialog    *Dialog  `json:"dialog,omitempty"`
	// OpenedTabs are tabs the page opened meanwhile (a link to _blank, a
	// pop-up); the bridge takes them as its own.
	OpenedTabs []Tab `json:"openedTabs,omitempty"`
	// Downloads are the files a click or press downloaded (see
	// Downloads).
	Downloads []Download `json:"downloads,omitempty"`
	Warnings  []string   `json:"warnings,omitempty"`
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

// HoverResult adds what is under the pointer once the page has reacted.
type HoverResult struct {
	ActResult
	Under *Element `json:"under,omitempty"`
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
func (c *Client) Drag(ctx context.Context, p DragParams) (*ActResult, error) {
	return do[ActResult](ctx, c, "drag", p)
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

// TypeResult adds the field's value afterwards (unless it is hidden, as a
// password's is, or cannot be read: ValueUnreadable says why, as for a
// code editor that shows only part of its text), how the text went in
// (Inserted: typed, pasted, set — a date, color, range… input's value —
// or dom), the code editor typed into, and how long the action waited
// for the page to react (SettledMs).
type TypeResult struct {
	ActResult
	Value           string `json:"value,omitempty"`
	ValueHidden     bool   `json:"valueHidden,omitempty"`
	ValueUnreadable string `json:"valueUnreadable,omitempty"`
	Inserted        string `json:"inserted,omitempty"`
	Editor          string `json:"editor,omitempty"`
	SettledMs       int    `json:"settledMs,omitempty"`
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

// SelectResult adds the options selected afterwards.
type SelectResult struct {
	ActResult
	Selected       []string `json:"selected"`
	SelectedLabels []string `json:"selectedLabels"`
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

// CheckResult adds the final state.
type CheckResult struct {
	ActResult
	Checked bool `json:"checked"`
	Changed bool `json:"changed"`
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

// File is a file a file input holds: its name and size, never its content.
type File struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// UploadResult adds the files the input holds.
type UploadResult struct {
	ActResult
	Files []File `json:"files"`
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

// ScrollResult adds the scroll position afterwards.
type ScrollResult struct {
	ActResult
	ScrollX    float64 `json:"scrollX"`
	ScrollY    float64 `json:"scrollY"`
	MaxScrollX float64 `json:"maxScrollX"`
	MaxScrollY float64 `json:"maxScrollY"`
	Container  string  `json:"container"`
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

// ScreenshotResult is the JPEG file the daemon wrote (mode 0600, on the
// machine of the browser) and its size in pixels and bytes.
type ScreenshotResult struct {
	TabID  int    `json:"tabId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Bytes  int    `json:"bytes"`
	Mode   string `json:"mode"`
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

// Download is a file a click or press of the bridge downloaded. Path is
// where it is: in the bridge's downloads folder (SavedBy "bridge", moved
// there once complete) or where the browser saved it (SavedBy "browser",
// Note says why it stayed). State is done, failed or in_progress.
type Download struct {
	ID      int    `json:"id"`
	Path    string `json:"path,omitempty"`
	Name    string `json:"name"`
	Bytes   int64  `json:"bytes"`
	MIME    string `json:"mime,omitempty"`
	State   string `json:"state"`
	Error   string `json:"error,omitempty"`
	TabID   int    `json:"tabId,omitempty"`
	URL     string `json:"url,omitempty"`
	SavedBy string `json:"savedBy,omitempty"`
	Note    string `json:"note,omitempty"`
}

// DownloadsResult lists recent downloads, newest first, and the bridge's
// downloads folder.
type DownloadsResult struct {
	Downloads []Download `json:"downloads"`
	Folder    string     `json:"folder,omitempty"`
}

// Downloads lists the files the bridge's clicks and key presses
// downloaded recently, brought up to date (one in progress then may be
// done now).
func (c *Client) Downloads(ctx context.Context, p DownloadsParams) (*DownloadsResult, error) {
	return do[DownloadsResult](ctx, c, "downloads", p)
}

// CloseParams are close's parameters: Target.TabID (one tab), or
// CloseWorkspace (the workspace's tabs and its window).
type CloseParams struct {
	Target
	CloseWorkspace bool `json:"closeWorkspace,omitempty"`
}

// CloseResult lists what was closed.
type CloseResult struct {
	TabID         int    `json:"tabId,omitempty"`
	URL           string `json:"url,omitempty"`
	Title         string `json:"title,omitempty"`
	Workspace     string `json:"workspace,omitempty"`
	ClosedTabs    []int  `json:"closedTabs"`
	ClosedWindows []int  `json:"closedWindows,omitempty"`
}

// CloseTabs closes a tab the bridge opened, or a workspace's tabs; a tab
// the user opened is ErrNotOwned. (Close ends the connection.)
func (c *Client) CloseTabs(ctx context.Context, p CloseParams) (*CloseResult, error) {
	return do[CloseResult](ctx, c, "close", p)
}
