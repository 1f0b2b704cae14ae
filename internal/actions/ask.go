package actions

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/keys"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// "Ask before irreversible steps" (settings.json askBeforeIrreversible,
// off by default). When it is on, the bridge asks
// the user before
//   - a click, or Enter or Space in press, that submits a form, or on a
//     control whose label looks like a payment or an order ("Pay", "Place
//     order", "Kaufen", "購入", …: irreversible.go);
//   - a click or key press on a link to another site (another registrable
//     domain than the tab's);
//   - open that loads another site into a tab, or a new tab on a site that
//     none of the workspace's tabs is on.
//
// The question shows over the page, in the hand-off's extension frame the
// page cannot read or click (extension/handlers/ask.js), and on the
// extension's page; where no page can show it (a new tab, the browser's
// own page) in a small window of the extension's. While it waits, the tab
// is held as in a hand-off (Handoffs, kind "ask"): every other action on
// it fails with handoff_in_progress, and the extension refuses the
// bridge's input to it, so the agent cannot answer for the user. Allow
// lets the action go on; Decline, or no answer before the call's deadline,
// fails it with declined_by_user, and nothing is pressed or loaded.
//
// The hooks, one line each in the actions' files, sit between locate and
// act: askBeforeClick (click.go), askBeforePress (press.go),
// askBeforeLoad and askBeforeOpen (open.go).

// SetAskBeforeIrreversible gives the Env the user's switch, asked before
// every action that may take such a step (the daemon reads settings.json).
func (e *Env) SetAskBeforeIrreversible(on func() bool) { e.askSwitch.Store(&on) }

// asksBeforeIrreversible says whether the user wants to be asked.
func (e *Env) asksBeforeIrreversible() bool {
	on := e.askSwitch.Load()
	return on != nil && (*on)()
}

// askMargin is what is kept of the call's deadline (a quarter of it, for
// short ones) for the step itself once the user has allowed it.
const askMargin = 5 * time.Second

// askMinWait is the least time a question is shown for.
const askMinWait = 2 * time.Second

var (
	irreversibleScript   = script("irreversible", "page/irreversible.js")
	irreversibleAtScript = script("irreversibleAt", "page/irreversible.js")
)

// askBeforeClick asks, when the mode is on, before the click on el (found
// by loc in tab t) if the click would submit, pay or leave the site. A
// trusted click (cdp) is judged by what is at its point, which is what it
// presses; a DOM click by the element itself. After an Allow, what the
// click would press is looked at again: a page that changed meanwhile
// fails the click, which the agent then locates anew (and the bridge asks
// anew).
func (r guards) askBeforeClick(t browser.TabInfo, el Element, loc tool.Locator) error {
	if !r.asks() || r.button == "right" {
		return nil
	}
	dom := r.inputMode == "dom"
	facts := func() (pageFacts, error) { return r.clickFacts(t.TabID, el, loc, dom) }
	return r.askIf(t, facts)
}

// askBeforePress asks, when the mode is on, before press sends keys that
// would submit, pay or leave the site: Enter on a field of a form (or on
// a button or link), Space on a button, or keys that move the focus
// before an Enter or Space (where they land cannot be told before). A
// press whose locator is focused by a click (a point, an element in a
// child frame) is judged as that click too.
func (r guards) askBeforePress(t browser.TabInfo, loc tool.Locator) error {
	if !r.asks() {
		return nil
	}
	how := pressKind(r.keys)
	var el Element
	if loc.Present() {
		var err error
		if el, err = r.locator().find(t.TabID, loc, loc.IsPoint()); err != nil {
			return err
		}
		if loc.IsPoint() || el.FrameID != 0 {
			// focusForKeys clicks it.
			if err := r.askIf(t, func() (pageFacts, error) { return r.clickFacts(t.TabID, el, loc, false) }); err != nil {
				return err
			}
		}
	}
	switch how {
	case "":
		return nil
	case "keys":
		s := step{Kind: protocol.AskSubmit, Label: r.keys, Where: siteLabel(t.URL),
			Detail: "The keys move the focus before they press Enter or Space: the bridge cannot tell what they will press."}
		return r.askUser(&t, s)
	}
	return r.askIf(t, func() (pageFacts, error) {
		var f pageFacts
		args := irreversibleArgs{How: how}
		frame := 0
		if loc.Present() && !loc.IsPoint() {
			args.Ref, frame = el.localRef, el.FrameID
		}
		err := r.runPageTop(t.TabID, &frame, irreversibleScript, args, &f)
		return f, err
	})
}

// askBeforeLoad asks, when the mode is on, before open loads dest into
// tab t if dest is on another site than the tab's page.
func (r guards) askBeforeLoad(t browser.TabInfo, dest string) error {
	if !r.asks() {
		return nil
	}
	s, ok := navigationStep(t.URL, dest)
	if !ok {
		return nil
	}
	return r.askUser(&t, s)
}

// askBeforeOpen asks, when the mode is on, before open makes a new tab
// for r.in.URL in the call's workspace, unless one of the workspace's tabs
// is on that site already. The question shows over the workspace's
// active tab, else in the extension's own window.
func (r guards) askBeforeOpen() error {
	if !r.asks() || !isWeb(r.url) {
		return nil
	}
	reg := r.reg()
	ws, hasWindow := reg.Workspace(r.workspace)
	mine := map[int]bool{}
	for _, tab := range reg.Tabs(r.workspace) {
		mine[tab.TabID] = true
	}
	var on *browser.TabInfo
	if len(mine) > 0 || hasWindow {
		s, err := r.browserState()
		if err != nil {
			return err
		}
		for _, tab := range s.Tabs() {
			if mine[tab.TabID] && !newSite(tab.URL, r.url) {
				return nil
			}
			if hasWindow && tab.WindowID == ws.WindowID && tab.Active && mine[tab.TabID] && isWeb(tab.URL) {
				on = &tab
			}
		}
	}
	// "The agent wants to open shop.example", over the workspace's tab
	// (held while it shows, as a question's tab is) or in a window.
	s, _ := navigationStep("", r.url)
	return r.askUser(on, s)
}

