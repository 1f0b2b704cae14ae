// The workspace lock: one open at a time does the window and group
// bookkeeping of a workspace.

package actions

import (
	"context"
	"sync"
)

// workspaceLocks serialise the window and group bookkeeping of each
// workspace: a channel of one slot per workspace, held while it is full.
// A workspace's entry lives while a call holds or waits for it, so the
// set holds the workspaces being worked on now, not every workspace ever
// opened. The zero value is ready; Env holds the daemon's.
type workspaceLocks struct {
	mu sync.Mutex
	m  map[string]*workspaceLock // workspace ID → its lock
}

// workspaceLock is one workspace's slot and how many calls hold or wait
// for it.
type workspaceLock struct {
	slot  chan struct{}
	users int
}

// lock takes workspace id's lock, or gives up with ctx's error when ctx
// ends first: a call waits for the lock within its own deadline, not past
// it (an open given up during its grouping holds the lock until its
// caller's deadline plus afterGivenUp at most, givenUpBound).
func (l *workspaceLocks) lock(ctx context.Context, id string) (unlock func(), err error) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*workspaceLock{}
	}
	w := l.m[id]
	if w == nil {
		w = &workspaceLock{slot: make(chan struct{}, 1)}
		l.m[id] = w
	}
	w.users++
	l.mu.Unlock()
	select {
	case w.slot <- struct{}{}:
		var once sync.Once
		return func() {
			once.Do(func() {
				<-w.slot
				l.leave(id, w)
			})
		}, nil
	case <-ctx.Done():
		l.leave(id, w)
		return nil, ctx.Err()
	}
}

// leave counts a call out of w, and forgets the workspace's lock when no
// call holds or waits for it.
func (l *workspaceLocks) leave(id string, w *workspaceLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w.users--
	if w.users == 0 {
		delete(l.m, id)
	}
}

// held is how many workspaces have a lock now (for tests).
func (l *workspaceLocks) held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}
