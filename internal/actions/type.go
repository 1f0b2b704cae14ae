package actions

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
	mode, err := r.inputMode()
	if err != nil {
		return nil, err
	}
	t, err := r.pageTarget()
	if err != nil {
		return nil, err
	}
	var el Element
	var warnings []string
	if mode == "dom" {
		if loc.X != nil {
			return nil, invalid("inputMode \"dom\" needs an element locator, not a point")
		}
		if el, err = r.locate(t.TabID, loc, false); err != nil {
			return nil, err
		}
		if err := r.act(t.TabID, el, "typeDom", map[string]any{"value": r.in.Value, "clear": r.in.Clear}, nil); err != nil {
			return nil, err
		}
	} else {
		if el, warnings, err = r.typingTarget(t, loc); err != nil {
			return nil, err
		}
		if err := r.focusForTyping(t.TabID, el, loc); err != nil {
			return nil, err
		}
		if r.in.Value != "" {
			if err := r.cdpBatch(t.TabID, cdpCmd("Input.insertText", map[string]any{"text": r.in.Value})); err != nil {
				return nil, err
			}
		}
	}
	res, err := r.finish(t, &el, warnings...)
	if err != nil {
		return nil, err
	}
	out := typeResult{actResult: res}
	if loc.X == nil && !res.Navigated {
		var v struct {
			Value  *string `json:"value"`
			Hidden bool    `json:"hidden"`
		}
		if err := r.act(t.TabID, el, "valueOf", nil, &v); err == nil {
			out.Value, out.Hidden = v.Value, v.Hidden
		}
	}
	return out, nil
}

// focusForTyping puts the caret in el: a DOM focus for elements of the top
// frame, a real click for a point or an element in a child frame (focus()
// inside a frame does not move the page's focus into that frame). With
// clear it selects the content and deletes it.
func (r *run) focusForTyping(tabID int, el Element, loc Locator) error {
	if loc.X != nil || el.FrameID != 0 {
		if err := r.mouseClick(tabID, el.X, el.Y, "left", 1); err != nil {
			return err
		}
		if loc.X != nil {
			if r.in.Clear {
				return r.pressKeys(tabID, "Control+A Delete")
			}
			return nil
		}
	}
	var f struct {
		Focused  bool `json:"focused"`
		Editable bool `json:"editable"`
		Empty    bool `json:"empty"`
	}
	if err := r.act(tabID, el, "focus", map[string]any{"selectAll": r.in.Clear}, &f); err != nil {
		return err
	}
	if !f.Focused {
		// DOM focus did not stick (a focus handler moved it): click the
		// element itself — measured now, as the top-frame path skipped it.
		p, err := r.pointOf(tabID, el)
		if err != nil {
			return err
		}
		if err := r.mouseClick(tabID, p.X, p.Y, "left", 1); err != nil {
			return err
		}
	}
	if !f.Editable {
		return invalid("%s %q does not take text (not an input, textarea or editable element, or it is disabled/read-only)", el.Tag, firstNonEmpty(el.Name, el.Text))
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
func (r *run) typingTarget(t TabInfo, loc Locator) (Element, []string, error) {
	if err := r.prepareInput(t); err != nil {
		return Element{}, nil, err
	}
	el, err := r.locate(t.TabID, loc, false)
	if err != nil {
		return Element{}, nil, err
	}
	if el.FrameID != 0 || loc.X != nil {
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
