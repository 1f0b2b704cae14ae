package tool

import (
	"encoding/json"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/changes"
)

// The reading family: actions that look at a page and change nothing.
func init() {
	declare(
		Spec{
			Name:    "extract",
			After:   "open",
			Result:  ExtractResult{},
			Summary: "read the page: markdown, links, headings (url, waitFor optional); more with offset; changes: only what changed since your last read.",
			Doc:     "reads a page once it is loaded and quiet: markdown, reader view, links, headings and frames; a URL is opened first, else the tab of Target is read.",
			Kind:    KindRead,
			Params:  []string{"url", "target", "incognito", "waitFor", "include", "changes", "maxChars", "offset", "dialog"},
		},
		Spec{
			Name:    "inspect",
			After:   "extract",
			Result:  InspectResult{},
			Summary: "interactive elements, each with a ref.",
			Doc:     "lists the page's interactive elements, each with a ref to use as a locator.",
			Kind:    KindRead,
			Params:  []string{"maxChars", "offset", "dialog"},
		},
		Spec{
			Name:    "wait",
			After:   "scroll",
			Result:  WaitResult{},
			Summary: "wait for load, a locator or urlContains.",
			Doc:     "waits until one condition holds (Load, a locator, or URLContains); ErrTimeout names it when it does not within the deadline.",
			Kind:    KindRead,
			Locator: true,
			Params:  []string{"urlContains", "load", "dialog"},
			// The condition gets the whole timeoutMs; the answer comes in
			// the wrap-up after it.
			Wrapup: WaitWrapup,
		},
		Spec{
			Name:    "screenshot",
			After:   "find",
			Result:  ScreenshotResult{},
			Summary: "a JPEG file, and a downscaled image.",
			Doc:     "saves a JPEG of the page: the whole page by default, Mode \"viewport\", or Clip. A page that cannot be captured whole is ErrFullPageUnavailable, never a silent viewport image.",
			Kind:    KindRead,
			Params:  []string{"mode", "clip", "dialog"},
		},
	)
}

// ExtractResult is the rendered, visible page: the parts asked for (all
// that fit the budget when none were). When the page is larger than
// maxChars, NextOffset is where the next extract continues.
type ExtractResult struct {
	Page
	Markdown *string `json:"markdown,omitempty" content:"page"`
	Reader   *Reader `json:"reader,omitempty" content:"page"`
	// Links, Headings and Frames are nil when not read (left out), and
	// empty when read and there are none ([] on the wire).
	Links    []Link      `json:"links,omitzero" content:"page"`
	Headings []Heading   `json:"headings,omitzero" content:"page"`
	Text     *string     `json:"text,omitempty" content:"page"`
	Frames   []FrameInfo `json:"frames,omitzero"`
	// Changes answers a read with changes: true: what changed since the
	// session's last read of the tab, or "full" when this is a full read
	// (the first, or the first since the tab went to another page).
	// Unchanged says nothing did. In a list of changes, totalChars,
	// offset and nextOffset count the changes' characters (see
	// docs/reference.md, "Extract: what changed since the last read").
	Changes   *Changes `json:"changes,omitempty" content:"page"`
	Unchanged bool     `json:"unchanged,omitempty"`
	Outcome
	TotalChars int  `json:"totalChars"`
	Offset     int  `json:"offset,omitempty"`
	NextOffset *int `json:"nextOffset,omitempty"`
	// Omitted names the parts a read without include left out because
	// the page is larger than the budget (include asks for them).
	Omitted []string `json:"omitted,omitempty"`
}

// Change is one block of a page that differs from the last read: op
// added, removed or changed; text, or before and after; context, its
// nearest heading; part, links, headings or frames (none: the markdown).
type Change = changes.Change

// Changes is extract's changes: the list, or on the wire "full" for a
// full read.
type Changes struct {
	Full bool
	List []Change
}

// MarshalJSON writes "full" or the list.
func (c Changes) MarshalJSON() ([]byte, error) {
	if c.Full {
		return []byte(`"full"`), nil
	}
	if c.List == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(c.List)
}

// UnmarshalJSON reads "full" or a list.
func (c *Changes) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = Changes{Full: s == "full"}
		return nil
	}
	*c = Changes{}
	return json.Unmarshal(b, &c.List)
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

// FrameInfo says what became of one frame: included in place, or why not.
type FrameInfo struct {
	FrameID       int    `json:"frameId"`
	ParentFrameID *int   `json:"parentFrameId,omitempty"`
	URL           string `json:"url"`
	CrossOrigin   bool   `json:"crossOrigin"`
	Included      bool   `json:"included"`
	Reason        string `json:"reason,omitempty"`
}

// InspectResult lists a page's interactive elements, each with a ref to
// use as a locator; NextOffset as in ExtractResult.
type InspectResult struct {
	Page
	// Viewport is the top frame's viewport, for telling which rects are
	// in view (the first window only).
	Viewport   *Viewport `json:"viewport,omitempty"`
	Elements   []Control `json:"elements" content:"page"`
	Count      int       `json:"count"`
	TotalChars int       `json:"totalChars"`
	Offset     int       `json:"offset,omitempty"`
	NextOffset *int      `json:"nextOffset,omitempty"`
	Outcome
}

// Viewport is a frame's viewport in CSS pixels.
type Viewport struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Control is one interactive element inspect lists; its Ref is a locator.
// Inspect sends only what tells elements apart: Role when the tag does not
// say it, Selector when a short one finds the element, FrameID for frames
// other than the top one.
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
	// Rect is [x, y, width, height] in CSS pixels of the top frame's
	// viewport.
	Rect [4]float64 `json:"rect"`
	// Visible and Enabled are false for a hidden or a disabled element,
	// left out otherwise (most elements are both: each costs every
	// element 15 characters).
	Visible *bool `json:"visible,omitempty"`
	Enabled *bool `json:"enabled,omitempty"`
}

// WaitResult says what a wait found.
type WaitResult struct {
	Page
	// Waited is the condition, in words.
	Waited string `json:"waited"`
	// WaitedMs is how long the wait took (it is the shallower field, so
	// it is always sent, unlike Outcome's).
	WaitedMs int64    `json:"waitedMs"`
	Element  *Element `json:"element,omitempty"`
	Outcome
}

// ScreenshotResult is the JPEG file the daemon wrote (mode 0600, on the
// machine of the browser) and its size in pixels and bytes.
type ScreenshotResult struct {
	Page
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Bytes  int    `json:"bytes"`
	Mode   string `json:"mode"`
	// Scale is the image's px per CSS px of the page: the device scale
	// factor (an emulated one included), or below it when a long page was
	// scaled down to fit the bounds. A clip of another part is in CSS px.
	Scale float64 `json:"scale,omitempty"`
	Outcome
}

// WaitWrapup is the time a wait has after its condition's time (timeoutMs)
// runs out, to answer with its own timeout naming the condition rather
// than the generic deadline error. It is added to the call's deadline,
// not taken from the condition's time: a deadline the agent asks for is
// the time the condition gets.
const WaitWrapup = 300 * time.Millisecond
