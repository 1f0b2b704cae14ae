//go:build !linux && !darwin

package logfile

import "os"

// RedirectStdio does nothing here: after a rotation, what the runtime
// writes to stderr (a panic) goes to the file the daemon was started with.
func RedirectStdio(f *os.File) error { return nil }
