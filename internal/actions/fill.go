package actions

import (
	"fmt"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("fill", fill) }

// fill sets a form's fields in order, each through the steps of the
// action that sets its kind — type (a value, which replaces the field's
// content), select (option or options) or check (checked) — run as that
// action within this call (see sub). The first field that fails stops
// the call; the fields set before it stay set, and the error names them.
// The result says how the fields together changed the page (span,
// pagechange.go): since before the first was set, after the last.
func fill(r *run) (*tool.FillResult, error) {
	fields, kinds, err := r.in.FillFields()
	if err != nil {
		return nil, err
	}
	res := &tool.FillResult{Fields: []tool.FilledField{}}
	tabID := r.in.TabID
	marks := spanOf(r.mark)
	for i, f := range fields {
		s := r.sub(fieldInput(r.in, f, kinds[i], tabID))
		s.mark = marks.next(i == len(fields)-1)
		done, act, err := setField(s, kinds[i])
		r.unlockTab, s.unlockTab = s.unlockTab, nil // the turn on the tab stays with the fill
		if err != nil {
			return nil, fillFailed(err, i, f, res.Fields)
		}
		done.Index = i
		res.Page = act.Page
		res.Navigated = res.Navigated || act.Navigated
		if act.Dialog != nil {
			res.Dialog = act.Dialog
		}
		res.Warnings = append(res.Warnings, act.Warnings...)
		res.PageChange = act.PageChange // the last field's: the whole fill's
		marks.ran(!act.Navigated && (done.Element == nil || done.Element.FrameID == 0))
		res.Fields = append(res.Fields, done)
		id := act.TabID
		tabID = &id // every field in the tab the first one was set in
	}
	return res, nil
}

// fieldInput is the input of the action that sets field f: the fill's
// common parameters, the field's locator, and what to set.
func fieldInput(fill *tool.Input, f tool.FillField, kind string, tabID *int) *tool.Input {
	in := &tool.Input{Action: kind, TabID: tabID, Browser: fill.Browser, BrowserWorkspaceID: fill.BrowserWorkspaceID,
		RunID: fill.RunID, TimeoutMs: fill.TimeoutMs, Dialog: fill.Dialog, Locator: f.Locator}
	switch kind {
	case "type":
		in.Value, in.Clear = *f.Value, true
	case "select":
		in.Option, in.Options = f.Option, f.Options
	case "check":
		in.Checked = f.Checked
	}
	return in
}

// setField runs the handler of kind on s and says what the field became.
func setField(s *run, kind string) (tool.FilledField, *tool.ActResult, error) {
	switch kind {
	case "type":
		res, err := typeText(s)
		if err != nil {
			return tool.FilledField{}, nil, err
		}
		return tool.FilledField{Set: "typed", Element: res.Element, Value: res.Value, ValueHidden: res.ValueHidden, Warnings: res.Warnings}, &res.ActResult, nil
	case "select":
		res, err := selectOption(s)
		if err != nil {
			return tool.FilledField{}, nil, err
		}
		return tool.FilledField{Set: "selected", Element: res.Element, Selected: res.Selected, Warnings: res.Warnings}, &res.ActResult, nil
	default:
		res, err := check(s)
		if err != nil {
			return tool.FilledField{}, nil, err
		}
		return tool.FilledField{Set: "checked", Element: res.Element, Checked: &res.Checked, Warnings: res.Warnings}, &res.ActResult, nil
	}
}

// fillFailed is the error of field i, which stopped the fill: its own
// code, naming the field, and saying which fields were set before it.
func fillFailed(err error, i int, f tool.FillField, done []tool.FilledField) error {
	pe := protocol.AsError(err)
	set := "no field was set"
	if n := len(done); n > 0 {
		idx := make([]string, n)
		for j, d := range done {
			idx[j] = fmt.Sprint(d.Index)
		}
		set = fmt.Sprintf("fields %s were set and stay so (fill does not undo them)", strings.Join(idx, ", "))
		if n == 1 {
			set = fmt.Sprintf("field %s was set and stays so (fill does not undo it)", idx[0])
		}
	}
	return protocol.Errorf(pe.Code, "fill stopped at %s: %s; %s", f.Describe(i), pe.Message, set)
}
