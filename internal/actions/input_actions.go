package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/keys"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The act step of page actions: a function of page/act.js on a located
// element, or trusted input as CDP commands in one batch.

var actScript = script("", "page/locate.js", "page/act.js")

// act runs an act.js function on el (in its frame) and decodes the value.
func (r actor) act(tabID int, el Element, fn string, args actArgs, out any) error {
	s := actScript
	s.fn = fn
	args.Ref = el.localRef
	fid := el.FrameID
	return r.runPageTop(tabID, &fid, s, args, out)
}

// needLocator returns the call's locator or says which action needs one.
func (r *run) needLocator() (tool.Locator, error) {
	loc := r.in.Locator
	if !loc.Present() {
		return loc, invalid("%s needs a locator: selector, text, role (+ name), label, placeholder, ref (from inspect), or x and y", r.in.Action)
	}
	return loc, nil
}

// cdpBatch runs CDP commands on the tab in one round trip. When one opens
// a dialog (which stops the page until answered), the dialog is answered
// (see answerDialog) and the rest of the commands are sent; dialogs the
// page opens right after (a loop of alerts) are answered too.
func (r actor) cdpBatch(tabID int, cmds ...protocol.CDPCommand) error {
	for range maxDialogs {
		out, err := r.b.CDPBatch(r.ctx, protocol.CDPBatchParams{TabID: tabID, Commands: cmds})
		if err != nil {
			return err
		}
		if out.Dialog == nil {
			return nil
		}
		if err := r.answers().answerDialog(tabID, out.Dialog); err != nil {
			return err
		}
		// The interrupted command completes now that the dialog is gone.
		cmds = cmds[min(out.Interrupted+1, len(cmds)):]
		if len(cmds) == 0 {
			return r.answers().answerDialogsAfter(tabID)
		}
	}
	return tooManyDialogs()
}

// batchLook is what cdpBatchLook saw after the input: the look's answer,
// the tab's activity and the tab; each nil when not seen.
type batchLook struct {
	look *protocol.PageFrameResult
	net  *protocol.ReadinessNet
	tab  *browser.TabInfo
}

// cdpBatchLook is cdpBatch that, in the same round trip, runs look (a
// page script in frame frameID) right after the commands and reads the
// tab's activity (readiness.net) and the tab: what the input did, seen
// without calls of their own. Nothing is seen when a dialog stopped the
// commands (they are finished as cdpBatch finishes them); the look is
// nil when its frame did not answer. The caller looks on its own for
// what it did not see.
func (r actor) cdpBatchLook(tabID, frameID int, look pageScript, args any, cmds ...protocol.CDPCommand) (batchLook, error) {
	c, err := r.cdpChecked(tabID, nil, &lookAfter{script: look, frameID: frameID, args: args}, cmds)
	return c.seen, err
}

// cdpCmd is one command of a batch; params is the CDP method's own
// params (a struct with its json names, or a map).
func cdpCmd(method string, params any) protocol.CDPCommand {
	return protocol.CDPCommand{Method: method, Params: params}
}

// mouseEvent is the params of CDP's Input.dispatchMouseEvent, in
// top-level viewport coordinates; a move has no button.
type mouseEvent struct {
	Type       string  `json:"type"` // mouseMoved, mousePressed, mouseReleased
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Button     string  `json:"button,omitempty"`
	ClickCount int     `json:"clickCount,omitempty"`
	// Buttons are the buttons held during the event (1: the left one), as
	// a drag's moves carry them.
	Buttons int `json:"buttons,omitempty"`
}

// mouseMove is the CDP command that moves the mouse to x, y.
func mouseMove(x, y float64) protocol.CDPCommand {
	return cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mouseMoved", X: x, Y: y})
}

// mouseClick clicks el at its point (el.X, el.Y, top-level viewport
// coordinates), in one command to the extension. When the locate step
// measured the point (el.aim, handed over with the element), the click
// is checked: the mouse moves there, what is under it is checked again
// in every frame down to the element, and only then do the button events
// go out (moveOnto). A page that slides something under the pointer on
// mousemove gets no press. It returns the element as clicked, with what
// the wait for it took.
func (r actor) mouseClick(tabID int, el Element, button string, count int) (Element, error) {
	if el.aim != nil {
		return r.locator().moveOnto(tabID, el, true, func(x, y float64) []protocol.CDPCommand {
			return pressCmds(x, y, button, count)
		})
	}
	return el, r.cdpBatch(tabID, clickCmds(el.X, el.Y, button, count)...)
}

// clickCmds are the CDP mouse events of a click at x, y (top-level
// viewport coordinates): moved, then pressed and released count times.
func clickCmds(x, y float64, button string, count int) []protocol.CDPCommand {
	return append([]protocol.CDPCommand{mouseMove(x, y)}, pressCmds(x, y, button, count)...)
}

// inputMode checks the input mode of click, type and press: "cdp"
// (default) or "dom" (which needs an element, not a point).
func (r *run) inputMode(loc tool.Locator) (string, error) {
	switch r.in.InputMode {
	case "", "cdp":
		return "cdp", nil
	case "dom":
		if loc.X != nil {
			return "", invalid("inputMode \"dom\" needs an element locator, not a point")
		}
		return "dom", nil
	}
	return "", invalid("inputMode must be \"cdp\" (default) or \"dom\"")
}

// pressKeys sends the chords of keys to the tab in one round trip.
func (r actor) pressKeys(tabID int, names string) error {
	chords, err := keys.Parse(names)
	if err != nil {
		return err
	}
	var cmds []protocol.CDPCommand
	for _, c := range chords {
		for _, e := range c.Events() {
			cmds = append(cmds, cdpCmd("Input.dispatchKeyEvent", e))
		}
	}
	return r.cdpBatch(tabID, cmds...)
}

// pressCmds are the button events of a click where the mouse is.
func pressCmds(x, y float64, button string, count int) []protocol.CDPCommand {
	var cmds []protocol.CDPCommand
	for i := 1; i <= count; i++ {
		for _, typ := range []string{"mousePressed", "mouseReleased"} {
			cmds = append(cmds, cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: typ, X: x, Y: y, Button: button, ClickCount: i}))
		}
	}
	return cmds
}
