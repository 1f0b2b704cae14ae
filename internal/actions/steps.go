package actions

import (
	"slices"
	"strconv"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The steps every page action goes through, in this order, each a type
// of its own that the run (run.go) builds:
//
//	t, err := r.guards().pageTarget()     // target → guard: the tab, and may the action touch it now
//	l := r.locator()
//	err = l.locate(t, loc)                // locate: the element, for an act through the DOM
//	err = l.locateForInput(t, loc)        //   or the point, for trusted CDP input, once input would reach it
//	err = l.click("left", 1)              // act on what l holds: trusted input (click, hover), or a page script (act)
//	return r.observer().observeLocated(l) // observe: dialogs, navigation, opened tabs → the result
//
// The guards hand the tab on as a value. The locator keeps what it found
// (found): the tab, the element — which carries what the waits for it
// took (el.waited) into the result's waitedMs, waitedFor and warnings —
// and the warnings so far; its act updates the element, and the observe
// reads it all from the locator.
//
// A handler checks its own parameters first and shapes its own result
// last; the steps in between are the same for all of them.

// pageTarget is the first two steps: the target tab, let through the
// guards.
func (r guards) pageTarget() (browser.TabInfo, error) {
	t, err := r.target()
	if err != nil {
		return browser.TabInfo{}, err
	}
	return r.guard(t)
}

// target is the tab a page action works on (docs/design.md#workspaces):
// tabId, else the
// active tab of an explicit workspace, else of Chrome's current window.
// Run and session IDs do not steer page actions.
func (r guards) target() (browser.TabInfo, error) {
	if r.tabID != nil {
		return r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: *r.tabID})
	}
	return r.activeTab()
}

// activeTab is the tab a page action targets when no tabId is given: the
// active tab of an explicit workspace, else of Chrome's current window.
func (r guards) activeTab() (browser.TabInfo, error) {
	s, err := r.browserState()
	if err != nil {
		return browser.TabInfo{}, err
	}
	if id := r.namedWorkspace; id != "" {
		ws, ok := r.reg().Workspace(id)
		if !ok {
			return browser.TabInfo{}, protocol.Errorf(protocol.CodeTabNotFound, "workspace %q has no window; open a page in it first", id)
		}
		t, ok := s.ActiveTabIn(ws.WindowID)
		if !ok {
			return browser.TabInfo{}, protocol.Errorf(protocol.CodeTabNotFound, "workspace %q has no active tab; open a page in it or pass tabId", id)
		}
		return t, nil
	}
	if t, ok := s.ActiveTab(); ok {
		return t, nil
	}
	return browser.TabInfo{}, protocol.Errorf(protocol.CodeTabNotFound, "Chrome has no active tab in its current window; pass tabId (see status)")
}

// pageTargetLooking is pageTarget for an action whose first step on the
// page only looks (a locate) and readies the debugger (attach, answering
// a dialog left open). For the bridge's own tab named by tabId, that step
// runs beside the look at the tab, which takes a round trip off the path
// of the action: the turn on the tab is taken first (a page another
// action is changing is not looked at), and the guards still judge the
// tab before anything acts on it — what the look found on a tab they
// refuse is dropped. The bridge's own tabs are never the user's incognito
// tabs; a page of theirs that a site rule refuses (it went there by
// itself) is looked at and then refused. Any other tab is guarded first
// and looked at after, as before.
func (r guards) pageTargetLooking(look func(tabID int) error) (browser.TabInfo, error) {
	if r.tabID == nil || !r.reg().IsOwned(*r.tabID) {
		t, err := r.pageTarget()
		if err != nil {
			return browser.TabInfo{}, err
		}
		return t, look(t.TabID)
	}
	id := *r.tabID
	if _, err := r.admit(id); err != nil {
		return browser.TabInfo{}, err
	}
	var t browser.TabInfo
	var lookErr error
	err := both(func() (err error) {
		t, err = r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: id})
		return err
	}, func() error {
		lookErr = look(id)
		return nil
	})
	if err != nil {
		return browser.TabInfo{}, err
	}
	if err := r.judge(t, true); err != nil {
		return browser.TabInfo{}, err
	}
	return t, lookErr
}

