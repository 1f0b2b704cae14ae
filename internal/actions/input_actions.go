package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"slices"
	"strconv"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// actResult is what a page action returns: the tab (SPEC: every result
// that concerns a tab has tabId, url and title), what it acted on, and
// whether a navigation followed.
type actResult struct {
	TabID     int      `json:"tabId"`
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Element   *Element `json:"element,omitempty"`
	Navigated bool     `json:"navigated,omitempty"`
	// Dialog is the alert/confirm/prompt the action opened, and how the
	// bridge answered it.
	Dialog *Dialog `json:"dialog,omitempty"`
	// OpenedTabs are tabs the page opened during the action (a link to
	// _blank, a pop-up); the bridge takes them as its own.
	OpenedTabs []TabInfo `json:"openedTabs,omitempty"`
	Warnings   []string  `json:"warnings,omitempty"`
}

var actScript = script("", "page/locate.js", "page/act.js")

// act runs an act.js function on el (in its frame) and decodes the value.
func (r *run) act(tabID int, el Element, fn string, args map[string]any, out any) error {
	s := actScript
	s.fn = fn
	if args == nil {
		args = map[string]any{}
	}
	args["ref"] = el.localRef
	fid := el.FrameID
	return r.runPageTop(tabID, &fid, s, args, out)
}

// needLocator returns the call's locator or says which action needs one.
func (r *run) needLocator() (tool.Locator, error) {
	loc := r.in.Locator
	if !loc.Present() {
		return loc, invalid("%s needs a locator: selector, text, role (+ name), label, placeholder, ref (from inspect), or x and y", r.in.Action)
	}
	return loc, nil
}

// prepareInput readies a tab for CDP input: the tab is made active in its
// window (the first CDP input event to a background tab takes ~5 s, see
// E2E.md) and the debugger is attached before locating, because the
// "started debugging" bar that attaching shows moves every coordinate.
func (r *run) prepareInput(t TabInfo) error {
	if !t.Active {
		if err := r.call("tab.activate", map[string]any{"tabId": t.TabID}, nil); err != nil {
			return err
		}
	}
	// Attaching also finds a dialog left open (by an earlier action, a
	// timer, the page's load): it is answered before anything else.
	return r.answerOpenDialogs(t.TabID)
}

// cdpBatch runs CDP commands on the tab in one round trip. When one opens
// a dialog (which stops the page until answered), the dialog is answered
// (see answerDialog) and the rest of the commands are sent; dialogs the
// page opens right after (a loop of alerts) are answered too.
func (r *run) cdpBatch(tabID int, cmds ...map[string]any) error {
	for range maxDialogs {
		var out struct {
			Dialog      *dialogInfo `json:"dialog"`
			Interrupted int         `json:"interrupted"`
		}
		if err := r.call("cdp.batch", map[string]any{"tabId": tabID, "commands": cmds}, &out); err != nil {
			return err
		}
		if out.Dialog == nil {
			return nil
		}
		if err := r.answerDialog(tabID, out.Dialog); err != nil {
			return err
		}
		// The interrupted command completes now that the dialog is gone.
		cmds = cmds[min(out.Interrupted+1, len(cmds)):]
		if len(cmds) == 0 {
			return r.answerDialogsAfter(tabID)
		}
	}
	return tooManyDialogs()
}

// openedTabs adopts and returns the tabs that tabID's page has opened and
// the bridge did not know yet — when tabID is the bridge's own. A tab
// that appears only later is adopted by the next status.
func (r *run) openedTabs(tabID int) []TabInfo {
	reg := r.reg()
	if !reg.IsOwned(tabID) {
		return nil
	}
	var out struct {
		Tabs []TabInfo `json:"tabs"`
	}
	if err := r.call("tab.opened", map[string]any{"tabId": tabID}, &out); err != nil {
		return nil // a report, not the action: status adopts them too
	}
	var fresh []TabInfo
	for _, t := range out.Tabs {
		if slices.Contains(adoptOpened(reg, []TabInfo{t}), t.TabID) {
			fresh = append(fresh, t)
		}
	}
	return fresh
}

func cdpCmd(method string, params any) map[string]any {
	return map[string]any{"method": method, "params": params}
}

// finish builds the result after an action: the tab as it is now, and if
// the action started a navigation, the page it led to (waiting for its
// load within the call's deadline, at most 10 s).
func (r *run) finish(before TabInfo, el *Element, warnings ...string) (actResult, error) {
	var t TabInfo
	var opened []TabInfo
	err := both(func() error {
		return r.call("tab.get", map[string]any{"tabId": before.TabID}, &t)
	}, func() error {
		// Clicks and key presses open tabs (links, pop-ups); typing and
		// setting fields do not: they skip the round trip.
		if r.spec().OpensTabs {
			opened = r.openedTabs(before.TabID) // independent of tab.get
		}
		return nil
	})
	if err != nil {
		if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			// The action itself worked and closed the tab (a "close"
			// button, window.close()): report it, so nobody retries it.
			return actResult{TabID: before.TabID, URL: before.URL, Title: before.Title, Element: el, OpenedTabs: opened,
				Warnings: append(warnings, "the tab closed after the action")}, nil
		}
		return actResult{}, err
	}
	res := actResult{TabID: t.TabID, URL: t.URL, Title: t.Title, Element: el, Warnings: warnings}
	res.OpenedTabs = opened
	if d := r.lastDialog(); d != nil {
		res.Dialog = d
		res.Warnings = append(res.Warnings, r.dialogWarnings()...)
	}
	// A new URL, or a load that started with the action (a page that was
	// still loading before it proves nothing).
	if t.URL != before.URL || (t.Status == "loading" && before.Status != "loading") {
		res.Navigated = true
		wait := min(r.loadWait(), int((10 * time.Second).Milliseconds()))
		if err := r.call("tab.waitLoad", map[string]any{"tabId": t.TabID, "waitMs": wait}, &t); err == nil {
			res.URL, res.Title = t.URL, t.Title
			if t.Loaded != nil && !*t.Loaded {
				res.Warnings = append(res.Warnings, "the page it led to was still loading")
			}
		} else if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			res.Warnings = append(res.Warnings, "the tab closed after the action")
		}
	}
	return res, nil
}

// elementAt locates el and, for CDP input, readies the tab and computes the
// point to act on.
func (r *run) elementAt(t TabInfo, loc tool.Locator) (Element, []string, error) {
	if err := r.prepareInput(t); err != nil {
		return Element{}, nil, err
	}
	el, err := r.locate(t.TabID, loc, true)
	if err != nil {
		return Element{}, nil, err
	}
	var warnings []string
	if el.Matches > 1 && loc.Nth == nil {
		warnings = append(warnings, pluralMatches(el.Matches))
	}
	if el.ObscuredBy != "" {
		warnings = append(warnings, "the element is covered by "+el.ObscuredBy+" at the point acted on; the input went to that element")
	}
	return el, warnings, nil
}

func pluralMatches(n int) string {
	return "the locator matched " + strconv.Itoa(n) + " elements; used the first visible one (pass nth to pick another)"
}
