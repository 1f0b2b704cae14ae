package actions

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A workspace's lock is forgotten once no call holds or waits for it:
// the daemon runs for weeks and opens a workspace per session, so a lock
// kept per workspace ever opened would grow without end. A waiter that
// gives up and one that gets its turn after the holder are counted too.
func TestWorkspaceLocksArePrunedWhenTheWorkspaceIsDone(t *testing.T) {
	var l workspaceLocks
	ctx := context.Background()
	unlock, err := l.lock(ctx, "ws")
	if err != nil {
		t.Fatal(err)
	}
	// One waiter gives up at its deadline, another waits its turn.
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := l.lock(short, "ws"); err == nil {
		t.Fatal("a second call took a held lock")
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		u, err := l.lock(ctx, "ws")
		if err != nil {
			t.Error(err)
			return
		}
		u()
	}()
	if n := l.held(); n != 1 {
		t.Errorf("%d locks while the workspace is worked on, want 1", n)
	}
	unlock()
	unlock() // a second unlock is harmless
	wg.Wait()
	if n := l.held(); n != 0 {
		t.Errorf("%d workspace locks kept after the workspace's last call, want 0", n)
	}
}
