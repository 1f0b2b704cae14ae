package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("click", click) }

var mouseButtons = map[string]bool{"left": true, "right": true, "middle": true}

// click locates the element, waits until a click would reach it, and
// clicks a point inside its own boxes where it is on top, with real
// (trusted) CDP mouse events: moved, checked again, pressed, released.
// inputMode "dom" dispatches DOM events instead, for pages that need that.
func click(r *run) (*tool.ActResult, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	button, count, err := r.clickButton()
	if err != nil {
		return nil, err
	}
	mode, err := r.inputMode(loc)
	if err != nil {
		return nil, err
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	if mode == "dom" {
		el, err := r.locator().locate(t, loc)
		if err != nil {
			return nil, err
		}
		if err := r.guards().askBeforeClick(t, el, loc); err != nil { // ask.go
			return nil, err
		}
		if err := r.actor().act(t.TabID, el, "domClick", actArgs{}, nil); err != nil {
			return nil, err
		}
		return r.observer().observe(t, &el, el.waited)
	}
	el, warnings, err := r.locator().locateForInput(t, loc)
	if err != nil {
		return nil, err
	}
	if err := r.guards().askBeforeClick(t, el, loc); err != nil { // ask.go
		return nil, err
	}
	if el, err = r.actor().mouseClick(t.TabID, el, button, count); err != nil {
		return nil, err
	}
	return r.observer().observe(t, pointed(el, loc), el.waited, warnings...)
}

// clickButton is the call's button (default left) and clickCount
// (default 1).
func (r *run) clickButton() (string, int, error) {
	button := r.in.Button
	if button == "" {
		button = "left"
	}
	if !mouseButtons[button] {
		return "", 0, invalid("button must be left, right or middle")
	}
	count := r.in.ClickCount
	if count == 0 {
		count = 1
	}
	if count < 1 || count > 3 {
		return "", 0, invalid("clickCount must be 1, 2 or 3")
	}
	return button, count, nil
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