// seenTarget is the target and guard steps of an action done in one trip
// (type's, see typeInOneTrip): the bridge's own tab named by tabId, as
// the last action on it saw it (lastSeen), its turn taken and judged as
// seen, with no look at the tab — the action's batch has the extension
// check that the tab still shows that URL (ExpectURL). ok false: the
// quick way does not apply (another tab, one never seen, one whose turn
// had to be waited for or that the guards refuse as seen: the usual way
// looks at the tab and judges, or refuses, it as it is).
func (r guards) seenTarget() (t browser.TabInfo, ok bool, err error) {
	if r.tabID == nil || !r.reg().IsOwned(*r.tabID) {
		return t, false, nil
	}
	seen, known := r.observer().lastSeen(*r.tabID)
	if !known {
		return t, false, nil
	}
	waited, err := r.admit(seen.TabID)
	if err != nil {
		return t, false, err
	}
	if waited || r.judge(seen, true) != nil {
		return t, false, nil
	}
	return seen, true, nil
}

// guard lets an action that reads or drives tab t go on, or says why
// not: it takes the action's turn on the tab, refuses the user's own
// incognito tabs, a tab on the browser's error page and a page the bridge
// may not read (a refused file: URL), then asks Env.Guard. It returns the
// tab as it is once the action has its turn.
func (r guards) guard(t browser.TabInfo) (browser.TabInfo, error) {
	return r.guardTab(t, true)
}

// guardNavigation is guard for an action that loads another page into
// tab t (open with tabId or target "current"): what the tab shows now is
// not read, so neither an error page nor a refused file: URL stops it.
func (r guards) guardNavigation(t browser.TabInfo) (browser.TabInfo, error) {
	return r.guardTab(t, false)
}

func (r guards) guardTab(t browser.TabInfo, reading bool) (browser.TabInfo, error) {
	waited, err := r.admit(t.TabID)
	if err != nil {
		return browser.TabInfo{}, err
	}
	if waited {
		// The action before may have changed the tab: read it again.
		if t, err = r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: t.TabID}); err != nil {
			return browser.TabInfo{}, err
		}
	}
	if err := r.judge(t, reading); err != nil {
		return browser.TabInfo{}, err
	}
	return t, nil
}

// admit is the first half of the guards, which needs only the tab's ID:
// a tab in the user's hands, or waiting for their answer (ask.go), and
// another session's tab are refused at once, before the action waits
// for its turn on the tab, which it takes then; waited says it had to.
func (r guards) admit(tabID int) (waited bool, err error) {
	if err := r.handoffs.CheckIn(r.instance, r.action, tabID); err != nil {
		return false, err
	}
	if err := r.mayTouch(tabID); err != nil { // ownership.go
		return false, err
	}
	return r.takeTurn(tabID)
}

// judge is the second half of the guards, on the tab as it is once the
// action has its turn: a workspace's own page, the user's own incognito
// tabs, a page the bridge may not read (reading), then Env.Guard.
func (r guards) judge(t browser.TabInfo, reading bool) error {
	if t.WorkspacePage {
		return workspacePageRefused(r.reg().Workspaces(), r.action, t)
	}
	if err := r.notPrivate(t); err != nil {
		return err
	}
	if reading {
		if err := readable(t); err != nil {
			return err
		}
	}
	// A navigation is judged by where it goes, not by the page it leaves.
	judged := t
	if !reading && r.url != "" {
		judged.URL = r.url
	}
	return r.askGuard(judged)
}

// askGuard asks Env.Guard (site rules, a hand-off in progress) about the
// page an action acts on or goes to.
func (r guards) askGuard(t browser.TabInfo) error {
	if r.envGuard == nil {
		return nil
	}
	return r.envGuard(r.ctx, r.browser, r.action, t)
}

// takeTurn waits, for an action whose spec ChangesPage, until no other
// such action holds tab tabID, and holds the tab until the action ends
// (Run lets go of it); waited says it had to wait, when the action before
// may have changed the tab. Reading actions do not wait.
func (r guards) takeTurn(tabID int) (waited bool, err error) {
	if *r.unlockTab != nil || !r.changesPage {
		return false, nil
	}
	unlock, waited, err := r.tabs.lock(r.ctx, tabKey{r.browser.Info().Instance, tabID}, r.progress)
	if err != nil {
		return false, err
	}
	*r.unlockTab = unlock
	return waited, nil
}

