package actions

import (
	"context"
	"fmt"
	"sync"
)

// tabLocks serialises the page actions on one tab: two agents (or one
// agent's parallel calls) typing into the same field would interleave their
// keystrokes, and a click could land while another action scrolls. Actions
// on different tabs run side by side. The zero value is ready to use.
type tabLocks struct {
	mu    sync.Mutex
	locks map[tabKey]chan struct{} // a one-slot semaphore per busy tab
	refs  map[tabKey]int           // holders and waiters, to drop idle entries
}

// tabKey names a tab across browsers: tab IDs are only unique within one
// extension instance.
type tabKey struct {
	instance string
	tabID    int
}

// lock waits until no other action holds the tab, or ctx ends; progress
// hears of a wait. The returned function releases the tab; waited says
// whether another action held it first (the tab may have changed).
func (l *tabLocks) lock(ctx context.Context, k tabKey, progress func(string)) (unlock func(), waited bool, err error) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks, l.refs = map[tabKey]chan struct{}{}, map[tabKey]int{}
	}
	sem, ok := l.locks[k]
	if !ok {
		sem = make(chan struct{}, 1)
		l.locks[k] = sem
	}
	l.refs[k]++
	l.mu.Unlock()
	drop := func() {
		l.mu.Lock()
		if l.refs[k]--; l.refs[k] == 0 {
			delete(l.locks, k)
			delete(l.refs, k)
		}
		l.mu.Unlock()
	}
	select {
	case sem <- struct{}{}:
	default:
		progress(fmt.Sprintf("waiting for another action on tab %d to finish", k.tabID))
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			drop()
			return nil, true, ctx.Err()
		}
		waited = true
	}
	return func() {
		<-sem
		drop()
	}, waited, nil
}
