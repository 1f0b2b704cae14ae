package actions

import (
	"fmt"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The navigation family: a step in a tab's history, the tab
// shown in its window, and the size its page is laid out at.
func init() {
	register("reload", func(r *run) (*tool.NavResult, error) { return r.opening().historyStep("reload") })
	register("back", func(r *run) (*tool.NavResult, error) { return r.opening().historyStep("back") })
	register("forward", func(r *run) (*tool.NavResult, error) { return r.opening().historyStep("forward") })
	register("activate", activate)
	register("viewport", setViewport)
}

// historyStep goes back, forward or reloads the target tab and waits for
// the page it leads to, as open waits for its page (the extension waits
// from the navigation's commit, so a page restored from the back/forward
// cache or a step within the document answers at once). A tab with no
// entry to go to is invalid_argument; a dialog holding the page
// (beforeunload) is answered as the call's dialog parameter says.
func (r opening) historyStep(step string) (*tool.NavResult, error) {
	t, err := r.guards().target()
	if err != nil {
		return nil, err
	}
	// What the tab shows now is not read: like a navigation, neither an
	// error page nor a refused file: URL stops it (a reload of an error
	// page is how one tries again).
	if t, err = r.guards().guardNavigation(t); err != nil {
		return nil, err
	}
	var res protocol.TabHistoryResult
	if err := r.answers().unheld(t.TabID, func() (err error) {
		res, err = r.b.TabHistory(r.ctx, protocol.TabHistoryParams{TabID: t.TabID, Step: step, BypassCache: r.bypassCache, WaitMs: r.loadWait()})
		return err
	}); err != nil {
		return nil, err
	}
	r.observer().saw(res.TabInfo)
	var warnings []string
	switch {
	case res.Stayed:
		warnings = append(warnings, fmt.Sprintf("the page asked to stay (a \"leave page?\" dialog) and was left as it is: nothing was done; pass dialog: \"accept\" to %s anyway", step))
	case !res.Started:
		warnings = append(warnings, fmt.Sprintf("the %s did not start before the deadline: the page may have kept itself (a \"leave page\" dialog that was dismissed; pass dialog: \"accept\") — it shows what it showed before", stepNoun(step)))
	case res.LoadError != "":
		warnings = append(warnings, fmt.Sprintf("the page could not be loaded (%s): the tab shows the browser's error page", res.LoadError))
	case res.Loaded != nil && !*res.Loaded:
		warnings = append(warnings, "the page had not finished loading before the deadline; it may still be loading")
	}
	return &tool.NavResult{Page: pageOf(res.TabInfo), LoadError: res.LoadError, Outcome: tool.Outcome{Navigated: res.Started, Warnings: warnings}}, nil
}

func stepNoun(step string) string {
	if step == "reload" {
		return "reload"
	}
	return "step " + step
}

// activate makes the tab the active one of its window, leaving the focus
// where the user has it (a hidden tab's timers are throttled by Chrome;
// its first input is slow).
func activate(r *run) (*tool.ActivateResult, error) {
	t, err := r.guards().target()
	if err != nil {
		return nil, err
	}
	// Showing a tab reads nothing of it.
	if t, err = r.guards().guardNavigation(t); err != nil {
		return nil, err
	}
	if !t.Active {
		if err := r.b.TabActivate(r.ctx, protocol.TabActivateParams{TabID: t.TabID}); err != nil {
			return nil, err
		}
	}
	return &tool.ActivateResult{Page: pageOf(t), WindowID: t.WindowID}, nil
}

// setViewport lays the tab's page out at the size asked for, or resets
// it. The extension keeps the debugger attached to the tab while the
// override is set (extension/handlers/viewport.js): Chrome drops an
// emulation with the debugging session, and the page would quietly go
// back to the window's size.
func setViewport(r *run) (*tool.ViewportResult, error) {
	n := r.in.Navigation
	if err := n.CheckViewport(); err != nil {
		return nil, err
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	// The debugger is attached first, and a dialog left open answered:
	// the override goes through the debugger.
	if err := r.answerer().answerOpenDialogs(t.TabID); err != nil {
		return nil, err
	}
	p := protocol.TabViewportParams{TabID: t.TabID, Width: n.Width, Height: n.Height, Mobile: n.Mobile, Reset: n.Reset}
	if n.DeviceScaleFactor != nil {
		p.DeviceScaleFactor = *n.DeviceScaleFactor
	}
	got, err := r.b.TabViewport(r.ctx, p)
	if err != nil {
		return nil, err
	}
	res := &tool.ViewportResult{Page: pageOf(t), Width: got.Width, Height: got.Height, DeviceScaleFactor: got.DeviceScaleFactor, Mobile: n.Mobile, Touch: got.Touch, Emulated: !n.Reset}
	if !n.Reset {
		// The size asked for is the size the page has (the layout
		// viewport the browser reports leaves a scrollbar out).
		res.Width, res.Height = n.Width, n.Height
		res.Warnings = append(res.Warnings, "the debugger stays attached to this tab until viewport reset: true (Chrome shows its debugging bar meanwhile)")
	}
	return res, nil
}
