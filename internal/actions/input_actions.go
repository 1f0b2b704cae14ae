package actions

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// actResult is what a page action returns: the tab (SPEC: every result
// that concerns a tab has tabId, url and title), what it acted on, and
// whether a navigation followed.
type actResult struct {
	TabID     int      `json:"tabId"`
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Element   *Element `json:"element,omitempty"`
	Navigated bool     `json:"navigated,omitempty"`
	// Dialog is the alert/confirm/prompt the action opened, and how the
	// bridge answered it.
	Dialog *Dialog `json:"dialog,omitempty"`
	// OpenedTabs are tabs the page opened during the action (a link to
	// _blank, a pop-up); the bridge takes them as its own.
	OpenedTabs []TabInfo `json:"openedTabs,omitempty"`
	Warnings   []string  `json:"warnings,omitempty"`
}

// Dialog is a JavaScript dialog the page opened.
type Dialog struct {
	Type    string `json:"type"` // alert, confirm, prompt, beforeunload
	Message string `json:"message"`
	Answer  string `json:"answer"` // accepted or dismissed
}

var actScript = script("", "page/locate.js", "page/act.js")

// act runs an act.js function on el (in its frame) and decodes the value.
func (r *run) act(tabID int, el Element, fn string, args map[string]any, out any) error {
	s := actScript
	s.fn = fn
	if args == nil {
		args = map[string]any{}
	}
	args["ref"] = el.localRef
	fid := el.FrameID
	return r.runPageTop(tabID, &fid, s, args, out)
}

// needLocator returns the call's locator or says which action needs one.
func (r *run) needLocator() (Locator, error) {
	loc, ok, err := r.in.locator()
	if err != nil {
		return loc, err
	}
	if !ok {
		return loc, invalid("%s needs a locator: selector, text, role (+ name), label, placeholder, ref (from inspect), or x and y", r.in.Action)
	}
	return loc, nil
}

// prepareInput readies a tab for CDP input: the tab is made active in its
// window (the first CDP input event to a background tab takes ~5 s, see
// E2E.md) and the debugger is attached before locating, because the
// "started debugging" bar that attaching shows moves every coordinate.
func (r *run) prepareInput(t TabInfo) error {
	if !t.Active {
		if err := r.call("tab.activate", map[string]any{"tabId": t.TabID}, nil); err != nil {
			return err
		}
	}
	// Attaching also finds a dialog left open (by an earlier action, a
	// timer, the page's load): it is answered before anything else.
	return r.answerOpenDialogs(t.TabID)
}

// cdpBatch runs CDP commands on the tab in one round trip. When one opens
// a dialog (which stops the page until answered), the dialog is answered
// (see answerDialog) and the rest of the commands are sent; dialogs the
// page opens right after (a loop of alerts) are answered too.
func (r *run) cdpBatch(tabID int, cmds ...map[string]any) error {
	for range maxDialogs {
		var out struct {
			Dialog      *dialogInfo `json:"dialog"`
			Interrupted int         `json:"interrupted"`
		}
		if err := r.call("cdp.batch", map[string]any{"tabId": tabID, "commands": cmds}, &out); err != nil {
			return err
		}
		if out.Dialog == nil {
			return nil
		}
		if err := r.answerDialog(tabID, out.Dialog); err != nil {
			return err
		}
		// The interrupted command completes now that the dialog is gone.
		cmds = cmds[min(out.Interrupted+1, len(cmds)):]
		if len(cmds) == 0 {
			return r.answerDialogsAfter(tabID)
		}
	}
	return tooManyDialogs()
}

// maxDialogs bounds the dialogs one call answers: a page may open one after
// another, but not forever.
const maxDialogs = 10

func tooManyDialogs() error {
	return protocol.Errorf(protocol.CodeTimeout, "the page keeps opening dialogs; stopped after answering %d — close the tab if it goes on", maxDialogs)
}

// dialogInfo is a dialog open on a tab, as the extension reports it.
type dialogInfo struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt"`
}

