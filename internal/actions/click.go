package actions

import "github.com/browser-bridge/browser-bridge/internal/tool"

func init() { register("click", click) }

var mouseButtons = map[string]bool{"left": true, "right": true, "middle": true}

// click locates the element and clicks the middle of its visible part with
// real (trusted) CDP mouse events: moved, pressed, released. inputMode
// "dom" dispatches DOM events instead, for pages that need that.
func click(r *run) (any, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	button := r.in.Button
	if button == "" {
		button = "left"
	}
	if !mouseButtons[button] {
		return nil, invalid("button must be left, right or middle")
	}
	count := r.in.ClickCount
	if count == 0 {
		count = 1
	}
	if count < 1 || count > 3 {
		return nil, invalid("clickCount must be 1, 2 or 3")
	}
	mode, err := r.inputMode(loc)
	if err != nil {
		return nil, err
	}
	t, err := r.pageTarget()
	if err != nil {
		return nil, err
	}
	if mode == "dom" {
		el, err := r.locate(t.TabID, loc, false)
		if err != nil {
			return nil, err
		}
		if err := r.act(t.TabID, el, "domClick", nil, nil); err != nil {
			return nil, err
		}
		return r.finish(t, &el)
	}
	el, warnings, err := r.elementAt(t, loc)
	if err != nil {
		return nil, err
	}
	if err := r.mouseClick(t.TabID, el.X, el.Y, button, count); err != nil {
		return nil, err
	}
	var shown *Element
	if loc.X == nil {
		shown = &el
	}
	return r.finish(t, shown, warnings...)
}

// mouseClick sends one whole click in one command to the extension.
func (r *run) mouseClick(tabID int, x, y float64, button string, count int) error {
	return r.cdpBatch(tabID, clickCmds(x, y, button, count)...)
}

// clickCmds are the CDP mouse events of a click at x, y (top-level
// viewport coordinates): moved, then pressed and released count times.
func clickCmds(x, y float64, button string, count int) []map[string]any {
	cmds := []map[string]any{cdpCmd("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y})}
	for i := 1; i <= count; i++ {
		p := map[string]any{"x": x, "y": y, "button": button, "clickCount": i}
		pressed := map[string]any{"type": "mousePressed"}
		released := map[string]any{"type": "mouseReleased"}
		for k, v := range p {
			pressed[k], released[k] = v, v
		}
		cmds = append(cmds, cdpCmd("Input.dispatchMouseEvent", pressed), cdpCmd("Input.dispatchMouseEvent", released))
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
