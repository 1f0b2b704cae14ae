package tool

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Input is the tool input: one object with an action and its parameters
// (docs/design.md#actions; the names are the contract). It is flat on purpose — one MCP
// tool takes every parameter — and its tags are the schema: json names
// the parameter, jsonschema is the description a model reads, enum lists
// the accepted values of a string (or of a list's items). The order of the
// fields is the order a model meets them (common parameters first).
// Which actions take which parameters is each Spec's Params.
type Input struct {
	Action             string `json:"action" jsonschema:"What to do; see the tool description."`
	TabID              *int   `json:"tabId,omitempty" jsonschema:"Tab (from status, open or search); default: the active tab."`
	Browser            string `json:"browser,omitempty" jsonschema:"Browser label or slot from status (default: the one focused last)."`
	BrowserWorkspaceID string `json:"browserWorkspaceId,omitempty" jsonschema:"Named workspace (own window, tab group); default: run:<runId>, else this session."`
	RunID              string `json:"runId,omitempty" jsonschema:"Your task's ID: its tabs share a workspace (or _meta.runId)."`
	TimeoutMs          int    `json:"timeoutMs,omitempty" jsonschema:"Deadline in ms (default, max 60000; status 5000; handoff 600000)."`

	URL       string `json:"url,omitempty" jsonschema:"http(s) or file URL, or about:blank."`
	Target    string `json:"target,omitempty" jsonschema:"\"current\": the active tab, not a new one." enum:"new,current"`
	Incognito *bool  `json:"incognito,omitempty" jsonschema:"true: an incognito window; false: a normal one (logged in)."`
	Query     string `json:"query,omitempty" jsonschema:"What to search for."`

	Locator

	WaitFor     *WaitFor `json:"waitFor,omitempty" jsonschema:"Wait first for one of selector, text, role+name, label, placeholder, ref (with frameId, nth, exact) or urlContains."`
	URLContains string   `json:"urlContains,omitempty" jsonschema:"wait: until the URL contains this. network: only requests whose URL contains this."`
	Load        bool     `json:"load,omitempty" jsonschema:"Until the page has loaded."`
	Include     []string `json:"include,omitempty" jsonschema:"Only these parts." enum:"markdown,reader,links,headings,text,frames,warnings"`
	Changes     bool     `json:"changes,omitempty" jsonschema:"Only changes since your last read."`
	MaxChars    int      `json:"maxChars,omitempty" jsonschema:"Result size budget (default 20000)."`
	Offset      int      `json:"offset,omitempty" jsonschema:"Continue at a result's nextOffset."`

	InputMode  string   `json:"inputMode,omitempty" jsonschema:"cdp: real input (default); dom: DOM events; paste: verbatim (default in code editors)." enum:"cdp,dom,paste"`
	Dialog     string   `json:"dialog,omitempty" jsonschema:"Answer to dialogs (default: accept alerts, dismiss others)." enum:"accept,dismiss"`
	Button     string   `json:"button,omitempty" jsonschema:"Mouse button (default left)." enum:"left,right,middle"`
	ClickCount int      `json:"clickCount,omitempty" jsonschema:"2 for a double click."`
	Value      string   `json:"value,omitempty" jsonschema:"Text to type; a date, time, color or range input's value (2026-05-17, 14:30, #ff8800, 40)."`
	Clear      bool     `json:"clear,omitempty" jsonschema:"Replace the field's content."`
	Keys       string   `json:"keys,omitempty" jsonschema:"Keys such as Enter, Tab, Control+A."`
	Option     string   `json:"option,omitempty" jsonschema:"Option value or label."`
	Options    []string `json:"options,omitempty" jsonschema:"Several options (multiple select)."`
	Checked    *bool    `json:"checked,omitempty" jsonschema:"Wanted state (default true)."`
	Paths      []string `json:"paths,omitempty" jsonschema:"Absolute local file paths (at most 20)."`
	From       *Locator `json:"from,omitempty" jsonschema:"drag: what to drag, a locator: selector, text, role+name, label, placeholder, ref, or x, y (coordinates); frameId, nth, exact."`
	To         To       `json:"to,omitzero" jsonschema:"scroll: \"top\" or \"bottom\". drag: where to drop, like from."`
	DeltaX     *float64 `json:"deltaX,omitempty" jsonschema:"Scroll by px."`
	DeltaY     *float64 `json:"deltaY,omitempty" jsonschema:"Scroll by px."`

	Mode string `json:"mode,omitempty" jsonschema:"full page (default) or viewport." enum:"full,viewport"`
	Clip *Clip  `json:"clip,omitempty" jsonschema:"{x, y, width, height}, CSS px."`

	CloseWorkspace bool `json:"closeWorkspace,omitempty" jsonschema:"Close the workspace: its tabs and window."`
	KeepReplays    bool `json:"keepReplays,omitempty" jsonschema:"Keep the replay."`

	Navigation  // navigation.go
	Emulation   // emulate.go
	Performance // performance.go

	Message string `json:"message,omitempty" jsonschema:"handoff: what the user should do."`

	ExecParams
	Level      string `json:"level,omitempty" jsonschema:"Least severe kept." enum:"error,warning,info,log,debug"`
	Since      int    `json:"since,omitempty" jsonschema:"After this nextSince."`
	RequestID  string `json:"requestId,omitempty" jsonschema:"One request in full."`
	All        bool   `json:"all,omitempty" jsonschema:"Every load too."`
	AllHeaders bool   `json:"allHeaders,omitempty" jsonschema:"Usual headers too."`
}

