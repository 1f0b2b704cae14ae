package ipc

import (
	"io"
	"sync"
)

// MaxHandshakes is how many connections may be in the handshake at once.
// A connection costs the daemon a file descriptor and a goroutine until it
// shows the secret or its ConnectTimeout passes; without a bound, a
// process of the same user could open tens of thousands and starve the
// honest ones. Honest peers handshake in a
// millisecond, so 64 at once is far more than they ever need.
const MaxHandshakes = 64

// Gate bounds how many connections are in the handshake at once. The
// accept loop admits every connection it accepts; when all slots are
// taken, the connection that has waited longest is closed to make room.
// An honest peer shows its secret within a millisecond of connecting, so
// it is never the oldest for long, while idle connections are: a flood of
// them only ever pushes out its own. Before, a full
// gate closed the newcomer, and a flood held every slot against honest
// callers until its connections timed out. The zero Gate is not usable:
// NewGate.
type Gate struct {
	n       int
	mu      sync.Mutex
	waiting []*admitted // oldest first
}

type admitted struct{ c io.Closer }

// NewGate returns a gate of n slots.
func NewGate(n int) *Gate { return &Gate{n: max(n, 1)} }

// Admit takes a slot for c, closing the connection that has waited
// longest when none is free. release gives the slot back when c's
// handshake ends, however it ends; it may be called more than once, and
// after c was closed to make room.
func (g *Gate) Admit(c io.Closer) (release func()) {
	a := &admitted{c}
	var evict io.Closer
	g.mu.Lock()
	if len(g.waiting) >= g.n {
		evict = g.waiting[0].c
		g.waiting = g.waiting[1:]
	}
	g.waiting = append(g.waiting, a)
	g.mu.Unlock()
	if evict != nil {
		evict.Close() // its handshake read fails, and its goroutine ends
	}
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		for i, w := range g.waiting {
			if w == a {
				g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
				return
			}
		}
	}
}

// InUse is how many slots are taken.
func (g *Gate) InUse() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting)
}
