package actions

import (
	"errors"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("type", typeText) }

type typeResult struct {
	actResult
	Value  *string `json:"value,omitempty"`
	Hidden bool    `json:"valueHidden,omitempty"`
}

// typeText focuses the target, optionally selects its content so the text
// replaces it (clear), and inserts value through CDP Input.insertText —
// real editing, so controlled inputs and rich editors see ordinary input
// events. inputMode "dom" sets the value and fires input/change instead.
func typeText(r *run) (any, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	if r.in.Value == "" && !r.in.Clear {
		return nil, invalid("type needs value (the text to type); to empty a field pass clear: true with an empty value")
	}
	mode, err := r.inputMode(loc)
	if err != nil {
		return nil, err
	}
	t, err := r.pageTarget()
	if err != nil {
		return nil, err
	}
	el, warnings, err := r.typeInto(t, loc, mode)
	if err != nil {
		return nil, err
	}
	return r.observeTyped(t, el, loc, warnings)
}

// typeInto locates the field and types the call's value into it: through
// the DOM (inputMode "dom"), or focused and with trusted CDP input.
func (r *run) typeInto(t browser.TabInfo, loc tool.Locator, mode string) (Element, []string, error) {
	if mode == "dom" {
		el, err := r.locate(t, loc)
		if err != nil {
			return Element{}, nil, err
		}
		return el, nil, r.act(t.TabID, el, "typeDom", map[string]any{"value": r.in.Value, "clear": r.in.Clear}, nil)
	}
	el, warnings, err := r.typingTarget(t, loc)
	if err != nil {
		return Element{}, nil, err
	}
	if err := r.focusForTyping(t.TabID, el, loc); err != nil {
		return Element{}, nil, err
	}
	if r.in.Value != "" {
		if err := r.cdpBatch(t.TabID, cdpCmd("Input.insertText", insertText{Text: r.in.Value})); err != nil {
			return Element{}, nil, err
		}
	}
	return el, warnings, nil
}

// observeTyped is observe for type, with the field's value as it is now.
// The tab's state and the field's value are read at once (independent
// round trips); a value read from a page that navigated away is dropped.
func (r *run) observeTyped(t browser.TabInfo, el Element, loc tool.Locator, warnings []string) (typeResult, error) {
	var res actResult
	var v struct {
		Value  *string `json:"value"`
		Hidden bool    `json:"hidden"`
	}
	var valueErr error
	err := both(func() (err error) {
		res, err = r.observe(t, &el, warnings...)
		return err
	}, func() error {
		if loc.IsPoint() {
			valueErr = errNoValue
			return nil
		}
		valueErr = r.act(t.TabID, el, "valueOf", nil, &v)
		return nil
	})
	if err != nil {
		return typeResult{}, err
	}
	out := typeResult{actResult: res}
	if valueErr == nil && !res.Navigated {
		out.Value, out.Hidden = v.Value, v.Hidden
	}
	return out, nil
}

// focusForTyping puts the caret in el: a DOM focus for elements of the top
// frame, a real click for a point or an element in a child frame (focus()
// inside a frame does not move the page's focus into that frame). An
// element that takes no text is refused before anything is clicked. With
// clear it selects the content and deletes it.
func (r *run) focusForTyping(tabID int, el Element, loc tool.Locator) error {
	if loc.X != nil {
		if err := r.mouseClick(tabID, el.X, el.Y, "left", 1); err != nil {
			return err
		}
		if r.in.Clear {
			return r.pressKeys(tabID, "Control+A Delete")
		}
		return nil
	}
	var f struct {
		Focused  bool `json:"focused"`
		Editable bool `json:"editable"`
		Empty    bool `json:"empty"`
	}
	if err := r.act(tabID, el, "focus", map[string]any{"selectAll": r.in.Clear}, &f); err != nil {
		return err
	}
	if !f.Editable {
		return invalid("%s %q does not take text (not a text input, textarea or editable element, or it is disabled/read-only)", el.Tag, firstNonEmpty(el.Name, el.Text))
	}
	if el.FrameID != 0 || !f.Focused {
		// A child frame's element gets a real click (measured by
		// typingTarget); so does one whose DOM focus did not stick (a
		// focus handler moved it) — measured now.
		p := el
		if el.FrameID == 0 {
			var err error
			if p, err = r.pointOf(tabID, el); err != nil {
				return err
			}
		}
		if err := r.mouseClick(tabID, p.X, p.Y, "left", 1); err != nil {
			return err
		}
		if el.FrameID != 0 && r.in.Clear {
			// The click put the caret at the point: select all again.
			if err := r.act(tabID, el, "focus", map[string]any{"selectAll": true}, &f); err != nil {
				return err
			}
		}
	}
	if r.in.Clear && !f.Empty && r.in.Value == "" {
		// The content is selected and nothing will replace it: delete it.
		return r.pressKeys(tabID, "Delete")
	}
	return nil
}

// typingTarget locates the element to type into. Only a point or an
// element in a child frame needs the scroll-and-measure step (it gets a
// real click); a top-frame element is focused through the DOM, which
// scrolls it into view by itself — one round trip less.
func (r *run) typingTarget(t browser.TabInfo, loc tool.Locator) (Element, []string, error) {
	// Attaching the debugger and locating do not depend on each other here:
	// a top-frame field is focused through the DOM, where the debugging
	// bar's shift of coordinates does not matter, and a point is measured
	// after both.
	var el Element
	err := both(func() error { return r.prepareInput(t) }, func() (err error) {
		el, err = r.locate(t, loc)
		return err
	})
	if err != nil {
		return Element{}, nil, err
	}
	// A point is already one (locatePoint); an element in a child frame
	// gets measured for its click.
	if el.FrameID != 0 && loc.X == nil {
		if el, err = r.pointOf(t.TabID, el); err != nil {
			return Element{}, nil, err
		}
	}
	var warnings []string
	if el.Matches > 1 && loc.Nth == nil {
		warnings = append(warnings, pluralMatches(el.Matches))
	}
	return el, warnings, nil
}

// insertText is the params of CDP's Input.insertText.
type insertText struct {
	Text string `json:"text"`
}

// errNoValue marks a type into a point, whose field has no value to read.
var errNoValue = errors.New("no element to read a value from")

// both runs a and b at the same time and returns a's error, else b's.
func both(a, b func() error) error {
	done := make(chan error, 1)
	go func() { done <- b() }()
	errA := a()
	errB := <-done
	if errA != nil {
		return errA
	}
	return errB
}
