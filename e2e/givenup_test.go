package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// An open that runs out of time answers timeout soon after its deadline
// and leaves nothing the user must clean up: no window, and no tab in a
// workspace's window, that the bridge does not own (each
// timed-out open left a window with the workspace page and the page,
// ungrouped and unowned, which close refused and closeWorkspace
// ignored). Chrome makes the window whether or not the daemon still
// waits; the bridge closes it. Both ways in: a new workspace (a window)
// and an existing one (a tab in its window).
func TestAnOpenThatTimesOutLeavesNothingBehind(t *testing.T) {
	srv := site(t)
	status := func() map[string]any { return bridge.MustCall(t, map[string]any{"action": "status"}) }
	before := browsertest.TabIDs(t, status())
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
	browsertest.WaitNoStrays(t, status, before, 10*time.Second)
}

// Ctrl-C on the CLI while Chrome makes the open's window leaves nothing
// behind either (Ctrl-C 120 ms into an open left a window).
func TestAnOpenInterruptedAtTheCLILeavesNothingBehind(t *testing.T) {
	srv := site(t)
	status := func() map[string]any { return bridge.MustCall(t, map[string]any{"action": "status"}) }
	before := browsertest.TabIDs(t, status())
	ws := bridge.Workspace(t, fmt.Sprintf("interrupted-%d", time.Now().UnixNano()%1_000_000))
	interrupted := 0
	for _, after := range []time.Duration{100, 200, 300, 400, 500} {
		after *= time.Millisecond
		cmd := bridge.Command(context.Background(), "open", "--url", srv.URL+"/page/Interrupted", "--browserWorkspaceId", ws)
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			interrupted++
		}
		// An interrupted call says so with a stable code (it said
		// internal_error "context canceled"). A CLI interrupted before
		// it set up its handler dies of the signal, saying nothing.
		var res struct{ Error *protocol.Error }
		if json.Unmarshal([]byte(out.String()), &res) == nil && res.Error != nil && res.Error.Code != protocol.CodeTimeout {
			t.Errorf("Ctrl-C %s into the open: error %s %q, want timeout (cancelled)", after, res.Error.Code, res.Error.Message)
		}
		t.Logf("Ctrl-C %s into the open: %v %s", after, cmd.ProcessState, strings.Join(strings.Fields(out.String()), " "))
	}
	if interrupted == 0 {
		t.Fatal("no open was interrupted before it finished; the test needs some")
	}
	browsertest.WaitNoStrays(t, status, before, 10*time.Second)
}
