package ipc_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
)

func TestLock(t *testing.T) {
	t.Parallel()
	// ipctest.Layout's folder, not t.TempDir: see ipc_windows_test.go.
	path := filepath.Join(ipctest.Layout(t).State, "daemon.lock")
	first, err := ipc.Lock(path, false)
	if err != nil {
		t.Fatal(err)
	}
	// The locks (flock, LockFileEx) belong to an open file, so a second
	// open in this process conflicts just as another process would.
	if f, err := ipc.Lock(path, false); !errors.Is(err, ipc.ErrLocked) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("second Lock: %v, want ErrLocked", err)
	}

	got := make(chan error, 1)
	go func() {
		f, err := ipc.Lock(path, true)
		if f != nil {
			f.Close() // before the folder is removed (Windows)
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a waiting Lock returned (%v) while the lock was held", err)
	case <-time.After(50 * time.Millisecond):
	}
	first.Close()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("waiting Lock after release: %v", err)
		}
	case <-time.After(ipctest.Wait):
		t.Fatal("a waiting Lock did not get the lock once it was released")
	}
}
