// The workspace lock: one open at a time does the window and group
// bookkeeping of a workspace.

package actions

import (
	"context"
	"sync"
)

// workspaceLocks serialise the window and group bookkeeping of one
// workspace: a channel of one slot each, held while it is full.
var workspaceLocks sync.Map // workspace ID -> chan struct{}

// lockWorkspace takes workspace id's lock, or gives up with ctx's error
// when ctx ends first: a call waits for the lock within its own deadline,
// not past it (an open given up during its grouping holds the lock until
// its caller's deadline plus afterGivenUp at most, givenUpBound).
func lockWorkspace(ctx context.Context, id string) (unlock func(), err error) {
	m, _ := workspaceLocks.LoadOrStore(id, make(chan struct{}, 1))
	slot := m.(chan struct{})
	select {
	case slot <- struct{}{}:
		return func() { <-slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