// notPrivate refuses the user's own incognito tabs: that browsing stays
// private (status redacts it), and page actions may not read or drive
// it. The incognito tabs the bridge opened are its own.
func (r guards) notPrivate(t browser.TabInfo) error {
	_, owned := r.reg().Owned(t.TabID) // renews the entry if it is ours
	if t.Incognito && !owned {
		return protocol.Errorf(protocol.CodeIncognitoNotAllowed, "tab %d is one of your own incognito tabs; the bridge only works in incognito tabs it opened (search, or open with incognito: true)", protocol.Tab(t.TabID))
	}
	return nil
}

// workspacePageRefused is the refusal of action on tab t, a
// workspace's own page (ui/workspace.html): the quiet tab that keeps the
// workspace's window and tab group open between the agent's pages. No
// workspace owns it, so nothing stopped any session from loading a page
// into it, after which closeWorkspace left the window and a saved tab
// group behind; read or driven, it is the extension's own
// page, not a site; closed alone, it takes the workspace's tabs out of
// their group (the extension puts them back with a new page). Page
// actions, navigation and close all refuse it; status lists it
// (workspacePage: true), and closeWorkspace closes it with its window.
func workspacePageRefused(workspaces []registry.Workspace, action string, t browser.TabInfo) error {
	ws := ""
	for _, w := range workspaces {
		if w.WindowID == t.WindowID {
			ws = w.ID
		}
	}
	if ws == "" {
		return protocol.Errorf(protocol.CodeProtectedPage, "tab %d is a Browser Bridge workspace page, which keeps a workspace's window and tab group open: %s may not load, read, drive or close it. Open a page (open) and act on that tab; to end the workspace, close with closeWorkspace: true and the browserWorkspaceId its title names", protocol.Tab(t.TabID), action)
	}
	return protocol.Errorf(protocol.CodeProtectedPage, "tab %d is the page of workspace %q that keeps its window and tab group open: %s may not load, read, drive or close it. Open a page in the workspace (open with browserWorkspaceId: %q) and act on that tab; to end the workspace, close with closeWorkspace: true and browserWorkspaceId: %q", protocol.Tab(t.TabID), ws, action, ws, ws)
}

// readable refuses a tab that shows the browser's error page (there is
// nothing of the site in it) or a file the bridge may not read.
func readable(t browser.TabInfo) error {
	if t.LoadError != "" {
		return protocol.Errorf(protocol.CodeProtectedPage, "tab %d shows the browser's error page: %s could not be loaded (%s); check the URL or try again when the site is reachable (open it again)", protocol.Tab(t.TabID), t.URL, t.LoadError)
	}
	return refuseFileURL(t.TabID, t.URL)
}

// locate finds loc's element in tab t for an action done through the DOM
// (a page script acts on it), searching every frame (see find), and keeps
// it. No debugger is attached, so Chrome's debugging bar does not show. A
// locator that matches nothing yet is looked for again, within the call's
// deadline: an element appearing a moment after the previous action (a
// panel that opens) is found.
func (r *locator) locate(t browser.TabInfo, loc tool.Locator) error {
	return r.locateDOM(t, loc, false)
}

// locateEnabled is locate for setting a control through the DOM (select,
// check), which a person can do only once it is enabled: a disabled
// control is looked at again until it is, within the call's deadline.
func (r *locator) locateEnabled(t browser.TabInfo, loc tool.Locator) error {
	return r.locateDOM(t, loc, true)
}

func (r *locator) locateDOM(t browser.TabInfo, loc tool.Locator, enabled bool) error {
	w := newWaiter(r.reach, r.timeoutMs)
	for {
		el, err := r.find(t.TabID, loc, false)
		switch {
		case err == nil && (!enabled || !el.disabled):
			el.waited = w.took()
			r.found = found{tab: t, el: el, named: true}
			return nil
		case err == nil:
			if !w.again(r.reach, string(disabled)) {
				return blocker{kind: disabled}.fail(el, w)
			}
		case protocol.CodeOf(err) == protocol.CodeElementNotFound && loc.Ref == "" && !loc.IsPoint():
			if !w.again(r.reach, "not on the page yet") {
				return withWaited(err, w)
			}
		default:
			return err
		}
		if err := w.sleep(r.reach); err != nil {
			return err
		}
	}
}

