package logfile

import (
	"os"
	"syscall"
)

// RedirectStdio points this process's stdout and stderr (file descriptors
// 1 and 2) at f. The daemon's stdout and stderr are the log file its
// starter opened; after a rotation they would go on writing into the old
// file.
func RedirectStdio(f *os.File) error {
	for _, fd := range []int{1, 2} {
		if err := syscall.Dup2(int(f.Fd()), fd); err != nil {
			return err
		}
	}
	return nil
}
