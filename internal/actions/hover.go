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
	l := r.locator()
	if err := l.locateForInput(t, loc); err != nil {
		return nil, err
	}
	if err := l.hover(); err != nil {
		return nil, err
	}
	var under *pageMatch
	if err := r.runPageTop(t.TabID, nil, underPointerScript, xy{X: l.el.X, Y: l.el.Y}, &under); err != nil {
		l.warnings = append(l.warnings, "could not tell what is under the pointer: "+err.Error())
	}
	res, err := r.observer().observeLocated(l)
	if err != nil {
		return nil, err
	}
	return &tool.HoverResult{ActResult: *res, Under: under}, nil
}

var underPointerScript = script("underPointer", "page/locate.js")
