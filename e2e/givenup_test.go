package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// An open that runs out of time answers timeout soon after its deadline
// and leaves nothing the user must clean up: no window, and no tab in a
// workspace's window, that the bridge does not own (issue 27 QA: each
// timed-out open left a window with the workspace page and the page,
// ungrouped and unowned, which close refused and closeWorkspace
// ignored). Chrome makes the window whether or not the daemon still
// waits; the bridge closes it. Both ways in: a new workspace (a window)
// and an existing one (a tab in its window).
func TestAnOpenThatTimesOutLeavesNothingBehind(t *testing.T) {
	srv := site(t)
	before := map[int]bool{}
	for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status"})) {
		before[num(t, tm, "tabId")] = true
	}
	fresh := bridge.Workspace(t, fmt.Sprintf("given-up-%d", time.Now().UnixNano()%1_000_000))
	existing := bridge.Workspace(t, fmt.Sprintf("given-up-into-%d", time.Now().UnixNano()%1_000_000))
	bridge.OpenIn(t, existing, srv.URL+"/page/Existing")

	timedOut := map[string]int{}
	for _, ws := range []string{fresh, existing} {
		for _, ms := range []int{1, 20, 60, 120, 200, 300} {
			start := time.Now()
			r := bridge.Call(t, map[string]any{"action": "open", "url": srv.URL + "/page/Given-up", "browserWorkspaceId": ws, "timeoutMs": ms})
			took := time.Since(start)
			switch {
			case r.Err == nil:
				t.Logf("%s, timeoutMs %d: opened in %s", ws, ms, took.Round(time.Millisecond))
			case r.Err.Code == protocol.CodeTimeout:
				timedOut[ws]++
				t.Logf("%s, timeoutMs %d: timeout after %s (the CLI's own start included)", ws, ms, took.Round(time.Millisecond))
				if took > time.Duration(ms)*time.Millisecond+1500*time.Millisecond {
					t.Errorf("%s, timeoutMs %d: the timeout came after %s", ws, ms, took)
				}
			default:
				t.Fatalf("%s, timeoutMs %d: %s %s", ws, ms, r.Err.Code, r.Err.Message)
			}
		}
	}
	if timedOut[fresh] == 0 || timedOut[existing] == 0 {
		t.Fatalf("timed out: %v; the test needs opens that run out of time both ways in", timedOut)
	}

	// What Chrome made after an open gave up is closed as its answer
	// comes: wait for that, then nothing stray may remain.
	var strays []map[string]any
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := bridge.MustCall(t, map[string]any{"action": "status"})
		strays = strayTabs(t, st, before)
		if len(strays) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the opens that timed out, tabs the bridge cannot close are left: %v (workspaces %v)", strays, st["workspaces"])
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// strayTabs are the tabs of status st, other than those in before, that
// nothing of the bridge's would ever close: not owned, and not the
// workspace page of a workspace's window.
func strayTabs(t *testing.T, st map[string]any, before map[int]bool) []map[string]any {
	t.Helper()
	home := map[int]bool{}
	wss, _ := st["workspaces"].([]any)
	for _, w := range wss {
		home[num(t, w.(map[string]any), "windowId")] = true
	}
	var out []map[string]any
	for _, tm := range browsertest.StatusTabs(st) {
		if before[num(t, tm, "tabId")] || tm["owned"] == true || tm["url"] == bridge.ExtensionURL("ui/workspace.html") && home[num(t, tm, "windowId")] {
			continue
		}
		out = append(out, tm)
	}
	return out
}
