package mcp

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// An open the agent cancels (notifications/cancelled) while Chrome makes
// its window, or its tab in the workspace's window, gets control back at
// once and leaves nothing behind: the window or tab Chrome made after
// the cancel is closed (a cancel 80 ms into an open left a
// window no workspace owned). Several delays, so that some fall while
// the window is being made.
func TestCancelledOpenLeavesNothingBehind(t *testing.T) {
	srv := site(t)
	cs := startMCP(t, nil)
	status := func() map[string]any { return mustCall(t, cs, map[string]any{"action": "status"}) }
	before := browsertest.TabIDs(t, status())
	run := fmt.Sprintf("mcp-cancelled-%d", time.Now().UnixNano()%1_000_000)
	t.Cleanup(func() {
		callTool(t, cs, map[string]any{"action": "close", "closeWorkspace": true, "runId": run})
	})
	cancelled := 0
	for _, after := range []time.Duration{0, 20, 40, 80, 120, 80, 40} {
		after *= time.Millisecond
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(after, cancel)
		start := time.Now()
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "use_user_browser", Arguments: map[string]any{"action": "open", "url": srv.URL + "/page/Cancelled", "runId": run}})
		took := time.Since(start)
		cancel()
		if err != nil {
			cancelled++
			if took > after+time.Second {
				t.Errorf("cancelled %s into the open, control came back after %s", after, took)
			}
		}
		t.Logf("cancelled %s into the open: %v after %s", after, err, took.Round(time.Millisecond))
	}
	if cancelled == 0 {
		t.Fatal("no open was cancelled before it finished; the test needs some")
	}
	browsertest.WaitNoStrays(t, status, before, 10*time.Second)
}
