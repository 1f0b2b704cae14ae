package actions

import (
	"context"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/registry"
)

// TestCloseExpiredKeepsAWorkspaceOpenedInto is the daemon's sweep racing
// an open: the sweep listed the workspace as expired, but an open into it
// held the workspace's lock and saved it, used, before the close got its
// turn. The close must then leave it (the fake browser fails the test on
// any verb: nothing may be closed).
func TestCloseExpiredKeepsAWorkspaceOpenedInto(t *testing.T) {
	fake := fakebrowser.New()
	env := engine(t, fake)
	now := time.Now()
	env.Registries.SetClock(func() time.Time { return now })
	reg := env.Registries.For(env.Browser.Info().Instance)
	reg.SetWorkspace(registry.Workspace{ID: "named", WindowID: 7, GroupID: 3, Named: true})
	now = now.Add(registry.TTL + time.Minute)
	if ex := reg.Expired(); len(ex) != 1 || ex[0].ID != "named" {
		t.Fatalf("expired %v, want [named]", ex)
	}

	unlock, _ := env.workspaces.lock(context.Background(), "named") // an open in progress
	done := make(chan bool)
	go func() {
		closed, err := CloseExpired(context.Background(), env, nil, "named")
		if err != nil {
			t.Error(err)
		}
		done <- closed
	}()
	select {
	case <-done:
		t.Fatal("the close did not wait for the open's lock")
	case <-time.After(100 * time.Millisecond):
	}
	ws, _ := reg.Workspace("named")
	reg.SetWorkspace(ws) // the open saves the workspace, used now
	unlock()
	if <-done {
		t.Error("an expired workspace that an open used since was closed")
	}
	if calls := fake.Calls(""); len(calls) != 0 {
		t.Errorf("the browser was asked %d things", len(calls))
	}
}
