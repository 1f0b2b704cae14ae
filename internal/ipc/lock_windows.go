package ipc

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// Lock takes an exclusive lock on the file at path, creating it. With wait
// false it fails at once with ErrLocked when the lock is held. As with
// flock on Unix, the lock goes when the returned file is closed or the
// process dies (Windows releases a dead process's byte-range locks).
func Lock(path string, wait bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening lock: %w", err)
	}
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	// The file is opened for synchronous I/O, so LockFileEx waits here
	// with this Overlapped only saying where the range starts.
	err = windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &windows.Overlapped{})
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}
