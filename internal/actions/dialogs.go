package actions

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Dialogs (alert, confirm, prompt, leave page) stop a page until someone
// answers them. The bridge answers them — as the call's dialog parameter
// says, else an alert accepted and the others dismissed — and reports each
// in the result: one its input opens (cdpBatch), one left open when an
// action comes to the tab (prepareInput), and one holding a page script
// or a navigation (unheld).

// answerer answers the dialogs a page opens during one call and keeps
// them for the result. It sees of the call only what answering needs.
type answerer struct {
	ctx context.Context
	b   browser.Verbs
	// choice is the call's dialog parameter: "accept", "dismiss", or ""
	// for the safe default.
	choice string
	// owned says whether the bridge opened tab tabID: only its own tabs
	// are probed for dialogs, and only there is an unseen dialog answered
	// without the caller's choice.
	owned func(tabID int) bool
	// leave: the call answers no dialog (RunAside): one it finds is left
	// to the agent's next action, which reports it, or to the user, and
	// the call fails.
	leave bool
	book  *dialogBook
}

// dialogBook is what a call's answerers share: the dialogs answered, and
// how many of them the result already reports, both under mu (a dialog
// probe runs beside the call it watches); answering serialises the
// answering within the call.
type dialogBook struct {
	mu        sync.Mutex
	dialogs   []Dialog
	reported  int
	answering sync.Mutex
}

// Dialog is a JavaScript dialog the page opened, and how the bridge
// answered it.
type Dialog = tool.Dialog

// maxDialogs bounds the dialogs one call answers: a page may open one after
// another, but not forever.
const maxDialogs = 10

func tooManyDialogs() error {
	return protocol.Errorf(protocol.CodeTimeout, "the page keeps opening dialogs; stopped after answering %d — close the tab if it goes on", maxDialogs)
}

// answerDialog answers a dialog open on the tab — as the call's dialog
// parameter says, else an alert is accepted and anything else (confirm,
// prompt, leave page) dismissed, the safe choice — and records it in
// the call's dialogBook for the result.
func (r answerer) answerDialog(tabID int, d *protocol.Dialog) error {
	if r.leave {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d shows a %s dialog (%q), left for the agent's next action or the user", protocol.Tab(tabID), d.Type, d.Message)
	}
	accept := d.Type == "alert"
	switch r.choice {
	case "accept":
		accept = true
	case "dismiss":
		accept = false
	}
	answer := dialogAnswer{Accept: accept}
	if d.Type == "prompt" {
		answer.PromptText = &d.DefaultPrompt
	}
	if err := r.b.CDP(r.ctx, protocol.CDPParams{TabID: tabID, Method: "Page.handleJavaScriptDialog", Params: answer}, nil); err != nil {
		if strings.Contains(err.Error(), "No dialog is showing") {
			return nil // answered meanwhile (by the user, or another probe)
		}
		return err
	}
	answered := Dialog{Type: d.Type, Message: d.Message, Answer: "dismissed"}
	if accept {
		answered.Answer = "accepted"
	}
	r.book.mu.Lock()
	r.book.dialogs = append(r.book.dialogs, answered)
	r.book.mu.Unlock()
	return nil
}

// dialogAnswer is the params of CDP's Page.handleJavaScriptDialog; a
// prompt is answered with its default text.
type dialogAnswer struct {
	Accept     bool    `json:"accept"`
	PromptText *string `json:"promptText,omitempty"`
}

// answerOpenDialogs attaches the debugger to the tab (which is how the
// bridge learns of a dialog) and answers the dialogs open on it, one after
// another, until none is.
func (r answerer) answerOpenDialogs(tabID int) error {
	return r.answerDialogs(tabID, false, 0)
}

// answerDialogsAfter answers the dialogs that the command a dialog
// interrupted goes on to show (a loop of alerts), until it finishes.
func (r answerer) answerDialogsAfter(tabID int) error {
	return r.answerDialogs(tabID, true, 0)
}

