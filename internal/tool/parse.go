package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Bounds of numeric parameters. Chrome's tab and frame IDs are 32-bit;
// coordinates beyond maxCoordinate (CSS pixels) are no place on any page,
// and CDP input given them stops working for the tab.
const (
	maxID = 1<<31 - 1
	// maxTabID: a tab ID of a browser other than the first carries its
	// slot (n*1e9 + Chrome's ID, package slots), so it may exceed Chrome's
	// int32; it stays within the integers JSON carries exactly.
	maxTabID      = 1<<53 - 1
	maxCoordinate = 10_000_000
	maxClipSide   = 30_000     // the tallest page tested; JPEG stops at 65,535
	maxClipArea   = 50_000_000 // pixels: more than a 1280×30,000 full page
)

// Budgets of extract and inspect (maxChars).
const (
	DefaultMaxChars = 20000
	MinMaxChars     = 500
	MaxMaxChars     = 1_000_000
)

// Parse decodes and checks a tool input: the JSON types, the parameters
// the action takes and needs, and the values the types do not check.
// Every failure is invalid_argument with a sentence naming the parameter.
// The front ends call it before they send, and the daemon again on what
// arrives over its socket.
func Parse(raw []byte) (*Input, *Spec, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil, invalid("the input must be a JSON object such as {\"action\":\"status\"}")
	}
	if err := exactNames(raw, reflect.TypeFor[Input](), ""); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in Input
	if err := dec.Decode(&in); err != nil {
		return nil, nil, invalid("%s", describeJSONError(err))
	}
	if dec.More() {
		return nil, nil, invalid("the input has data after its JSON object")
	}
	if in.Action == "" {
		return nil, nil, invalid("action is required: one of %s", strings.Join(Names(), ", "))
	}
	spec, ok := Lookup(in.Action)
	if !ok {
		if near := Closest(in.Action, Names()); len(near) > 0 {
			return nil, nil, invalid("unknown action %q; did you mean %q? The actions are: %s", Echo(in.Action), near[0], strings.Join(Names(), ", "))
		}
		return nil, nil, invalid("unknown action %q: use one of %s", Echo(in.Action), strings.Join(Names(), ", "))
	}
	given := givenParams(raw)
	if err := spec.checkParams(given); err != nil {
		return nil, nil, err
	}
	if err := in.checkValues(given); err != nil {
		return nil, nil, err
	}
	return &in, spec, nil
}

// givenParams returns the canonical names of the parameters present (not
// null) in a JSON object. encoding/json matches names without regard to
// case, so this does too.
func givenParams(raw []byte) map[string]bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	out := map[string]bool{}
	for k, v := range obj {
		if string(bytes.TrimSpace(v)) == "null" {
			continue
		}
		for _, f := range Fields() {
			if strings.EqualFold(f.Name, k) {
				out[f.Name] = true
				break
			}
		}
	}
	return out
}

// checkParams refuses parameters of other actions and missing needs.
func (s *Spec) checkParams(given map[string]bool) error {
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	slices.Sort(names) // the same input always gets the same sentence
	for _, n := range names {
		if !s.Takes(n) {
			return invalid("parameter %q does not apply to %s; it is for %s", n, s.Name, strings.Join(TakenBy(n), ", "))
		}
	}
	for _, group := range s.Needs {
		if !slices.ContainsFunc(group, func(n string) bool { return given[n] }) {
			if slices.Equal(group, LocatorParams) {
				return invalid("%s needs a locator: %s", s.Name, Alternatives(group))
			}
			return invalid("%s needs %s", s.Name, Alternatives(group))
		}
	}
	return nil
}