// Locator is the element a page action targets (docs/design.md#actions): exactly one of
// Selector, Text, Role (+ Name), Label, Placeholder, Ref, or X+Y; FrameID
// and Nth narrow it. Input and WaitFor embed it, so its fields are
// top-level parameters of both.
type Locator struct {
	Selector    string   `json:"selector,omitempty" jsonschema:"A CSS selector for the element."`
	Text        string   `json:"text,omitempty" jsonschema:"Element's visible text (case-insensitive substring)."`
	Role        string   `json:"role,omitempty" jsonschema:"ARIA role, with name."`
	Name        string   `json:"name,omitempty" jsonschema:"Accessible name, with role."`
	Label       string   `json:"label,omitempty" jsonschema:"A form control's label text."`
	Placeholder string   `json:"placeholder,omitempty" jsonschema:"A field's placeholder text."`
	Ref         string   `json:"ref,omitempty" jsonschema:"Ref from inspect."`
	X           *float64 `json:"x,omitempty" jsonschema:"Point x, with y."`
	Y           *float64 `json:"y,omitempty" jsonschema:"Point y, with x."`
	Coordinates string   `json:"coordinates,omitempty" jsonschema:"Space of x, y (default viewport)." enum:"viewport,document"`
	FrameID     *int     `json:"frameId,omitempty" jsonschema:"Frame to look in (from extract or inspect)."`
	Nth         *int     `json:"nth,omitempty" jsonschema:"0-based pick when several elements match."`
	Exact       bool     `json:"exact,omitempty" jsonschema:"Match text, name, label or placeholder exactly."`
}

// WaitFor is extract's wait condition: one element locator, or
// urlContains. A point is no condition: the schema leaves x, y and
// coordinates out (the omit tag) and Check refuses them.
type WaitFor struct {
	Locator     `omit:"x,y,coordinates"`
	URLContains string `json:"urlContains,omitempty"`
}

// To is the to parameter, which two actions read differently (docs/design.md#actions):
// scroll's edge, "top" or "bottom" (a JSON string), or drag's drop target,
// a locator or a point (a JSON object). The schema gives it no type of
// its own; Parse takes either and each action checks it has its kind.
type To struct {
	edge string   // scroll: "top" or "bottom"
	drop *Locator // drag: the locator object
}

// ToEdge is scroll's to: "top" or "bottom".
func ToEdge(edge string) To { return To{edge: edge} }

// ToDrop is drag's to: where to drop, a locator.
func ToDrop(l Locator) To { return To{drop: &l} }

// Edge is the edge given (scroll), "" when to is absent or an object.
func (t To) Edge() string { return t.edge }

// Drop is the drop target given (drag), nil when to is absent or a string.
func (t To) Drop() *Locator { return t.drop }

// IsZero reports an absent to (the omitzero of Input).
func (t To) IsZero() bool { return t.edge == "" && t.drop == nil }

// UnmarshalJSON takes a string (an edge) or an object (a drop target,
// with the locator's fields only).
func (t *To) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		*t = To{}
		return json.Unmarshal(b, &t.edge)
	case len(b) > 0 && b[0] == '{':
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var l Locator
		if err := dec.Decode(&l); err != nil {
			return err
		}
		*t = To{drop: &l}
		return nil
	case string(b) == "null":
		*t = To{}
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonValueKind(b), Type: reflect.TypeFor[To]()}
}

// MarshalJSON writes what was given: the edge or the drop target.
func (t To) MarshalJSON() ([]byte, error) {
	if t.drop != nil {
		return json.Marshal(t.drop)
	}
	if t.edge != "" {
		return json.Marshal(t.edge)
	}
	return []byte("null"), nil
}

// jsonValueKind names the kind of a JSON value, for a type error.
func jsonValueKind(b []byte) string {
	switch {
	case len(b) == 0:
		return "nothing"
	case b[0] == '[':
		return "array"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	}
	return "number"
}

// Clip is a screenshot rectangle in CSS pixels of the document.
type Clip struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}
