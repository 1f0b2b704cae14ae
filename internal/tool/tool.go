// Package tool is the contract of the use_user_browser tool (docs/design.md#actions): one
// Spec per action — its name, the summary a model reads, the parameters it
// takes, its kind, its deadline and its traits — one Input type whose json
// and jsonschema tags are the schema, one Parse, and one reflection walker
// (Fields) that the MCP schema, the CLI flags and the parameter checks all
// read. It does no I/O: the front ends parse with it, the daemon checks
// what arrives with the same code, and the engine (internal/actions)
// carries the actions out.
//
// Families of actions are declared one per file: tabs.go, reading.go,
// input.go, files.go.
package tool

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"time"
)

// Deadlines: docs/design.md#wire-protocol.
const (
	DefaultDeadline = 60 * time.Second
	StatusDeadline  = 5 * time.Second
	MaxTimeoutMs    = 60000
)

// Kind says what an action does to the browser; the daemon's guards and
// the engine's shared steps key on it.
type Kind int

// The kinds of action.
const (
	KindStatus   Kind = iota // reports; runs even when the bridge is off
	KindRead                 // reads a page, changes nothing
	KindNavigate             // opens, loads or closes tabs
	KindInput                // acts on a page as the user would
)

// Spec declares one action.
type Spec struct {
	// Name is the action's name: the action parameter, the CLI
	// subcommand, and (as browser_<name>) the split MCP tool.
	Name string
	// Summary is the one line the tool description gives the action.
	Summary string
	// Doc says what the action does for a program: the comment of its
	// method in the public Go client (package bridge), which follows the
	// method's name and may name the client's fields and errors. Models
	// never read it.
	Doc string
	// After is the action the tool description lists just before this one
	// (the order a model meets them in: look, read, act); only the first,
	// status, has none. A new action names the one it belongs after.
	After string
	Kind  Kind
	// Result is a zero value of the action's result type (a type beside
	// the spec): the engine returns one, the daemon qualifies its tab IDs
	// by their type, and the public Go client re-exports it.
	Result any
	// Locator: the action takes a locator (selector, text, … x+y, with
	// frameId, nth, exact).
	Locator bool
	// Params are the action's own parameters besides the common ones
	// (CommonParams) and the locator.
	Params []string
	// Needs are groups of parameters: a call must give at least one
	// parameter of each group (LocatorParams stands for "a locator").
	Needs [][]string
	// Deadline is the action's end-to-end deadline (zero: DefaultDeadline).
	// A call's timeoutMs may shorten it.
	Deadline time.Duration
	// Wrapup is time the call has after its deadline (and timeoutMs) to
	// answer: handoff gives the user all of timeoutMs, then takes its
	// overlay down and says "timeout".
	Wrapup time.Duration
	// ChangesPage: the action changes what a tab shows, so such actions
	// take turns on a tab. Reading does not wait for them: a wait for an
	// element must not be held up by the click that makes it appear.
	ChangesPage bool
	// OpensTabs: the page may open tabs because of the action (a link to
	// _blank, a pop-up); its result lists them.
	OpensTabs bool
	// StartsDownloads: the page may start downloads because of the action
	// (a link to a file); its result lists them.
	StartsDownloads bool
	// RunsWhenOff: the action answers while the bridge is turned off (and
	// says so); every other action fails with the reason.
	RunsWhenOff bool
}

// CommonParams apply to every action (docs/design.md#actions).
var CommonParams = []string{"action", "tabId", "browser", "browserWorkspaceId", "runId", "timeoutMs"}

// LocatorParams are the ways to name one element; a call gives one.
var LocatorParams = []string{"selector", "text", "role", "label", "placeholder", "ref", "x"}

// locatorFields are every parameter of a locator, LocatorParams and their
// companions.
var locatorFields = []string{"selector", "text", "role", "name", "label", "placeholder", "ref", "x", "y", "coordinates", "frameId", "nth", "exact"}

// specs is the table of actions; each family file adds its own in init.
var specs = map[string]*Spec{}

// declare adds actions to the table; a duplicate or a parameter that
// Input does not have is a programming error caught at start-up.
func declare(list ...Spec) {
	for _, s := range list {
		if _, dup := specs[s.Name]; dup {
			panic("tool: action declared twice: " + s.Name)
		}
		for _, p := range s.Params {
			if _, ok := fieldIndex()[p]; !ok {
				panic(fmt.Sprintf("tool: action %s takes parameter %q, which Input does not have", s.Name, p))
			}
		}
		specs[s.Name] = &s
	}
}

// Lookup returns the spec of an action.
func Lookup(name string) (*Spec, bool) {
	s, ok := specs[name]
	return s, ok
}

// Specs returns every spec, sorted by name.
func Specs() []*Spec {
	out := make([]*Spec, 0, len(specs))
	for _, s := range specs {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the actions, sorted.
func Names() []string {
	out := make([]string, 0, len(specs))
	for n := range specs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Listed returns the actions in the order the tool description lists
// them: each after the action its spec names in After, those after the
// same one by name.
func Listed() []string {
	next := map[string][]string{}
	for _, s := range Specs() {
		next[s.After] = append(next[s.After], s.Name)
	}
	var out []string
	var walk func(after string)
	walk = func(after string) {
		for _, n := range next[after] {
			out = append(out, n)
			walk(n)
		}
	}
	walk("")
	return out
}

// PageParts lists the fields of the action's result that hold the page's
// own words (tagged content:"page"), in the order they are declared.
func (s *Spec) PageParts() []string {
	if s.Result == nil {
		return nil
	}
	var out []string
	for _, f := range FieldsOf(reflect.TypeOf(s.Result)) {
		if f.Page {
			out = append(out, f.Name)
		}
	}
	return out
}

// Takes reports whether the action takes param.
func (s *Spec) Takes(param string) bool {
	return slices.Contains(CommonParams, param) ||
		(s.Locator && slices.Contains(locatorFields, param)) ||
		slices.Contains(s.Params, param)
}

// TakenBy lists the actions that take param, sorted.
func TakenBy(param string) []string {
	var out []string
	for _, s := range Specs() {
		if s.Takes(param) {
			out = append(out, s.Name)
		}
	}
	return out
}

// DeadlineFor is how long a call may take end to end: the action's
// deadline, shortened by timeoutMs, plus its wrap-up time.
func (s *Spec) DeadlineFor(timeoutMs int) time.Duration {
	return s.TimeFor(timeoutMs) + s.Wrapup
}

// TimeFor is the time the action itself has: its deadline, shortened by
// timeoutMs (for handoff, the user's time).
func (s *Spec) TimeFor(timeoutMs int) time.Duration {
	d := s.Deadline
	if d == 0 {
		d = DefaultDeadline
	}
	if timeoutMs > 0 {
		d = min(d, time.Duration(min(timeoutMs, s.MaxTimeoutMs()))*time.Millisecond)
	}
	return d
}