// locateForInput readies tab t for trusted CDP input (prepareInput), then
// finds loc's element, scrolls it into view and waits, within the call's
// deadline, until input would reach it: visible, enabled, and on top at a
// point inside its own boxes, which is the point to act on, in top-level
// viewport coordinates (see actionable.go). Still covered at the end, it
// fails with element_obscured naming the cover. It keeps the element, and
// a warning when the locator matched several elements.
func (r *locator) locateForInput(t browser.TabInfo, loc tool.Locator) error {
	return r.locateFor(t, loc, func(Element) bool { return true })
}

// locateFor is locateForInput where hit says, for the element found,
// whether it must be on top at its point (press focuses an element of the
// top frame through the DOM, where what covers it does not matter).
func (r *locator) locateFor(t browser.TabInfo, loc tool.Locator, hit func(Element) bool) error {
	if err := r.prepareInput(t); err != nil {
		return err
	}
	el, err := r.findReady(t.TabID, loc, hit)
	if err != nil {
		return err
	}
	var warnings []string
	if el.Matches > 1 && loc.Nth == nil {
		warnings = append(warnings, matchesWarning(el, loc))
	}
	r.found = found{tab: t, el: el, named: !loc.IsPoint(), warnings: warnings}
	return nil
}

// act runs the page script fn of act.js on the element the locator found.
func (r *locator) act(fn string, args actArgs, out any) error {
	return r.actor().act(r.tab.TabID, r.el, fn, args, out)
}

// click clicks the element the locator found, with trusted input (see
// mouseClick), and keeps it as clicked, with what the wait for it took.
func (r *locator) click(button string, count int) (err error) {
	r.el, err = r.actor().mouseClick(r.tab.TabID, r.el, button, count)
	return err
}

// hover moves the mouse onto the element the locator found, once it
// holds still (a hover may open something over the element, which is
// not a failure), and keeps it as measured then.
func (r *locator) hover() (err error) {
	r.el, err = r.moveOnto(r.tab.TabID, r.el, false, nil)
	return err
}

// prepareInput readies a tab for CDP input: the tab is made active in its
// window (the first CDP input event to a background tab takes ~5 s, see
// E2E.md) and the debugger is attached before locating, because the
// "started debugging" bar that attaching shows moves every coordinate.
func (r *locator) prepareInput(t browser.TabInfo) error {
	if !t.Active {
		if err := r.b.TabActivate(r.ctx, protocol.TabActivateParams{TabID: t.TabID}); err != nil {
			return err
		}
	}
	// Attaching also finds a dialog left open (by an earlier action, a
	// timer, the page's load): it is answered before anything else.
	return r.answers().answerOpenDialogs(t.TabID)
}

func pluralMatches(n int) string {
	return "the locator matched " + strconv.Itoa(n) + " elements; used the first visible one (pass nth to pick another)"
}

// matchesWarning says which of several matches was taken.
func matchesWarning(el Element, loc tool.Locator) string {
	n := strconv.Itoa(el.Matches)
	if loc.Text != "" && el.rank > 0 {
		return "the locator matched " + n + " elements; took " + describeEl(el) + ", the first that can be clicked (pass nth to pick another)"
	}
	return "the locator matched " + n + " elements; took the first visible one, " + describeEl(el) + " (pass nth to pick another)"
}

// pointed is the element a result names after an act on el: none when
// the locator was a point, since nothing was located.
func pointed(el Element, loc tool.Locator) *Element {
	if loc.IsPoint() {
		return nil
	}
	return &el
}

// observeLocated is observe after an act on what locator l found: its
// tab, the element when the result names it, the waits for it and the
// warnings so far.
func (r observer) observeLocated(l *locator) (*tool.ActResult, error) {
	var el *Element
	if l.named {
		el = &l.el
	}
	return r.observe(l.tab, el, l.el.waited, l.warnings...)
}

