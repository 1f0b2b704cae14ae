package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/keys"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("press", press) }

// press sends real key events (keys like "Enter", "Control+A",
// "Shift+Tab"), after focusing an element when a locator is given.
func press(r *run) (*tool.ActResult, error) {
	if _, err := keys.Parse(r.in.Keys); err != nil {
		return nil, err
	}
	loc := r.in.Locator
	if mode, err := r.inputMode(loc); err != nil {
		return nil, err
	} else if mode == "dom" {
		return nil, invalid("press always sends real key events; inputMode \"dom\" does not apply (set a value with type and inputMode \"dom\" instead)")
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	if err := r.guards().askBeforePress(t, loc); err != nil { // ask.go
		return nil, err
	}
	l := r.locator()
	if err := l.focusForKeys(t, loc); err != nil {
		return nil, err
	}
	if err := r.actor().pressKeys(t.TabID, r.in.Keys); err != nil {
		return nil, err
	}
	return r.observer().observeLocated(l)
}

// focusForKeys readies tab t for key events and, when the call has a
// locator, puts the focus on its element, which it keeps: a DOM focus in
// the top frame, a real click on a point or in a child frame (see
// focusForTyping). Without a locator it keeps the tab alone.
func (r *locator) focusForKeys(t browser.TabInfo, loc tool.Locator) error {
	if !loc.Present() {
		if err := r.notFocusedInRefusedFrame(t.TabID); err != nil {
			return err
		}
		r.found = found{tab: t}
		return r.prepareInput(t)
	}
	// Only a click (a point, or an element in a child frame) needs the
	// element on top; a DOM focus reaches it under a cover too.
	clicked := func(el Element) bool { return loc.IsPoint() || el.FrameID != 0 }
	if err := r.locateFor(t, loc, clicked); err != nil {
		return err
	}
	r.named = true // the element focused, under a point too
	if clicked(r.el) {
		return r.click("left", 1)
	}
	return r.act("focus", actArgs{}, nil)
}
