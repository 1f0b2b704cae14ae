package tool

import "time"

// HandoffDeadline is the longest a hand-off waits for the user (docs/design.md#actions):
// time to sign in, solve a CAPTCHA or find a second factor.
const HandoffDeadline = 10 * time.Minute

// HandoffWrapup is the time a hand-off has after the user's time runs out
// to take its overlay down and answer "timeout": it is added to the
// call's deadline, not taken from the user.
const HandoffWrapup = 2 * time.Second

// The input family: acting on a page as a person would.
func init() {
	declare(
		Spec{
			Name:        "click",
			After:       "inspect",
			Result:      ActResult{},
			Summary:     "click an element.",
			Doc:         "clicks an element with trusted mouse input.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"inputMode", "button", "clickCount", "dialog"},
			Needs:       [][]string{LocatorParams},
			ChangesPage: true,
			OpensTabs:   true,
			// A link to a file downloads it.
			StartsDownloads: true,
		},
		Spec{
			Name:        "type",
			After:       "hover",
			Result:      TypeResult{},
			Summary:     "type value into a field or code editor.",
			Doc:         "focuses a field and types Value into it (Clear replaces its content; with an empty Value, empties it).",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"inputMode", "value", "clear", "dialog"},
			Needs:       [][]string{LocatorParams, {"value", "clear"}},
			ChangesPage: true,
		},
		Spec{
			Name:        "press",
			After:       "fill",
			Result:      ActResult{},
			Summary:     "keys, on a locator if given.",
			Doc:         "presses keys; a locator, if any, is focused first.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"inputMode", "keys", "dialog"},
			Needs:       [][]string{{"keys"}},
			ChangesPage: true,
			OpensTabs:   true,
			// Enter on a focused link to a file downloads it.
			StartsDownloads: true,
		},
		Spec{
			Name:        "select",
			After:       "press",
			Result:      SelectResult{},
			Summary:     "choose option(s) of a <select>.",
			Doc:         "chooses options of a <select>: Option (a value or label) or Options (several, for a multiple select).",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"option", "options", "dialog"},
			Needs:       [][]string{LocatorParams, {"option", "options"}},
			ChangesPage: true,
		},
		Spec{
			Name:        "check",
			After:       "select",
			Result:      CheckResult{},
			Summary:     "set a checkbox or radio to checked.",
			Doc:         "sets a checkbox, radio or switch (Checked nil means true); it does nothing when it already is in that state.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"checked", "dialog"},
			Needs:       [][]string{LocatorParams},
			ChangesPage: true,
		},
		Spec{
			Name:        "hover",
			After:       "click",
			Result:      HoverResult{},
			Summary:     "hover an element: what is under the pointer.",
			Doc:         "moves the mouse over an element (CSS :hover and mouseover react).",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"dialog"},
			Needs:       [][]string{LocatorParams},
			ChangesPage: true,
		},
		Spec{
			Name:        "drag",
			After:       "check",
			Result:      DragResult{},
			Summary:     "drag from, drop on to.",
			Doc:         "presses the mouse on From, moves it onto To and releases it, with trusted events (HTML5 drag and drop and pointer-based lists both work).",
			Kind:        KindInput,
			Params:      []string{"from", "to", "dialog"},
			Needs:       [][]string{{"from"}, {"to"}},
			ChangesPage: true,
		},
		Spec{
			Name:        "scroll",
			After:       "downloads",
			Result:      ScrollResult{},
			Summary:     "to top/bottom, a locator, or by deltaX/deltaY.",
			Doc:         "scrolls the page, or the container that holds an element: To (\"top\" or \"bottom\"), a locator to bring into view, or DeltaX/DeltaY.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"to", "deltaX", "deltaY", "dialog"},
			ChangesPage: true,
		},
		// handoff does not take the tab's turn (ChangesPage): it holds the
		// tab for minutes, and the actions that come meanwhile must fail
		// with handoff_in_progress at once rather than wait behind it.
		Spec{
			Name:     "handoff",
			After:    "evaluate",
			Result:   HandoffResult{},
			Summary:  "let the user act in the tab (sign-in, CAPTCHA) with message; waits for Done/Cancel.",
			Doc:      "hands a tab to the user for what the program must not do (a sign-in, a CAPTCHA, a second factor) and waits for their Done or Cancel; Message is what the user reads, such as \"Please sign in, then press Done\", and Target.TimeoutMs may be up to 600000 (10 minutes, the default) for this action alone. The tab's window comes forward and the message shows over the page, where the page cannot read or press it; meanwhile every other action on the tab is ErrHandoffInProgress. Nothing the user types comes back.",
			Kind:     KindInput,
			Params:   []string{"message"},
			Needs:    [][]string{{"message"}},
			Deadline: HandoffDeadline,
			Wrapup:   HandoffWrapup,
		},
	)
}

