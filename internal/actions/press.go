package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/keys"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func init() { register("press", press) }

// press sends real key events (keys like "Enter", "Control+A",
// "Shift+Tab"), after focusing an element when a locator is given.
func press(r *run) (any, error) {
	if _, err := keys.Parse(r.in.Keys); err != nil {
		return nil, err
	}
	loc, hasLoc := r.in.Locator, r.in.Locator.Present()
	if mode, err := r.inputMode(loc); err != nil {
		return nil, err
	} else if mode == "dom" {
		return nil, invalid("press always sends real key events; inputMode \"dom\" does not apply (set a value with type and inputMode \"dom\" instead)")
	}
	t, err := r.pageTarget()
	if err != nil {
		return nil, err
	}
	var el *Element
	var warnings []string
	if !hasLoc {
		if err := r.prepareInput(t); err != nil {
			return nil, err
		}
	} else {
		e, w, err := r.locateForInput(t, loc)
		if err != nil {
			return nil, err
		}
		if loc.X != nil || e.FrameID != 0 {
			err = r.mouseClick(t.TabID, e.X, e.Y, "left", 1)
		} else {
			err = r.act(t.TabID, e, "focus", nil, nil)
		}
		if err != nil {
			return nil, err
		}
		el, warnings = &e, w
	}
	if err := r.pressKeys(t.TabID, r.in.Keys); err != nil {
		return nil, err
	}
	return r.observe(t, el, warnings...)
}

// pressKeys sends the chords of keys to the tab in one round trip.
func (r *run) pressKeys(tabID int, names string) error {
	chords, err := keys.Parse(names)
	if err != nil {
		return err
	}
	var cmds []protocol.CDPCommand
	for _, c := range chords {
		for _, e := range c.Events() {
			cmds = append(cmds, cdpCmd("Input.dispatchKeyEvent", e))
		}
	}
	return r.cdpBatch(tabID, cmds...)
}
