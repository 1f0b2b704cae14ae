package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() {
	register("select", selectOption)
	register("check", check)
	register("scroll", scroll)
}

// selectOption picks options of a <select> by value or label.
func selectOption(r *run) (*tool.SelectResult, error) {
	opts := r.in.Options
	if r.in.Option != "" {
		if len(opts) > 0 {
			return nil, invalid("give option or options, not both")
		}
		opts = []string{r.in.Option}
	}
	if len(opts) == 0 {
		return nil, invalid("select needs option (a value or label) or options (several)")
	}
	l, err := r.domTarget()
	if err != nil {
		return nil, err
	}
	var out struct {
		Values []string `json:"values"`
		Labels []string `json:"labels"`
	}
	if err := l.act("select", actArgs{Options: opts}, &out); err != nil {
		return nil, err
	}
	res, err := r.observer().observeLocated(l)
	if err != nil {
		return nil, err
	}
	return &tool.SelectResult{ActResult: *res, Selected: out.Values, SelectedLabels: out.Labels}, nil
}

// check sets a checkbox, radio or switch, idempotently.
func check(r *run) (*tool.CheckResult, error) {
	want := true
	if r.in.Checked != nil {
		want = *r.in.Checked
	}
	l, err := r.domTarget()
	if err != nil {
		return nil, err
	}
	var out struct {
		Checked bool `json:"checked"`
		Changed bool `json:"changed"`
	}
	if err := l.act("check", actArgs{Checked: &want}, &out); err != nil {
		return nil, err
	}
	res, err := r.observer().observeLocated(l)
	if err != nil {
		return nil, err
	}
	return &tool.CheckResult{ActResult: *res, Checked: out.Checked, Changed: out.Changed}, nil
}

// scroll scrolls to the top or bottom, by a delta, or an element into
// view, in the scrollable container that holds it.
func scroll(r *run) (*tool.ScrollResult, error) {
	if r.in.To.Drop() != nil {
		return nil, invalid("to for scroll is \"top\" or \"bottom\"; to scroll an element into view, give its locator (an object to is drag's drop target)")
	}
	switch r.in.To.Edge() {
	case "", "top", "bottom":
	default:
		return nil, invalid("to must be \"top\" or \"bottom\"")
	}
	loc, hasLoc := r.in.Locator, r.in.Locator.Present()
	if !hasLoc && r.in.To.Edge() == "" && r.in.DeltaX == nil && r.in.DeltaY == nil {
		return nil, invalid("scroll needs to (\"top\" or \"bottom\"), deltaX/deltaY, or a locator of an element to bring into view")
	}
	if hasLoc && loc.X != nil {
		return nil, invalid("scroll takes an element locator, not a point")
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	args := actArgs{To: r.in.To.Edge(), DeltaX: r.in.DeltaX, DeltaY: r.in.DeltaY}
	var pos struct {
		X         float64 `json:"x"`
		Y         float64 `json:"y"`
		MaxX      float64 `json:"maxX"`
		MaxY      float64 `json:"maxY"`
		Container string  `json:"container"`
	}
	var res *tool.ActResult
	if hasLoc {
		l := r.locator()
		if err := l.locate(t, loc); err != nil {
			return nil, err
		}
		if err := l.act("scroll", args, &pos); err != nil {
			return nil, err
		}
		res, err = r.observer().observeLocated(l)
	} else {
		s := actScript
		s.fn = "scroll"
		if err := r.runPageTop(t.TabID, nil, s, args, &pos); err != nil {
			return nil, err
		}
		res, err = r.observer().observe(t, nil, inputWait{})
	}
	if err != nil {
		return nil, err
	}
	return &tool.ScrollResult{ActResult: *res, ScrollX: pos.X, ScrollY: pos.Y, MaxScrollX: pos.MaxX, MaxScrollY: pos.MaxY, Container: pos.Container}, nil
}
