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
	InputMode  string   `json:"inputMode,omitempty"` // "cdp" (default) or "dom"
	Dialog     string   `json:"dialog,omitempty"`    // answer to a dialog the input opens: "accept" or "dismiss"
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
	if in.TimeoutMs < 0 {
		return nil, invalid("timeoutMs must be positive (at most %d)", MaxTimeoutMs)
	}
	if in.TabID != nil && *in.TabID < 0 {
		return nil, invalid("tabId must be a tab ID from status or open")
	}
	return &in, nil
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
		return fmt.Sprintf("parameter %q must be a %s, not a JSON %s", te.Field, want, te.Value)
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
	}
	return goType
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
		if c := pathcheck.Denied(u.Path); c != "" {
			return invalid("url %q is refused: its path has a component %q that names secrets (the same rule as for uploads)", s, c)
		}
		return nil
	}
	return invalid("url %q is not allowed: use an http, https or file URL, or about:blank", s)
}
