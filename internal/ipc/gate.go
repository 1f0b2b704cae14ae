package ipc

// MaxHandshakes is how many connections may be in the handshake at once.
// A connection costs the daemon a file descriptor and a goroutine until it
// shows the secret or its ConnectTimeout passes; without a bound, a
// process of the same user could open tens of thousands and starve the
// honest ones (issue 11, finding 11). Honest peers handshake in a
// millisecond, so 64 at once is far more than they ever need.
const MaxHandshakes = 64

// Gate bounds how many connections are in the handshake at once. The
// accept loop takes a slot before it starts a connection's handshake and
// closes the connection at once when there is none (waiting would keep the
// descriptor the bound is there to save); the slot is released when the
// handshake ends, however it ends. The zero Gate is not usable: NewGate.
type Gate struct{ slots chan struct{} }

// NewGate returns a gate of n slots.
func NewGate(n int) *Gate { return &Gate{slots: make(chan struct{}, n)} }

// TryAcquire takes a slot if one is free, without waiting.
func (g *Gate) TryAcquire() bool {
	select {
	case g.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// Release gives back a slot taken with TryAcquire.
func (g *Gate) Release() { <-g.slots }

// InUse is how many slots are taken.
func (g *Gate) InUse() int { return len(g.slots) }
