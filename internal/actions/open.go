package actions

import (
	"context"
	"fmt"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/tool"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
)

func init() { register("open", open) }

// Size of a workspace window (docs/design.md#workspaces).
const (
	windowWidth  = 1280
	windowHeight = 900
)

func open(r *run) (*tool.OpenResult, error) {
	if err := CheckURL(r.in.URL); err != nil {
		return nil, err
	}
	switch {
	case r.in.TabID != nil:
		if r.in.Target != "" {
			return nil, invalid("give either tabId or target, not both")
		}
		return r.opening().navigate(*r.in.TabID)
	case r.in.Target == "current":
		t, err := r.guards().activeTab()
		if err != nil {
			return nil, err
		}
		return r.opening().navigate(t.TabID)
	case r.in.Target == "" || r.in.Target == "new":
		return r.opening().openInWorkspace()
	}
	return nil, invalid("target %q is not known: use \"new\" (default) or \"current\"", r.in.Target)
}

// navigate loads the URL in an existing tab (not one of the user's own
// incognito tabs), taking its turn with other actions on the tab.
func (r opening) navigate(tabID int) (*tool.OpenResult, error) {
	// A navigation is judged by where it goes (guardNavigation): of the
	// tab as it is, only whether it is the user's own incognito tab
	// counts, which the bridge's own tabs never are. So the bridge's own
	// tab is not asked for (a round trip to Chrome's UI thread); a tab
	// that is gone fails the navigation itself with tab_not_found. (When
	// the user wants to be asked before another site is loaded, the
	// tab's URL is needed to tell whether the site changes.)
	t := browser.TabInfo{TabID: tabID}
	if !r.reg().IsOwned(tabID) || r.asks() {
		var err error
		if t, err = r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: tabID}); err != nil {
			return nil, err
		}
	}
	if _, err := r.guards().guardNavigation(t); err != nil {
		return nil, err
	}
	if err := r.guards().askBeforeLoad(t, r.url); err != nil { // ask.go
		return nil, err
	}
	if err := r.answers().unheld(tabID, func() (err error) {
		t, err = r.b.TabNavigate(r.ctx, protocol.TabNavigateParams{TabID: tabID, URL: r.url, WaitMs: r.loadWait()})
		return err
	}); err != nil {
		return nil, err
	}
	_, owned := r.reg().Owned(tabID)
	return r.result(t, "", nil, owned), nil
}

// openInWorkspace opens a new tab in the workspace's own window, creating
// the window (unfocused, labelled group) when there is none or when the
// call asks for another profile (incognito or not) than the window has.
func (r opening) openInWorkspace() (*tool.OpenResult, error) {
	if err := r.guards().askBeforeOpen(); err != nil { // ask.go
		return nil, err
	}
	id := r.workspace
	reg := r.reg()
	// Two opens in one workspace at once must not both make a window.
	unlock, err := r.workspaces.lock(r.ctx, id)
	if err != nil {
		return nil, err
	}
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	ws, ok := reg.Workspace(id)
	if ok && r.incognito != nil && *r.incognito != ws.Incognito {
		ok = false // a new window in the wanted profile takes over
	}
	var t browser.TabInfo
	var warnings []string
	if ok && ws.Incognito && r.incognito == nil {
		// A search opens its workspace incognito, and the
		// workspace's later opens follow it: say so, for logged-in work
		// fails there (the user is not signed in).
		warnings = append(warnings, "opened in the workspace's incognito window (a search made it incognito), where the user is not signed in; pass incognito: false for a normal window")
	}
	if ok {
		var err error
		t, err = r.create(func(ctx context.Context) (browser.TabInfo, error) {
			return r.b.TabCreate(ctx, protocol.TabCreateParams{WindowID: ws.WindowID, URL: r.url, Active: true})
		}, func(ctx context.Context, t browser.TabInfo) error {
			return r.b.TabClose(ctx, protocol.TabCloseParams{TabID: t.TabID})
		})
		if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			ok = false // the user closed the window
		} else if err != nil {
			return nil, err
		}
	}
	if !ok {
		incognito := r.incognito != nil && *r.incognito
		var err error
		t, err = r.create(func(ctx context.Context) (browser.TabInfo, error) {
			return r.b.WindowCreate(ctx, protocol.WindowCreateParams{URL: r.url, Width: windowWidth, Height: windowHeight, Incognito: incognito})
		}, func(ctx context.Context, t browser.TabInfo) error {
			return r.b.WindowClose(ctx, protocol.WindowCloseParams{WindowID: t.WindowID})
		})
		if err != nil {
			return nil, err
		}
		ws = registry.Workspace{ID: id, WindowID: t.WindowID, GroupID: -1, Incognito: t.Incognito, Title: workspaceLabel(id), Color: workspaceColor(id),
			Named: r.named}
	}
	reg.AddTabBy(t.TabID, t.WindowID, id, r.session)
	// The group and the load go side by side: grouping (one or two calls
	// on Chrome's UI thread) need not wait for the page, nor the page for
	// it. The workspace stays locked until its group is known, so a second
	// open cannot make a second group. The tab is the workspace's from
	// here, so its grouping goes on when the caller gives up meanwhile
	// (the load does not), without the caller waiting for it: an open
	// given up during the load leaves its tab in the workspace's group,
	// where close and closeWorkspace find it, not ungrouped beside it.
	grouped := make(chan struct{})
	locked = false // the grouping lets go of the workspace
	go func() {
		defer close(grouped)
		defer func() {
			reg.SetWorkspace(ws)
			unlock()
		}()
		ctx, cancel := r.givenUpBound()
		defer cancel()
		if err := r.group(ctx, &ws, t.TabID); err != nil {
			warnings = append(warnings, fmt.Sprintf("could not put the tab into the workspace's tab group: %v", err))
		}
	}()
	var loaded browser.TabInfo
	err = r.answers().unheld(t.TabID, func() (err error) {
		loaded, err = r.b.TabWaitLoad(r.ctx, protocol.TabWaitLoadParams{TabID: t.TabID, WaitMs: r.loadWait()})
		return err
	})
	select {
	case <-grouped:
	case <-r.ctx.Done():
		// ws and warnings are the grouping's until it ends.
		return nil, r.ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	g := ws.GroupID
	return r.result(loaded, id, &g, true, warnings...), nil
}

