//go:build unix

package faults

import (
	"fmt"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// A process of the same user opens 2,000 idle connections to the daemon's
// socket and keeps opening more, never sending a handshake. Meanwhile a
// plain status (the real CLI) must be served, promptly, by the running
// daemon: before, it failed with "the daemon did not start: it exited".
// The flood is bounded (2,000 connections, then 500 a
// second for the length of the calls) and ends with the test; nothing of
// it may stay in the daemon.
func TestIdleConnectionFlood(t *testing.T) {
	before := take(t)
	sock := paths.ForHome(bridge.Home).Socket
	var (
		mu             sync.Mutex
		conns          []net.Conn
		opened, failed int
	)
	dial := func() {
		c, err := net.Dial("unix", sock)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			failed++
			return // the daemon's backlog is full: the flood goes on
		}
		opened++
		conns = append(conns, c)
		if len(conns) > 2000 {
			conns[0].Close()
			conns = conns[1:]
		}
	}
	for range 2000 {
		dial()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				dial()
			}
		}
	}()
	// The flood reaches the daemon: its handshake slots hold descriptors.
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", before.DaemonPID)); err == nil {
		t.Logf("the daemon holds %d descriptors during the flood", len(ents))
	}
	var last outcome
	for range 3 {
		last = runNow(t, map[string]any{"action": "status"})
		if last.Err != nil || last.Result["connected"] != true {
			t.Errorf("status during the flood: %s", last.summary())
		} else if last.Took > 3*time.Second {
			t.Errorf("status during the flood took %s", last.Took)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("the flood opened %d connections (%d dials failed)", opened, failed)
	mu.Lock()
	for _, c := range conns {
		c.Close()
	}
	mu.Unlock()
	report(t, "2,000 idle connections and more: status", last, before.leaks(t, leakCheck{}))
}
