package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultProgressEvery is how often a waiting call tells a client that
// asked for progress that it is still at work. Clients reset their own
// request timeouts on progress (Claude Code and the SDKs do), so a long
// wait does not look like a hung server.
const DefaultProgressEvery = 3 * time.Second

// progress returns the function that forwards the daemon's progress
// sentences to the client as MCP progress notifications, plus a stop
// function; between them it sends a heartbeat every interval. Without a
// progress token in the request both are no-ops.
func progress(ctx context.Context, req *mcp.CallToolRequest, action string, every time.Duration) (report func(string), stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil, func() {}
	}
	var mu sync.Mutex
	n := 0
	report = func(msg string) {
		mu.Lock()
		defer mu.Unlock() // keeps notifications in order of their progress
		n++
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n), Message: msg})
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				report(fmt.Sprintf("%s: still working after %s", action, time.Since(start).Round(time.Second)))
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return report, func() { close(done); <-finished }
}