// observe is the last step: the result of an act on tab before (and on
// el, if not nil). It reads the tab as it is now and, for actions whose
// spec OpensTabs, the tabs its page opened; it reports the dialogs the
// act answered, and when the act started a navigation, follows it to the
// page it led to (waiting for its load within the call's deadline, at
// most 10 s).
func (r observer) observe(before browser.TabInfo, el *Element, w inputWait, warnings ...string) (*tool.ActResult, error) {
	return r.observeTab(before, nil, el, w, warnings...)
}

// observeTab is observe with the tab as it is now already read (after,
// when not nil: an input's batch read it in its own round trip).
func (r observer) observeTab(before browser.TabInfo, after *browser.TabInfo, el *Element, w inputWait, warnings ...string) (*tool.ActResult, error) {
	warnings = append(warnings, w.notes...)
	var t browser.TabInfo
	var opened []tool.Tab
	change := pageChangeAsync(r, before.TabID, el) // beside tab.get (pagechange.go)
	err := both(func() (err error) {
		if after != nil {
			t = *after
			return nil
		}
		t, err = r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: before.TabID})
		return err
	}, func() error {
		// Clicks and key presses open tabs (links, pop-ups); typing and
		// setting fields do not: they skip the round trip.
		if r.opensTabs {
			opened = r.openedTabs(before.TabID) // independent of tab.get
		}
		return nil
	})
	if err != nil {
		if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			// The action itself worked and closed the tab (a "close"
			// button, window.close()): report it, so nobody retries it.
			return &tool.ActResult{Page: pageOf(before), Element: resultElement(el), Outcome: tool.Outcome{OpenedTabs: opened,
				WaitedMs: w.ms, WaitedFor: w.what, Warnings: append(warnings, "the tab closed after the action")}}, nil
		}
		return nil, err
	}
	r.saw(t)
	res := &tool.ActResult{Page: pageOf(t), Element: resultElement(el), Outcome: tool.Outcome{OpenedTabs: opened, WaitedMs: w.ms, WaitedFor: w.what, Warnings: warnings}}
	if d := r.answers().lastDialog(); d != nil {
		res.Dialog = d
		res.Warnings = append(res.Warnings, r.answers().dialogWarnings()...)
	}
	// A new URL, or a load that started with the action (a page that was
	// still loading before it proves nothing).
	if t.URL != before.URL || (t.Status == "loading" && before.Status != "loading") {
		res.Navigated = true
		wait := min(r.loadWait(), int((10 * time.Second).Milliseconds()))
		if t, err := r.b.TabWaitLoad(r.ctx, protocol.TabWaitLoadParams{TabID: t.TabID, WaitMs: wait}); err == nil {
			res.URL, res.Title = t.URL, t.Title
			if t.Loaded != nil && !*t.Loaded {
				res.Warnings = append(res.Warnings, "the page it led to was still loading")
			}
		} else if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			res.Warnings = append(res.Warnings, "the tab closed after the action")
		}
	} else {
		res.PageChange = change()
	}
	return res, nil
}

// openedTabs adopts and returns the tabs that tabID's page has opened and
// the bridge did not know yet — when tabID is the bridge's own. A tab
// that appears only later is adopted by the next status.
func (r observer) openedTabs(tabID int) []tool.Tab {
	reg := r.reg()
	if !reg.IsOwned(tabID) {
		return nil
	}
	tabs, err := r.b.TabOpened(r.ctx, protocol.TabOpenedParams{TabID: tabID})
	if err != nil {
		return nil // a report, not the action: status adopts them too
	}
	var fresh []tool.Tab
	for _, t := range tabs {
		if slices.Contains(adoptOpened(reg, []browser.TabInfo{t}), t.TabID) {
			fresh = append(fresh, tool.Tab(t)) // the same fields
		}
	}
	return fresh
}

// pageOf is the tab a result concerns.
func pageOf(t browser.TabInfo) tool.Page {
	return tool.Page{TabID: t.TabID, URL: t.URL, Title: t.Title}
}

// resultElement is the element a result names (nil: none).
func resultElement(el *Element) *tool.Element {
	if el == nil {
		return nil
	}
	return &el.Element
}

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