// answerDialog answers a dialog open on the tab — as the call's dialog
// parameter says, else an alert is accepted and anything else (confirm,
// prompt, leave page) dismissed, the safe choice — and records it in
// r.dialogs for the result.
func (r *run) answerDialog(tabID int, d *dialogInfo) error {
	accept := d.Type == "alert"
	switch r.in.Dialog {
	case "accept":
		accept = true
	case "dismiss":
		accept = false
	}
	params := map[string]any{"accept": accept}
	if d.Type == "prompt" {
		params["promptText"] = d.DefaultPrompt
	}
	if err := r.call("cdp", map[string]any{"tabId": tabID, "method": "Page.handleJavaScriptDialog", "params": params}, nil); err != nil {
		if strings.Contains(err.Error(), "No dialog is showing") {
			return nil // answered meanwhile (by the user, or another probe)
		}
		return err
	}
	answered := Dialog{Type: d.Type, Message: d.Message, Answer: "dismissed"}
	if accept {
		answered.Answer = "accepted"
	}
	r.dialogMu.Lock()
	r.dialogs = append(r.dialogs, answered)
	r.dialogMu.Unlock()
	return nil
}

// answerOpenDialogs attaches the debugger to the tab (which is how the
// bridge learns of a dialog) and answers the dialogs open on it, one after
// another, until none is.
func (r *run) answerOpenDialogs(tabID int) error {
	return r.answerDialogs(tabID, false)
}

// answerDialogsAfter answers the dialogs that the command a dialog
// interrupted goes on to show (a loop of alerts), until it finishes.
func (r *run) answerDialogsAfter(tabID int) error {
	return r.answerDialogs(tabID, true)
}

func (r *run) answerDialogs(tabID int, settle bool) error {
	// One at a time per call: a probe and the input's own preparation
	// must not both answer one dialog.
	r.answering.Lock()
	defer r.answering.Unlock()
	for i := range maxDialogs {
		var a struct {
			Dialog *dialogInfo `json:"dialog"`
		}
		// After an answer, wait for the interrupted command to finish or
		// show the next dialog (see attach in extension/handlers/cdp.js).
		if err := r.call("cdp.attach", map[string]any{"tabId": tabID, "settle": settle || i > 0}, &a); err != nil {
			return err
		}
		if a.Dialog == nil {
			return nil
		}
		if i == 0 && !settle && r.in.Dialog == "" && !r.reg().IsOwned(tabID) {
			// A dialog on the user's own tab that the action did not
			// open: the user may be answering it. Say so rather than
			// answer for them.
			return protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d shows a %s dialog (%q) that the bridge did not open; answer it in the browser, or pass dialog: \"accept\" or \"dismiss\" to let the bridge answer it", tabID, a.Dialog.Type, a.Dialog.Message)
		}
		if err := r.answerDialog(tabID, a.Dialog); err != nil {
			return err
		}
	}
	return tooManyDialogs()
}

// dialogProbe is how long a primitive that the page must answer (a page
// script, a navigation) may go unanswered before the bridge looks for a
// dialog holding the page.
const dialogProbe = 2500 * time.Millisecond

// callPage is call for primitives that a dialog would hold up: when one
// has not answered within dialogProbe, the dialogs open on the tab are
// answered, so it can finish.
func (r *run) callPage(tabID int, verb string, params, out any) error {
	done := make(chan error, 1)
	go func() { done <- r.call(verb, params, out) }()
	// Only the bridge's own tabs are probed: attaching the debugger shows
	// Chrome's debugging bar on every window, and the user's own tab may
	// simply be slow.
	probe := r.reg().IsOwned(tabID)
	for {
		select {
		case err := <-done:
			return err
		case <-time.After(dialogProbe):
			if probe {
				r.answerOpenDialogs(tabID) // best effort: the call's own error says more
			}
		}
	}
}

// lastDialog is the last dialog the call answered, or nil.
func (r *run) lastDialog() *Dialog {
	r.dialogMu.Lock()
	defer r.dialogMu.Unlock()
	if n := len(r.dialogs); n > 0 {
		d := r.dialogs[n-1]
		return &d
	}
	return nil
}

