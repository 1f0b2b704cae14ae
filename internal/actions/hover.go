package actions

import "github.com/browser-bridge/browser-bridge/internal/tool"

func init() { register("hover", hover) }

// hover moves the mouse onto the element with a trusted CDP mouse move,
// so CSS :hover rules and mouseover/mouseenter handlers react as they do
// for a person; nothing is pressed.
func hover(r *run) (*tool.HoverResult, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	el, warnings, err := r.locator().locateForInput(t, loc)
	if err != nil {
		return nil, err
	}
	// Moved, then checked to hold still (a hover may open something
	// over the element, which is not a failure).
	if el, err = r.locator().moveOnto(t.TabID, el, false, nil); err != nil {
		return nil, err
	}
	var under *pageMatch
	if err := r.runPageTop(t.TabID, nil, underPointerScript, xy{X: el.X, Y: el.Y}, &under); err != nil {
		warnings = append(warnings, "could not tell what is under the pointer: "+err.Error())
	}
	res, err := r.observer().observe(t, pointed(el, loc), el.waited, warnings...)
	if err != nil {
		return nil, err
	}
	return &tool.HoverResult{ActResult: *res, Under: under}, nil
}

var underPointerScript = script("underPointer", "page/locate.js")
