//go:build unix

package ipc_test

import (
	"errors"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
)

// closer records whether it was closed.
type closer struct {
	mu     sync.Mutex
	closed bool
}

func (c *closer) Close() error { c.mu.Lock(); c.closed = true; c.mu.Unlock(); return nil }
func (c *closer) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func TestGateBoundsAndEvictsTheOldest(t *testing.T) {
	g := ipc.NewGate(3)
	var cs [5]closer
	var rel [5]func()
	for i := range 3 {
		rel[i] = g.Admit(&cs[i])
	}
	rel[3] = g.Admit(&cs[3])
	if !cs[0].isClosed() || cs[1].isClosed() || cs[3].isClosed() || g.InUse() != 3 {
		t.Fatalf("a fourth of three: closed %v %v %v, in use %d", cs[0].isClosed(), cs[1].isClosed(), cs[3].isClosed(), g.InUse())
	}
	rel[0]() // the evicted one's release changes nothing
	rel[0]()
	if g.InUse() != 3 {
		t.Fatalf("in use %d after the evicted one's release", g.InUse())
	}
	rel[2]()
	rel[4] = g.Admit(&cs[4])
	if cs[1].isClosed() || g.InUse() != 3 {
		t.Fatalf("a released slot was not given without evicting: in use %d", g.InUse())
	}
}

func TestGateUnderContention(t *testing.T) {
	g := ipc.NewGate(8)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				release := g.Admit(&closer{})
				if n := g.InUse(); n > 8 {
					t.Errorf("%d in the handshake of 8 slots", n)
				}
				release()
			}
		}()
	}
	wg.Wait()
	if g.InUse() != 0 {
		t.Errorf("%d still in use", g.InUse())
	}
}

// The accept loop the daemon runs, in small: with every slot held by a
// silent peer, an honest client that connects is served at once, long
// before the silent ones time out: the oldest silent one makes room.
// Two floods once got through: 24,000 idle connections starved an
// honest client, and later 2,000 idle ones locked it out.
func TestGateInAnAcceptLoop(t *testing.T) {
	sock := filepath.Join(ipctest.Dir(t), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const slots, timeout = 4, 10 * time.Second
	g := ipc.NewGate(slots)
	authed := make(chan string, 1)
	go func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			release := g.Admit(nc)
			go func() {
				c, auth, err := ipc.ReadAuth(nc, time.Now().Add(timeout))
				release()
				if err != nil {
					nc.Close()
					return
				}
				authed <- auth.Session
				c.Close()
			}()
		}
	}()
	var silent []net.Conn
	for range 4 * slots {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
	}
	waitFor(t, func() bool { return g.InUse() == slots })
	// The oldest silent ones were closed to make room.
	silent[0].SetReadDeadline(time.Now().Add(time.Second))
	if _, err := silent[0].Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the oldest silent connection: %v, want it closed (EOF)", err)
	}
	honest, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer honest.Close()
	if err := ipc.NewConn(honest, 0).Send(authFrame(t)); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-authed:
		if s != "x" {
			t.Errorf("session %q", s)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the honest client was not served while silent ones held the slots")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 3 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