// answerDialogs answers the dialogs open on the tab; wait, when not 0,
// bounds how long the attach waits for the tab to answer at all (a
// dialog that opened unseen holds it), else the extension's 5 s apply.
func (r answerer) answerDialogs(tabID int, settle bool, wait time.Duration) error {
	// One at a time per call: a probe and the input's own preparation
	// must not both answer one dialog.
	r.book.answering.Lock()
	defer r.book.answering.Unlock()
	for i := range maxDialogs {
		// After an answer, wait for the interrupted command to finish or
		// show the next dialog (see attach in extension/handlers/cdp.js).
		d, err := r.b.CDPAttach(r.ctx, protocol.CDPAttachParams{TabID: tabID, Settle: settle || i > 0, WaitMs: int(wait.Milliseconds())})
		if err != nil {
			return err
		}
		if d == nil {
			return nil
		}
		if i == 0 && !settle && r.choice == "" && !r.owned(tabID) {
			// A dialog on the user's own tab that the action did not
			// open: the user may be answering it. Say so rather than
			// answer for them.
			return protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d shows a %s dialog (%q) that the bridge did not open; answer it in the browser, or pass dialog: \"accept\" or \"dismiss\" to let the bridge answer it", protocol.Tab(tabID), d.Type, d.Message)
		}
		if err := r.answerDialog(tabID, d); err != nil {
			return err
		}
	}
	return tooManyDialogs()
}

// dialogProbe is how long a primitive that the page must answer (a page
// script, a navigation) may go unanswered before the bridge looks for a
// dialog holding the page.
const dialogProbe = 2500 * time.Millisecond

// unseenDialogWait is how long an action waits on a tab that does not
// answer before it fails with a timeout naming a dialog the bridge could
// not see (one that opened while its debugger was away). A page script
// held that long spends the first dialogProbe of it; the probe's attach
// gets only the rest, so the wait does not become the sum of both.
const unseenDialogWait = 5 * time.Second

// unheld runs call, a primitive on tab tabID that a dialog would hold up
// (a page script, a navigation): when it has not answered within
// dialogProbe, the dialogs open on the tab are answered, so it can
// finish. What call decodes may be read once unheld returns nil.
func (r answerer) unheld(tabID int, call func() error) error {
	done := make(chan error, 1)
	go func() { done <- call() }()
	// Only the bridge's own tabs are probed: attaching the debugger shows
	// Chrome's debugging bar on every window, and the user's own tab may
	// simply be slow.
	probe := r.owned(tabID)
	for {
		select {
		case err := <-done:
			return err
		case <-time.After(dialogProbe):
			if !probe {
				continue
			}
			// Best effort (the call's own error says more), except for a
			// page that shows dialog after dialog (that will not end) and
			// a dialog the call leaves open (it holds the page on).
			if err := r.answerDialogs(tabID, false, unseenDialogWait-dialogProbe); protocol.CodeOf(err) == protocol.CodeTimeout || r.leave && err != nil {
				return err
			}
		}
	}
}

// lastDialog is the last dialog the call answered, or nil.
func (r answerer) lastDialog() *Dialog {
	r.book.mu.Lock()
	defer r.book.mu.Unlock()
	if n := len(r.book.dialogs); n > 0 {
		d := r.book.dialogs[n-1]
		return &d
	}
	return nil
}

// dialogWarnings says which dialogs the call answered, and how, that the
// result has not reported yet; they count as reported from now on.
func (r answerer) dialogWarnings() []string {
	r.book.mu.Lock()
	defer r.book.mu.Unlock()
	var out []string
	fresh := r.book.dialogs[r.book.reported:]
	r.book.reported = len(r.book.dialogs)
	for _, d := range fresh {
		article := "a"
		if d.Type == "alert" {
			article = "an"
		}
		w := fmt.Sprintf("the page showed %s %s dialog (%q) and the bridge %s it", article, d.Type, d.Message, d.Answer)
		if r.choice == "" {
			w += `; pass dialog: "accept" or "dismiss" to choose`
		}
		out = append(out, w)
	}
	return out
}