// group adds the tab to the workspace's group, making a new group when the
// old one is gone (the user may ungroup tabs).
func (r opening) group(ctx context.Context, ws *registry.Workspace, tabID int) error {
	if ws.GroupID >= 0 {
		if _, err := r.b.TabGroup(ctx, protocol.TabGroupParams{TabID: tabID, GroupID: &ws.GroupID}); err == nil {
			return nil
		}
	}
	id, err := r.b.TabGroup(ctx, protocol.TabGroupParams{TabID: tabID, WindowID: ws.WindowID, Title: ws.Title, Color: ws.Color})
	if err != nil {
		return err
	}
	ws.GroupID = id
	return nil
}

// afterGivenUp bounds the work an open still does for the browser once
// its caller gave up on it (its deadline passed, or it was cancelled):
// waiting for the window or tab Chrome is making, to close it (create),
// and grouping a tab that is the workspace's already.
const afterGivenUp = 15 * time.Second

// givenUpBound is the context of work that goes on when the caller gives
// up: not ended by the caller's cancel, and bounded by the caller's
// deadline plus afterGivenUp (a caller that allows 60 s gets them all).
func (r opening) givenUpBound() (context.Context, context.CancelFunc) {
	end := time.Now()
	if dl, ok := r.ctx.Deadline(); ok && dl.After(end) {
		end = dl
	}
	return context.WithDeadline(context.WithoutCancel(r.ctx), end.Add(afterGivenUp))
}

// create makes the open's window or tab (do), under a context the
// caller's giving up does not end: Chrome makes a window whether or not
// anyone still waits for it (the extension is inside
// chrome.windows.create when the command.cancel comes, or the reply is
// on its way), and an answer nobody waits for left the user a window, or
// a tab in the workspace's window, that no workspace owned and the
// bridge would not close. When the caller gives up first,
// the open answers at once with its context's error (timeout or
// cancelled), and what Chrome makes is closed (undo) when it comes: a
// given-up open leaves nothing behind. (Past afterGivenUp the Link
// cancels the command, and the extension closes what Chrome makes after
// that itself: windows.js and tabs.js create.)
func (r opening) create(do func(context.Context) (browser.TabInfo, error), undo func(context.Context, browser.TabInfo) error) (browser.TabInfo, error) {
	type made struct {
		t   browser.TabInfo
		err error
	}
	if err := r.ctx.Err(); err != nil {
		return browser.TabInfo{}, err // given up already: Chrome makes nothing
	}
	ctx, cancel := r.givenUpBound()
	done := make(chan made, 1)
	go func() {
		t, err := do(ctx)
		done <- made{t, err}
	}()
	select {
	case m := <-done:
		cancel()
		return m.t, m.err
	case <-r.ctx.Done():
		go func() {
			defer cancel()
			if m := <-done; m.err == nil {
				// The close has its own time: Chrome may have taken
				// most of afterGivenUp to make the window.
				ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), 5*time.Second)
				defer cancel()
				undo(ctx, m.t) // a close that fails: the window is gone already, or the browser with it
			}
		}()
		return browser.TabInfo{}, r.ctx.Err()
	}
}

func (r opening) result(t browser.TabInfo, workspace string, group *int, owned bool, warnings ...string) *tool.OpenResult {
	r.observer().saw(t)
	switch {
	case t.LoadError != "":
		warnings = append(warnings, fmt.Sprintf("the page could not be loaded (%s): the tab shows the browser's error page; check the URL, or try again when the site is reachable", t.LoadError))
	case t.Loaded != nil && !*t.Loaded:
		warnings = append(warnings, "the page had not finished loading before the deadline; it may still be loading")
	}
	return &tool.OpenResult{TabID: t.TabID, WindowID: t.WindowID, URL: t.URL, Title: t.Title, Workspace: workspace, GroupID: group, Owned: owned, Incognito: t.Incognito, LoadError: t.LoadError,
		Outcome: tool.Outcome{Warnings: warnings}}
}