// askIf asks the user when what facts reports is a step to ask about;
// after an Allow it looks again and fails when the press would now do
// something else.
func (r guards) askIf(t browser.TabInfo, facts func() (pageFacts, error)) error {
	f, err := facts()
	if err != nil {
		return err
	}
	s, ok := classify(f, t.URL)
	if !ok {
		return nil
	}
	if err := r.askUser(&t, s); err != nil {
		return err
	}
	again, err := facts()
	if err != nil {
		return err
	}
	if !sameStep(f, again) {
		return protocol.Errorf(protocol.CodeElementNotFound,
			"the page changed while the user was being asked: the press would now land on %s %q, not on what the user allowed; nothing was pressed — locate the element again (the user is asked again)",
			firstNonEmpty(again.Tag, "nothing"), again.Label)
	}
	return nil
}

// clickFacts is what a click on el would press: the element at its
// point for a trusted click in the top frame (or at a point locator), the
// element itself for a DOM click or one in a child frame the top frame's
// script cannot see into.
func (r guards) clickFacts(tabID int, el Element, loc tool.Locator, dom bool) (pageFacts, error) {
	var f pageFacts
	if !dom && (loc.IsPoint() || el.FrameID == 0) {
		if err := r.runPageTop(tabID, nil, irreversibleAtScript, irreversibleArgs{X: &el.X, Y: &el.Y, How: "click"}, &f); err != nil {
			return f, err
		}
		if !(f.Opaque && el.localRef != "") {
			return f, nil
		}
	}
	if el.localRef == "" {
		return f, nil
	}
	frame := el.FrameID
	f = pageFacts{}
	err := r.runPageTop(tabID, &frame, irreversibleScript, irreversibleArgs{Ref: el.localRef, How: "click"}, &f)
	return f, err
}

// sameStep says a and b describe the same press.
func sameStep(a, b pageFacts) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// pressKind is what keys do to the focused element, as far as asking
// goes: "enter" or "space" (the first of them), "keys" when a key that
// moves the focus (Tab, the arrows, Escape, …) comes before one of them,
// "" when they press nothing.
func pressKind(names string) string {
	chords, err := keys.Parse(names)
	if err != nil {
		return ""
	}
	moved, kind := false, ""
	for _, c := range chords {
		k, mods := chordKey(c)
		switch {
		case k == "Enter" || (k == " " && mods&^8 == 0): // Space, or Shift+Space
			name := "enter"
			if k == " " {
				name = "space"
			}
			if moved {
				return "keys"
			}
			if kind == "" {
				kind = name
			}
		case k == "Tab" || k == "Escape" || k == "Home" || k == "End" || k == "PageUp" || k == "PageDown" || strings.HasPrefix(k, "Arrow"):
			moved = true
		}
	}
	return kind
}

// chordKey is the key of chord c (not its modifiers) and the modifiers
// held.
func chordKey(c keys.Chord) (string, int) {
	key, mods := "", 0
	for _, e := range c.Events() {
		if e.Type == "keyUp" {
			continue
		}
		switch e.Key {
		case "Shift", "Control", "Alt", "Meta":
			if key == "" {
				key = e.Key // a modifier pressed on its own
			}
			continue
		}
		key, mods = e.Key, e.Modifiers
	}
	return key, mods
}

// askUser asks the user about s over tab t's page (t nil: in the
// extension's own window) and waits for the answer within the call's
// deadline, telling the caller meanwhile. Allowed: nil. Declined, or no
// answer in time: declined_by_user.
func (r guards) askUser(t *browser.TabInfo, s step) error {
	msg := s.question(r.action)
	p := protocol.AskShowParams{Kind: s.Kind, Message: msg, Detail: s.Detail}
	if t != nil {
		p.TabID = t.TabID
		end, err := r.handoffs.begin(Handoff{TabID: t.TabID, Message: msg, Session: r.session, Kind: handoffAsk, Instance: r.instance})
		if err != nil {
			return err
		}
		defer end()
	}
	wait := askWait(r.ctx)
	if wait < askMinWait {
		return protocol.Errorf(protocol.CodeInvalidArgument,
			"the user must be asked first (%s), and timeoutMs leaves them no time to answer; give the call a timeoutMs of 30000 or more", msg)
	}
	p.TimeoutMs = int(wait / time.Millisecond)
	stop := r.keepTelling("waiting for the user to allow or decline: "+msg, handoffProgressEvery)
	res, err := r.b.AskShow(r.ctx, p)
	stop()
	if err != nil {
		return err
	}
	switch res.Outcome {
	case protocol.AskAllowed:
		r.progress("the user allowed it: " + msg)
		return nil
	case protocol.AskDeclined:
		return protocol.Errorf(protocol.CodeDeclinedByUser,
			"the user declined: %s. Nothing was done. Do not try it again or another way; tell the user, or ask them what to do instead", msg)
	}
	return protocol.Errorf(protocol.CodeDeclinedByUser,
		"the user did not answer within %s: %s. Nothing was done; ask the user in your own words first, or call again with a longer timeoutMs (up to 60000) so they have time to answer", wait.Round(time.Second), msg)
}

// askWait is how long the user has to answer: the call's deadline less
// the step's own time.
func askWait(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		return time.Minute
	}
	left := time.Until(dl)
	return left - min(askMargin, left/4)
}