// Alternatives says "url", "option or options", or "selector, text, … or
// x+y".
func Alternatives(group []string) string {
	words := make([]string, len(group))
	for i, n := range group {
		switch n {
		case "x":
			words[i] = "x+y"
		case "role":
			words[i] = "role+name"
		default:
			words[i] = n
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

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
// strings, the shape of the locators, and the choices of enumerated
// parameters. The checks run in a fixed order, so when several values are
// wrong the error always names the same one. given names the parameters
// present in the input: a timeoutMs of 0 given is refused like -1 (it was
// silently the default, so handoff --timeoutMs 0 waited 10 minutes), and
// only its absence means the default.
func (in *Input) checkValues(given map[string]bool) error {
	maxTimeout := MaxTimeoutMs
	if s, ok := Lookup(in.Action); ok {
		maxTimeout = s.MaxTimeoutMs()
	}
	if in.TimeoutMs < 0 || in.TimeoutMs > maxTimeout || in.TimeoutMs == 0 && given["timeoutMs"] {
		return invalid("timeoutMs must be between 1 and %d (a call's deadline can only be shortened)", maxTimeout)
	}
	if in.TabID != nil && (*in.TabID < 0 || *in.TabID > maxTabID) {
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
		"label", in.Label, "placeholder", in.Placeholder, "ref", in.Ref, "query", in.Query, "url", in.URL, "message", in.Message, "browser", in.Browser}); err != nil {
		return err
	}
	if n := len([]rune(in.Message)); n > MaxMessage {
		return invalid("message has %d characters; at most %d: say in a sentence or two what the user should do", n, MaxMessage)
	}
	if err := in.Locator.Check(); err != nil {
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
		if err := w.Check(); err != nil {
			return err
		}
	}
	if f := in.From; f != nil {
		if err := checkLocatorObject("from", f); err != nil {
			return err
		}
	}
	if d := in.To.Drop(); d != nil {
		if err := checkLocatorObject("to", d); err != nil {
			return err
		}
	}
	switch in.Dialog {
	case "", "accept", "dismiss":
	default:
		return invalid("dialog must be \"accept\" or \"dismiss\"")
	}
	if err := in.checkExec(); err != nil { // exec.go
		return err
	}
	if in.CloseWorkspace && in.TabID != nil {
		return invalid("close takes tabId (one tab) or closeWorkspace (the workspace's windows), not both")
	}
	return nil
}

// MaxMessage bounds handoff's message: the user reads it in a small box.
const MaxMessage = 500

// MaxTimeoutMs is the largest timeoutMs the action takes: MaxTimeoutMs,
// or the action's own longer deadline (handoff's 10 minutes).
func (s *Spec) MaxTimeoutMs() int {
	if s.Deadline > DefaultDeadline {
		return int(s.Deadline / time.Millisecond)
	}
	return MaxTimeoutMs
}

// checkLocatorObject checks a locator given as an object parameter
// (drag's from and to): one locator, well formed.
func checkLocatorObject(name string, l *Locator) error {
	if err := checkFrameID(name+".frameId", l.FrameID); err != nil {
		return err
	}
	for i, v := range []*float64{l.X, l.Y} {
		if v != nil && (math.IsNaN(*v) || math.Abs(*v) > maxCoordinate) {
			return invalid("%s.%s must be a number of CSS pixels between -%d and %d", name, []string{"x", "y"}[i], maxCoordinate, maxCoordinate)
		}
	}
	if err := checkBlank(name+".", []string{"selector", l.Selector, "text", l.Text, "role", l.Role, "name", l.Name,
		"label", l.Label, "placeholder", l.Placeholder, "ref", l.Ref}); err != nil {
		return err
	}
	if !l.Present() {
		return invalid("%s needs one locator: selector, text, role (+ name), label, placeholder, ref, or x and y", name)
	}
	if err := l.Check(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Deadline is how long the call may take end to end.
func (in *Input) Deadline() time.Duration {
	if s, ok := Lookup(in.Action); ok {
		return s.DeadlineFor(in.TimeoutMs)
	}
	return (&Spec{}).DeadlineFor(in.TimeoutMs)
}

// Budget returns extract's and inspect's maxChars (its default when not
// given) and offset, or says what is wrong with them.
func (in *Input) Budget() (maxChars, offset int, err error) {
	maxChars = in.MaxChars
	if maxChars == 0 {
		maxChars = DefaultMaxChars
	}
	if maxChars < MinMaxChars || maxChars > MaxMaxChars {
		return 0, 0, invalid("maxChars must be between %d and %d (default %d)", MinMaxChars, MaxMaxChars, DefaultMaxChars)
	}
	if in.Offset < 0 {
		return 0, 0, invalid("offset must be a nextOffset from an earlier call, not negative")
	}
	if in.Offset > 0 && in.URL != "" {
		return 0, 0, invalid("offset continues an earlier extract of a tab: pass tabId and offset, not url")
	}
	return maxChars, in.Offset, nil
}

func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := jsonKind(te.Type.String())
		if want == "whole number" && strings.HasPrefix(te.Value, "number") {
			n := strings.TrimPrefix(te.Value, "number ")
			if strings.Trim(strings.TrimPrefix(n, "-"), "0123456789") == "" {
				// Whole, but more digits than an int holds.
				return fmt.Sprintf("parameter %q is out of range: %s is beyond any value it takes", te.Field, Echo(n))
			}
			return fmt.Sprintf("parameter %q must be a whole number, not %s", te.Field, Echo(n))
		}
		got := te.Value
		if strings.HasPrefix(got, "number") {
			got = "number"
		}
		return fmt.Sprintf("parameter %q must be a %s, not a JSON %s", te.Field, want, got)
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return fmt.Sprintf("unknown parameter %s; check the parameter names of the tool", Echo(strings.TrimPrefix(msg, "json: unknown field ")))
	}
	return "the input is not valid JSON: " + msg
}

// EchoMax bounds how much of a caller's value an error echoes: the caller
// has the whole of it, and a page of digits helps no one read the
// sentence.
const EchoMax = 40

// Echo is s as an error may quote it: cut to EchoMax characters, the last
// "…", when longer.
func Echo(s string) string {
	r := []rune(s)
	if len(r) <= EchoMax {
		return s
	}
	return string(r[:EchoMax-1]) + "…"
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

// invalid is an invalid_argument error.
func invalid(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeInvalidArgument, format, args...)
}
