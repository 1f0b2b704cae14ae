package actions

import (
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
	l := r.locator()
	if mode == "dom" {
		if err := l.locate(t, loc); err != nil {
			return nil, err
		}
		if err := r.guards().askBeforeClick(t, l.el, loc); err != nil { // ask.go
			return nil, err
		}
		if err := l.act("domClick", actArgs{}, nil); err != nil {
			return nil, err
		}
		return r.observer().observeLocated(l)
	}
	if err := l.locateForInput(t, loc); err != nil {
		return nil, err
	}
	if err := r.guards().askBeforeClick(t, l.el, loc); err != nil { // ask.go
		return nil, err
	}
	if err := l.click(button, count); err != nil {
		return nil, err
	}
	return r.observer().observeLocated(l)
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