// openedTabs adopts and returns the tabs that tabID's page has opened and
// the bridge did not know yet — when tabID is the bridge's own. A tab
// that appears only later is adopted by the next status.
func (r *run) openedTabs(tabID int) []TabInfo {
	reg := r.reg()
	if !reg.IsOwned(tabID) {
		return nil
	}
	var out struct {
		Tabs []TabInfo `json:"tabs"`
	}
	if err := r.call("tab.opened", map[string]any{"tabId": tabID}, &out); err != nil {
		return nil // a report, not the action: status adopts them too
	}
	var fresh []TabInfo
	for _, t := range out.Tabs {
		if slices.Contains(adoptOpened(reg, []TabInfo{t}), t.TabID) {
			fresh = append(fresh, t)
		}
	}
	return fresh
}

// dialogWarnings says which dialogs the call answered, and how, that the
// result has not reported yet; they count as reported from now on.
func (r *run) dialogWarnings() []string {
	r.dialogMu.Lock()
	defer r.dialogMu.Unlock()
	var out []string
	fresh := r.dialogs[r.dialogsReported:]
	r.dialogsReported = len(r.dialogs)
	for _, d := range fresh {
		w := fmt.Sprintf("the page showed a %s dialog (%q) and the bridge %s it", d.Type, d.Message, d.Answer)
		if r.in.Dialog == "" {
			w += `; pass dialog: "accept" or "dismiss" to choose`
		}
		out = append(out, w)
	}
	return out
}

func cdpCmd(method string, params map[string]any) map[string]any {
	return map[string]any{"method": method, "params": params}
}

// finish builds the result after an action: the tab as it is now, and if
// the action started a navigation, the page it led to (waiting for its
// load within the call's deadline, at most 10 s).
func (r *run) finish(before TabInfo, el *Element, warnings ...string) (actResult, error) {
	var t TabInfo
	var opened []TabInfo
	err := both(func() error {
		return r.call("tab.get", map[string]any{"tabId": before.TabID}, &t)
	}, func() error {
		opened = r.openedTabs(before.TabID) // an independent round trip
		return nil
	})
	if err != nil {
		if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			// The action itself worked and closed the tab (a "close"
			// button, window.close()): report it, so nobody retries it.
			return actResult{TabID: before.TabID, URL: before.URL, Title: before.Title, Element: el, OpenedTabs: opened,
				Warnings: append(warnings, "the tab closed after the action")}, nil
		}
		return actResult{}, err
	}
	res := actResult{TabID: t.TabID, URL: t.URL, Title: t.Title, Element: el, Warnings: warnings}
	res.OpenedTabs = opened
	if d := r.lastDialog(); d != nil {
		res.Dialog = d
		res.Warnings = append(res.Warnings, r.dialogWarnings()...)
	}
	// A new URL, or a load that started with the action (a page that was
	// still loading before it proves nothing).
	if t.URL != before.URL || (t.Status == "loading" && before.Status != "loading") {
		res.Navigated = true
		wait := min(r.loadWait(), int((10 * time.Second).Milliseconds()))
		if err := r.call("tab.waitLoad", map[string]any{"tabId": t.TabID, "waitMs": wait}, &t); err == nil {
			res.URL, res.Title = t.URL, t.Title
			if t.Loaded != nil && !*t.Loaded {
				res.Warnings = append(res.Warnings, "the page it led to was still loading")
			}
		} else if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			res.Warnings = append(res.Warnings, "the tab closed after the action")
		}
	}
	return res, nil
}

// elementAt locates el and, for CDP input, readies the tab and computes the
// point to act on.
func (r *run) elementAt(t TabInfo, loc Locator) (Element, []string, error) {
	if err := r.prepareInput(t); err != nil {
		return Element{}, nil, err
	}
	el, err := r.locate(t.TabID, loc, true)
	if err != nil {
		return Element{}, nil, err
	}
	var warnings []string
	if el.Matches > 1 && loc.Nth == nil {
		warnings = append(warnings, pluralMatches(el.Matches))
	}
	if el.ObscuredBy != "" {
		warnings = append(warnings, "the element is covered by "+el.ObscuredBy+" at the point acted on; the input went to that element")
	}
	return el, warnings, nil
}

func pluralMatches(n int) string {
	return "the locator matched " + strconv.Itoa(n) + " elements; used the first visible one (pass nth to pick another)"
}
