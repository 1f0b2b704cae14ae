// Package browser is the extension as the daemon sees it: the Link to the
// connected extensions over any Conn (the native host's socket today, a
// WebSocket next), one typed method per extension verb (Verbs), and the
// state the extension reports (State, TabInfo, Info). Package fakebrowser
// scripts the other end for unit tests.
//
// The wire itself (commands, replies, hello, each verb's params and result)
// is package protocol's.
package browser

import (
	"io"
	"sync"
)

// Conn is one connection to an extension, carrying whole frames (one JSON
// message each). Send may be called from several goroutines at once, Recv
// from one; Close ends both directions and makes a blocked Recv return.
// *ipc.Conn is one.
type Conn interface {
	Send(frame []byte) error
	Recv() ([]byte, error)
	Close() error
}

// Pipe returns two connected in-memory Conns, for tests: a frame sent on
// one arrives on the other, in order. Send never blocks (frames queue, as a
// socket's buffer lets a writer go on). Close on either end ends both: the
// end that closed gets io.ErrClosedPipe from then on; the other receives
// the frames already sent, then io.EOF.
func Pipe() (Conn, Conn) {
	p := &pipe{done: make(chan struct{})}
	a := &pipeEnd{p: p, ready: make(chan struct{}, 1)}
	b := &pipeEnd{p: p, ready: make(chan struct{}, 1)}
	a.peer, b.peer = b, a
	return a, b
}

type pipe struct {
	mu     sync.Mutex
	closer *pipeEnd // nil while open
	done   chan struct{}
}

type pipeEnd struct {
	p      *pipe
	peer   *pipeEnd
	frames [][]byte      // received, not yet read; under p.mu
	ready  chan struct{} // a frame may be waiting
}

func (e *pipeEnd) Send(frame []byte) error {
	e.p.mu.Lock()
	if e.p.closer != nil {
		e.p.mu.Unlock()
		return io.ErrClosedPipe
	}
	e.peer.frames = append(e.peer.frames, append([]byte(nil), frame...))
	e.p.mu.Unlock()
	select {
	case e.peer.ready <- struct{}{}:
	default: // already signalled
	}
	return nil
}

func (e *pipeEnd) Recv() ([]byte, error) {
	for {
		e.p.mu.Lock()
		switch {
		case e.p.closer == e:
			e.p.mu.Unlock()
			return nil, io.ErrClosedPipe
		case len(e.frames) > 0:
			f := e.frames[0]
			e.frames = e.frames[1:]
			e.p.mu.Unlock()
			return f, nil
		case e.p.closer != nil:
			e.p.mu.Unlock()
			return nil, io.EOF
		}
		e.p.mu.Unlock()
		select {
		case <-e.ready:
		case <-e.p.done:
		}
	}
}

func (e *pipeEnd) Close() error {
	e.p.mu.Lock()
	defer e.p.mu.Unlock()
	if e.p.closer == nil {
		e.p.closer = e
		close(e.p.done)
	}
	return nil
}
