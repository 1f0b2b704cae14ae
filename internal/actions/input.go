// Package actions says what each action of the use_user_browser tool means,
// composed from the extension's primitives: which tab or window it targets,
// what it waits for, and what it returns. The daemon runs it; the MCP server
// and the CLI only pass inputs in and results out.
package actions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Deadlines of SPEC §1.
const (
	DefaultDeadline = 60 * time.Second
	StatusDeadline  = 5 * time.Second
	MaxTimeoutMs    = 60000
)

// Input is the tool input: one object with an action and its parameters.
// Parameter names are the contract (SPEC §2). It is flat on purpose: the
// CLI's flags and the MCP schema are derived from these fields.
type Input struct {
	Action             string `json:"action"`
	TabID              *int   `json:"tabId,omitempty"`
	BrowserWorkspaceID string `json:"browserWorkspaceId,omitempty"`
	RunID              string `json:"runId,omitempty"`
	TimeoutMs          int    `json:"timeoutMs,omitempty"`

	// open, extract, search
	URL       string `json:"url,omitempty"`
	Target    string `json:"target,omitempty"` // "new" (default) or "current"
	Incognito *bool  `json:"incognito,omitempty"`
	Query     string `json:"query,omitempty"`

	// Locator: exactly one of selector, text, role(+name), label,
	// placeholder, ref, or x+y; frameId and nth narrow it.
	Selector    string   `json:"selector,omitempty"`
	Text        string   `json:"text,omitempty"`
	Role        string   `json:"role,omitempty"`
	Name        string   `json:"name,omitempty"`
	Label       string   `json:"label,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Ref         string   `json:"ref,omitempty"`
	X           *float64 `json:"x,omitempty"`
	Y           *float64 `json:"y,omitempty"`
	Coordinates string   `json:"coordinates,omitempty"` // "viewport" (default) or "document"
	FrameID     *int     `json:"frameId,omitempty"`
	Nth         *int     `json:"nth,omitempty"`
	Exact       bool     `json:"exact,omitempty"`

	// extract, wait
	WaitFor     *WaitFor `json:"waitFor,omitempty"`
	URLContains string   `json:"urlContains,omitempty"`
	Load        bool     `json:"load,omitempty"`
	Include     []string `json:"include,omitempty"`
	MaxChars    int      `json:"maxChars,omitempty"`
	Offset      int      `json:"offset,omitempty"`

	// click, type, press, select, check, upload, scroll
	InputMode string `json:"inputMode,omitempty"` // "cdp" (default) or "dom"
	// Dialog answers a dialog the page shows during the action (any page
	// action): "accept" or "dismiss".
	Dialog     string   `json:"dialog,omitempty"`
	Button     string   `json:"button,omitempty"`
	ClickCount int      `json:"clickCount,omitempty"`
	Value      string   `json:"value,omitempty"`
	Clear      bool     `json:"clear,omitempty"`
	Keys       string   `json:"keys,omitempty"`
	Option     string   `json:"option,omitempty"`
	Options    []string `json:"options,omitempty"`
	Checked    *bool    `json:"checked,omitempty"`
	Paths      []string `json:"paths,omitempty"`
	To         string   `json:"to,omitempty"`
	DeltaX     *float64 `json:"deltaX,omitempty"`
	DeltaY     *float64 `json:"deltaY,omitempty"`

	// screenshot
	Mode string `json:"mode,omitempty"` // "full" (default) or "viewport"
	Clip *Clip  `json:"clip,omitempty"`

	// close
	CloseWorkspace bool `json:"closeWorkspace,omitempty"`
}

// WaitFor is extract's wait condition: one locator, or urlContains.
type WaitFor struct {
	Selector    string `json:"selector,omitempty"`
	Text        string `json:"text,omitempty"`
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Ref         string `json:"ref,omitempty"`
	FrameID     *int   `json:"frameId,omitempty"`
	Nth         *int   `json:"nth,omitempty"`
	Exact       bool   `json:"exact,omitempty"`
	URLContains string `json:"urlContains,omitempty"`
}

// Clip is a screenshot rectangle in CSS pixels of the document.
type Clip struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// handler runs one action.
type handler func(r *run) (any, error)

// handlers is the route table of actions; each action's file registers
// itself in init, so adding an action touches no shared file.
var handlers = map[string]handler{}

// register adds an action to the route table.
func register(name string, h handler) {
	if _, dup := handlers[name]; dup {
		panic("action registered twice: " + name)
	}
	handlers[name] = h
}

// Names returns the supported actions, sorted.
func Names() []string {
	out := make([]string, 0, len(handlers))
	for k := range handlers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Parse decodes and checks a tool input. Every failure is invalid_argument
// with a sentence naming the parameter.
func Parse(raw []byte) (*Input, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, invalid("the input must be a JSON object such as {\"action\":\"status\"}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in Input
	if err := dec.Decode(&in); err != nil {
		return nil, invalid("%s", describeJSONError(err))
	}
	if dec.More() {
		return nil, invalid("the input has data after its JSON object")
	}
	if in.Action == "" {
		return nil, invalid("action is required: one of %s", strings.Join(Names(), ", "))
	}
	if _, ok := handlers[in.Action]; !ok {
		return nil, invalid("unknown action %q: use one of %s", in.Action, strings.Join(Names(), ", "))
	}
	if err := checkParams(in.Action, givenParams(raw)); err != nil {
		return nil, err
	}
	if err := in.checkValues(); err != nil {
		return nil, err
	}
	return &in, nil
}

// Bounds of numeric parameters. Chrome's tab and frame IDs are 32-bit;
// coordinates beyond maxCoordinate (CSS pixels) are no place on any page,
// and CDP input given them stops working for the tab.
const (
	maxID         = 1<<31 - 1
	maxCoordinate = 10_000_000
	maxClipSide   = 30_000     // the tallest page tested; JPEG stops at 65,535
	maxClipArea   = 50_000_000 // pixels: more than a 1280×30,000 full page
)

// checkFrameID checks a frame ID parameter.
func checkFrameID(name string, id *int) error {
	if id != nil && (*id < 0 || *id > maxID) {
		return invalid("%s must be a frame ID from extract's frames or inspect (0 is the top frame)", name)
	}
	return nil
}

// checkBlank refuses text parameters given as only spaces: named pairs of
// name and value, checked in order (so the error names the first).
func checkBlank(prefix string, pairs []string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1]; v != "" && strings.TrimSpace(v) == "" {
			return invalid("%s%s is blank; give some text or leave it out", prefix, pairs[i])
		}
	}
	return nil
}

// checkValues checks the values the JSON types do not: ranges, blank
// strings, and the choices of enumerated parameters.
func (in *Input) checkValues() error {
	if in.TimeoutMs < 0 || in.TimeoutMs > MaxTimeoutMs {
		return invalid("timeoutMs must be between 1 and %d (a call's deadline can only be shortened)", MaxTimeoutMs)
	}
	if in.TabID != nil && (*in.TabID < 0 || *in.TabID > maxID) {
		return invalid("tabId must be a tab ID from status or open")
	}
	if err := checkFrameID("frameId", in.FrameID); err != nil {
		return err
	}
	for i, v := range []*float64{in.X, in.Y, in.DeltaX, in.DeltaY} {
		if v != nil && (math.IsNaN(*v) || math.Abs(*v) > maxCoordinate) {
			return invalid("%s must be a number of CSS pixels between -%d and %d", []string{"x", "y", "deltaX", "deltaY"}[i], maxCoordinate, maxCoordinate)
		}
	}
	if c := in.Clip; c != nil {
		if c.X < 0 || c.Y < 0 || c.X > maxCoordinate || c.Y > maxCoordinate {
			return invalid("clip x and y must be between 0 and %d", maxCoordinate)
		}
		if c.Width < 1 || c.Height < 1 || c.Width > maxClipSide || c.Height > maxClipSide {
			return invalid("clip width and height must be between 1 and %d CSS pixels", maxClipSide)
		}
		if c.Width*c.Height > maxClipArea {
			return invalid("clip covers %.0f pixels; at most %d (take several smaller clips)", c.Width*c.Height, maxClipArea)
		}
	}
	if err := checkBlank("", []string{"selector", in.Selector, "text", in.Text, "role", in.Role, "name", in.Name,
		"label", in.Label, "placeholder", in.Placeholder, "ref", in.Ref, "query", in.Query, "url", in.URL}); err != nil {
		return err
	}
	if w := in.WaitFor; w != nil {
		if err := checkFrameID("waitFor.frameId", w.FrameID); err != nil {
			return err
		}
		if err := checkBlank("waitFor.", []string{"selector", w.Selector, "text", w.Text, "role", w.Role, "name", w.Name,
			"label", w.Label, "placeholder", w.Placeholder, "ref", w.Ref, "urlContains", w.URLContains}); err != nil {
			return err
		}
	}
	switch in.Dialog {
	case "", "accept", "dismiss":
	default:
		return invalid("dialog must be \"accept\" or \"dismiss\"")
	}
	if in.CloseWorkspace && in.TabID != nil {
		return invalid("close takes tabId (one tab) or closeWorkspace (the workspace's windows), not both")
	}
	return nil
}

// Deadline is how long the action may take end to end.
func (in *Input) Deadline() time.Duration {
	d := DefaultDeadline
	if in.Action == "status" {
		d = StatusDeadline
	}
	if in.TimeoutMs > 0 {
		d = min(d, time.Duration(min(in.TimeoutMs, MaxTimeoutMs))*time.Millisecond)
	}
	return d
}

func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := jsonKind(te.Type.String())
		if want == "whole number" && strings.HasPrefix(te.Value, "number") {
			return fmt.Sprintf("parameter %q must be a whole number, not %s", te.Field, strings.TrimPrefix(te.Value, "number "))
		}
		got := te.Value
		if strings.HasPrefix(got, "number") {
			got = "number"
		}
		return fmt.Sprintf("parameter %q must be a %s, not a JSON %s", te.Field, want, got)
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return fmt.Sprintf("unknown parameter %s; check the parameter names of the tool", strings.TrimPrefix(msg, "json: unknown field "))
	}
	return "the input is not valid JSON: " + msg
}

func jsonKind(goType string) string {
	switch strings.TrimPrefix(goType, "*") {
	case "int", "int64":
		return "whole number"
	case "float64":
		return "number"
	case "bool":
		return "boolean"
	case "string":
		return "string"
	case "[]string":
		return "list of strings"
	}
	// Objects: clip, waitFor.
	return "JSON object"
}

func invalid(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeInvalidArgument, format, args...)
}

// CheckURL accepts http:, https:, file: and about:blank (SPEC §2).
func CheckURL(s string) error {
	if s == "" {
		return invalid("url is required")
	}
	if s == "about:blank" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return invalid("url %q does not parse: %v", s, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return invalid("url %q has no host", s)
		}
		return nil
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return invalid("url %q names another host; file URLs must be local (file:///path)", s)
		}
		if why := pathcheck.Refused(u.Path); why != "" {
			return invalid("url %q is refused: %s (the same rules as for uploads)", s, why)
		}
		return nil
	}
	return invalid("url %q is not allowed: use an http, https or file URL, or about:blank", s)
}
