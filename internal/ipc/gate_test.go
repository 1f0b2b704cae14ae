//go:build unix

package ipc_test

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
)

func TestGateBoundsAndReleases(t *testing.T) {
	g := ipc.NewGate(3)
	for i := range 3 {
		if !g.TryAcquire() {
			t.Fatalf("slot %d refused", i)
		}
	}
	if g.TryAcquire() || g.InUse() != 3 {
		t.Fatalf("a fourth slot of three (in use %d)", g.InUse())
	}
	g.Release()
	if !g.TryAcquire() {
		t.Fatal("a released slot was not given again")
	}
}

func TestGateUnderContention(t *testing.T) {
	g := ipc.NewGate(8)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		now, top int
	)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if !g.TryAcquire() {
					continue
				}
				mu.Lock()
				now++
				top = max(top, now)
				mu.Unlock()
				mu.Lock()
				now--
				mu.Unlock()
				g.Release()
			}
		}()
	}
	wg.Wait()
	if top > 8 || g.InUse() != 0 {
		t.Errorf("%d holders at once of 8 slots; %d still in use", top, g.InUse())
	}
}

// The accept loop the daemon runs, in small: with every slot held by a
// silent peer, a new connection is closed at once (not left to wait), and
// once the silent ones time out an honest client gets through. Finding 11
// of issue 11: 24,000 idle connections starved an honest client.
func TestGateInAnAcceptLoop(t *testing.T) {
	dir, err := os.MkdirTemp("", "bbgate")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const slots, timeout = 4, 300 * time.Millisecond
	g := ipc.NewGate(slots)
	authed := make(chan string, 1)
	go func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			if !g.TryAcquire() {
				nc.Close()
				continue
			}
			go func() {
				c, auth, err := ipc.ReadAuth(nc, time.Now().Add(timeout))
				g.Release()
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
	for range slots {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
	}
	waitFor(t, func() bool { return g.InUse() == slots })
	extra, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	extra.SetReadDeadline(time.Now().Add(timeout / 2))
	if _, err := extra.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("a connection beyond the slots: %v, want it closed at once (EOF)", err)
	}
	waitFor(t, func() bool { return g.InUse() == 0 }) // the silent ones timed out
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
		t.Fatal("the honest client was not served")
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
