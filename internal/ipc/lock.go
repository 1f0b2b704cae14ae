package ipc

import "errors"

// ErrLocked means another process holds the lock (Lock, in lock_unix.go
// and lock_windows.go).
var ErrLocked = errors.New("locked by another process")
