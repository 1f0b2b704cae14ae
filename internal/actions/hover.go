package actions

func init() { register("hover", hover) }

// hoverResult is a page action's result plus what the pointer rests on.
type hoverResult struct {
	actResult
	// Under is the element under the pointer after the move, once the page
	// has reacted (a menu that opened over the target shows here).
	Under *pageMatch `json:"under,omitempty"`
}

// hover moves the mouse onto the element with a trusted CDP mouse move,
// so CSS :hover rules and mouseover/mouseenter handlers react as they do
// for a person; nothing is pressed.
func hover(r *run) (any, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	t, err := r.pageTarget()
	if err != nil {
		return nil, err
	}
	el, warnings, err := r.locateForInput(t, loc)
	if err != nil {
		return nil, err
	}
	// Moved, then checked to hold still (a hover may open something
	// over the element, which is not a failure).
	if el, err = r.moveOnto(t.TabID, el, false, nil); err != nil {
		return nil, err
	}
	var under *pageMatch
	if err := r.runPageTop(t.TabID, nil, underPointerScript, map[string]any{"x": el.X, "y": el.Y}, &under); err != nil {
		warnings = append(warnings, "could not tell what is under the pointer: "+err.Error())
	}
	res, err := r.observe(t, pointed(el, loc), warnings...)
	if err != nil {
		return nil, err
	}
	return hoverResult{actResult: res, Under: under}, nil
}

var underPointerScript = script("underPointer", "page/locate.js")
