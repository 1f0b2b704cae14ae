package tool

import (
	"encoding/json"
	"math"
	"reflect"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Results. Every action's result is a type beside its spec (one family
// per file, as the specs), built from the shared parts below: the tab a
// result concerns (Page), the element it acted on (Element) and what the
// action set off (Outcome). The engine fills them, the daemon qualifies
// their tab IDs by their tag, and the public Go client re-exports them,
// so what the engine sends and what a program reads are one declaration.
// Their json names are the contract (docs/design.md#actions).

// A result's tab IDs are in fields tagged tab:"id" (an int, or a list of
// them): the daemon finds them by that tag (see QualifyTabs), so that with
// several browsers connected, a result's tab IDs carry the slot of the
// browser they are in. A result type with a tab ID that lacks the tag
// would show Chrome's own ID, which names another tab of the first
// browser; TestEveryTabIDIsTagged keeps them tagged.

// Page is the tab a result concerns: every result that concerns a tab has
// tabId, url and title (docs/design.md#actions).
type Page struct {
	TabID int    `json:"tabId" tab:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// PageOf returns the page, for the engine's shared steps that read the
// tab of any page result (downloads an action started, say).
func (p *Page) PageOf() *Page { return p }

// Paged is a result that concerns one tab (it embeds Page).
type Paged interface{ PageOf() *Page }

// Outcome is what a page action set off besides its own work, shared by
// every page action's result: the engine's steps fill it (see
// internal/actions/steps.go), so a new action reports dialogs, opened
// tabs, downloads and waits without a line of its own.
type Outcome struct {
	// Navigated says the action led to another page (or a load).
	Navigated bool `json:"navigated,omitempty"`
	// Dialog is the last alert/confirm/prompt the action opened, and how
	// the bridge answered it.
	Dialog *Dialog `json:"dialog,omitempty"`
	// OpenedTabs are tabs the page opened during the action (a link to
	// _blank, a pop-up); the bridge takes them as its own.
	OpenedTabs []Tab `json:"openedTabs,omitempty"`
	// Downloads are the files a click or press downloaded (see the
	// downloads action).
	Downloads []Download `json:"downloads,omitempty"`
	// WaitedMs is how long the input waited for its target to be ready
	// (to appear, to stop being covered, …), and WaitedFor what it waited
	// for last; both absent when it did not wait.
	WaitedMs  int64  `json:"waitedMs,omitempty"`
	WaitedFor string `json:"waitedFor,omitempty"`
	// Warnings are things the caller should know: several matches, a page
	// still loading, a dialog answered while reading.
	Warnings []string `json:"warnings,omitempty"`
	// Events is what the action set off in its tab (see Events).
	Events *Events `json:"events,omitempty"`
	// PageChange says how much an acting action changed the page it
	// stayed on; absent after a navigation, or when it could not be told.
	PageChange *PageChange `json:"page,omitempty"`
}

// PageChange is how much an act changed the page's rendered text
// (docs/reference.md, "What an action changed on the page").
type PageChange struct {
	// ChangedBlocks counts the blocks (paragraphs, list items, cells, …)
	// added, removed or changed; 0 with StillChanging false: unchanged.
	ChangedBlocks int `json:"changedBlocks"`
	// DeltaChars is by how many characters the page's text grew.
	DeltaChars int `json:"deltaChars,omitempty"`
	// StillChanging, with ChangedBlocks 0, says the text was the same
	// but the page was still changing when the result was made: it may
	// change yet.
	StillChanging bool `json:"stillChanging,omitempty"`
}

// Out returns the outcome, for the engine to add what every action
// reports.
func (o *Outcome) Out() *Outcome { return o }

// Outcomer is a result that embeds Outcome.
type Outcomer interface{ Out() *Outcome }

// Tab is a tab an action's page opened, as the extension describes it:
// the wire's type itself (its tab IDs tagged for QualifyTabs), so the two
// cannot drift.
type Tab = protocol.TabInfo

// Element is the element an action located.
//
// On the wire it leaves out what carries no information for the next step:
// frameId 0 (the top frame), visible true and matches 1
// are the defaults an absent field stands for, and its rect is in whole
// CSS pixels. Decoding restores the defaults, so the Go value is the same.
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
	// ObscuredBy names what covers the element, when something does.
	ObscuredBy string `json:"obscuredBy,omitempty"`
}

// element is Element's wire form (see Element).
type element struct {
	FrameID    int    `json:"frameId,omitempty"`
	Ref        string `json:"ref,omitempty"`
	Tag        string `json:"tag,omitempty"`
	Role       string `json:"role,omitempty"`
	Name       string `json:"name,omitempty"`
	Text       string `json:"text,omitempty"`
	Visible    *bool  `json:"visible,omitempty"`
	Matches    *int   `json:"matches,omitempty"`
	Rect       *Rect  `json:"rect,omitempty"`
	ObscuredBy string `json:"obscuredBy,omitempty"`
}

// MarshalJSON writes e without its defaults, its rect rounded.
func (e Element) MarshalJSON() ([]byte, error) {
	w := element{FrameID: e.FrameID, Ref: e.Ref, Tag: e.Tag, Role: e.Role, Name: e.Name, Text: e.Text, ObscuredBy: e.ObscuredBy}
	if !e.Visible {
		w.Visible = &e.Visible
	}
	if e.Matches != 1 {
		w.Matches = &e.Matches
	}
	if e.Rect != nil {
		w.Rect = &Rect{X: math.Round(e.Rect.X), Y: math.Round(e.Rect.Y), Width: math.Round(e.Rect.Width), Height: math.Round(e.Rect.Height)}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads e, an absent visible as true and matches as 1.
func (e *Element) UnmarshalJSON(b []byte) error {
	var w element
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Element{FrameID: w.FrameID, Ref: w.Ref, Tag: w.Tag, Role: w.Role, Name: w.Name, Text: w.Text, Visible: true, Matches: 1, Rect: w.Rect, ObscuredBy: w.ObscuredBy}
	if w.Visible != nil {
		e.Visible = *w.Visible
	}
	if w.Matches != nil {
		e.Matches = *w.Matches
	}
	return nil
}

// Rect is a box in CSS pixels.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Dialog is a JavaScript dialog an action opened, and how the bridge
// answered it.
type Dialog struct {
	Type    string `json:"type"` // alert, confirm, prompt, beforeunload
	Message string `json:"message"`
	Answer  string `json:"answer"` // accepted or dismissed
}

// Download is a file a click or press of the bridge downloaded. Path is
// where it is: in the bridge's downloads folder (SavedBy "bridge", moved
// there once complete) or where the browser saved it (SavedBy "browser",
// Note says why it stayed).
type Download struct {
	ID    int    `json:"id"`
	Path  string `json:"path,omitempty"`
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	MIME  string `json:"mime,omitempty"`
	// State is done, failed or in_progress.
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	TabID int    `json:"tabId,omitempty" tab:"id"`
	URL   string `json:"url,omitempty"`
	// SavedBy says whose folder holds the file: "bridge" (moved into the
	// bridge's downloads folder) or "browser" (where Chrome saved it).
	SavedBy string `json:"savedBy,omitempty"`
	Note    string `json:"note,omitempty"`
}

// ActResult is what a page action returns: the tab afterwards, the
// element it acted on (none for a point), and what the action set off.
type ActResult struct {
	Page
	Element *Element `json:"element,omitempty"`
	Outcome
}

// QualifyTabs rewrites, in place, every tab ID of the value res points
// to (the fields tagged tab:"id", found through structs, pointers,
// slices and arrays) with show. The daemon uses it to give a result's tab
// IDs the slot of their browser; nothing is parsed back. Values behind
// interfaces and maps are not walked: a result keeps its tab IDs in
// typed fields.
func QualifyTabs(res any, show func(int) int) {
	qualifyValue(reflect.ValueOf(res), show)
}

func qualifyValue(v reflect.Value, show func(int) int) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			qualifyValue(v.Elem(), show)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			switch {
			case !f.IsExported():
			case f.Tag.Get("tab") == "id":
				qualifyIDs(v.Field(i), show)
			default:
				qualifyValue(v.Field(i), show)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			qualifyValue(v.Index(i), show)
		}
	}
}

// qualifyIDs rewrites a tab ID field: an int (0, none, stays) or a list.
func qualifyIDs(v reflect.Value, show func(int) int) {
	switch v.Kind() {
	case reflect.Int:
		if v.CanSet() && v.Int() > 0 {
			v.SetInt(int64(show(int(v.Int()))))
		}
	case reflect.Slice:
		for i := range v.Len() {
			qualifyIDs(v.Index(i), show)
		}
	}
}

// Stop is what the extension's site rules stopped a tab from loading: the
// URL (a page's choice, quoted wherever it is shown), the Rule that
// refused it ("" for the allow list) and its Kind: deny, builtin or allow.
type Stop = protocol.Stop
