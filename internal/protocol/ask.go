package protocol

// AskShowParams: ask.show asks the user whether the agent may take one
// step it cannot take back (internal/actions/ask.go): press a button that
// submits a form or pays, or go to another site. The question shows over
// the tab's page in an extension frame the page cannot read or click, as
// handoff.show's message does, and on the extension's page; with no
// TabID (a new tab is to be opened), or on a page the extension may not
// script, it shows in a small window of the extension's own. The call
// waits up to TimeoutMs for the user's Allow or Decline.
type AskShowParams struct {
	TabID int `json:"tabId,omitempty"`
	// Kind is what the step is: AskSubmit, AskPayment or AskNavigation.
	Kind string `json:"kind"`
	// Message is the question, a sentence: "The agent wants to press
	// “Place order” on shop.example".
	Message string `json:"message"`
	// Detail says more, where there is more to say (where the form goes).
	Detail    string `json:"detail,omitempty"`
	TimeoutMs int    `json:"timeoutMs"`
}

// The kinds of step ask.show asks about.
const (
	AskSubmit     = "submit"
	AskPayment    = "payment"
	AskNavigation = "navigation"
)

// The answers to ask.show.
const (
	AskAllowed  = "allowed"
	AskDeclined = "declined"
	AskTimeout  = "timeout"
)

// AskShowResult is the user's answer, and whether the question showed
// over the page (false: in the extension's own window).
type AskShowResult struct {
	Outcome string `json:"outcome"`
	Overlay bool   `json:"overlay"`
}