// Click and press return an ActResult (result.go).

// TypeResult is a page action's result plus the field's value afterwards
// and how the text went in.
type TypeResult struct {
	ActResult
	// Value is the field's value read back: for a code editor, its
	// rendered lines. ValueHidden says it is a password's or a card's,
	// never read; ValueUnreadable why it could not be read (an editor
	// showing part of its text) — never a false empty value.
	Value           *string `json:"value,omitempty"`
	ValueHidden     bool    `json:"valueHidden,omitempty"`
	ValueUnreadable string  `json:"valueUnreadable,omitempty"`
	// Inserted says how the text went in: "typed" (CDP Input.insertText,
	// as a keyboard's text), "pasted" (a paste event, verbatim), "set"
	// (the value of a date, time, color, range … input, as its picker
	// sets it) or "dom" (inputMode dom).
	Inserted string `json:"inserted,omitempty"`
	// Editor names the code editor typed into (monaco, codemirror, …).
	Editor string `json:"editor,omitempty"`
	// SettledMs is how long the action waited after the input for the
	// page to stop changing.
	SettledMs *int `json:"settledMs,omitempty"`
}

// SelectResult is a page action's result plus the options selected
// afterwards.
type SelectResult struct {
	ActResult
	Selected       []string `json:"selected"`
	SelectedLabels []string `json:"selectedLabels"`
}

// CheckResult is a page action's result plus the control's state
// afterwards, and whether the action changed it.
type CheckResult struct {
	ActResult
	Checked bool `json:"checked"`
	Changed bool `json:"changed"`
}

// HoverResult is a page action's result plus what the pointer rests on.
type HoverResult struct {
	ActResult
	// Under is the element under the pointer after the move, once the page
	// has reacted (a menu that opened over the target shows here).
	Under *Match `json:"under,omitempty"`
}

// Match is an element as the page's locate script describes it.
type Match struct {
	Ref     string `json:"ref"`
	Tag     string `json:"tag"`
	Role    string `json:"role"`
	Name    string `json:"name"`
	Text    string `json:"text"`
	Visible bool   `json:"visible"`
	Enabled bool   `json:"enabled"`
	Rect    Rect   `json:"rect"`
	// Rank is how likely a text match is what a person would click (the
	// higher the likelier).
	Rank int `json:"rank"`
}

// DragResult is a page action's result plus what was dragged and where it
// was dropped (none for a point).
type DragResult struct {
	ActResult
	From *Element `json:"from,omitempty"`
	To   *Element `json:"to,omitempty"`
}

// ScrollResult is a page action's result plus the scroll position
// afterwards, of the page or of the container that holds the element.
type ScrollResult struct {
	ActResult
	ScrollX    float64 `json:"scrollX"`
	ScrollY    float64 `json:"scrollY"`
	MaxScrollX float64 `json:"maxScrollX"`
	MaxScrollY float64 `json:"maxScrollY"`
	Container  string  `json:"container"`
}

// HandoffResult is how a hand-off ended: Outcome is done, cancelled or
// timeout, and the tab is as the user left it.
type HandoffResult struct {
	Outcome string `json:"outcome"`
	Page
}
