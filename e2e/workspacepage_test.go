package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// A workspace's own page (ui/workspace.html, the quiet tab that keeps
// its window and group open) is no action's target: loading another page
// into it left the window, and a saved tab group, behind at
// closeWorkspace (from any session, since no workspace owns
// the page). Every action that would load, read, drive or close it is
// refused with protected_page and a sentence saying what to do instead;
// status still lists it; and closeWorkspace still closes the window.
func TestActionsRefuseTheWorkspacePage(t *testing.T) {
	srv := site(t)
	ws := bridge.Workspace(t, fmt.Sprintf("page-kept-%d", time.Now().UnixNano()%1_000_000))
	opened := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/Agent", "browserWorkspaceId": ws})
	window := num(t, opened, "windowId")
	page := -1
	for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status"})) {
		if num(t, tm, "windowId") == window && tm["url"] == bridge.ExtensionURL("ui/workspace.html") {
			page = num(t, tm, "tabId")
			if tm["workspacePage"] != true {
				t.Errorf("status lists the workspace page as %v, without workspacePage: true", tm)
			}
		}
	}
	if page < 0 {
		t.Fatalf("no workspace page in the workspace's window %d", window)
	}

	for _, in := range []map[string]any{
		// Another session, as the QA found it, and the workspace's own.
		{"action": "open", "tabId": page, "url": srv.URL + "/page/Intruder", "browserWorkspaceId": "intruder"},
		{"action": "open", "tabId": page, "url": srv.URL + "/page/Mine", "browserWorkspaceId": ws},
		{"action": "reload", "tabId": page},
		{"action": "back", "tabId": page},
		{"action": "activate", "tabId": page},
		{"action": "extract", "tabId": page},
		{"action": "click", "tabId": page, "selector": "body"},
		{"action": "screenshot", "tabId": page},
		{"action": "close", "tabId": page},
	} {
		r := bridge.Call(t, in)
		if r.Err == nil || r.Err.Code != protocol.CodeProtectedPage || !strings.Contains(r.Err.Message, "closeWorkspace") {
			t.Errorf("%v: exit %d, %s; want protected_page saying what to do instead", in, r.Exit, r.Stdout)
		}
	}
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	if tm := statusTab(t, st, page); tm == nil || tm["url"] != bridge.ExtensionURL("ui/workspace.html") {
		t.Fatalf("after the refusals the workspace page is %v, want it as it was", tm)
	}

	closed := bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	if w, _ := closed["closedWindows"].([]any); len(w) != 1 || w[0] != float64(window) {
		t.Errorf("closeWorkspace closed windows %v, want the workspace's %d", closed["closedWindows"], window)
	}
}
