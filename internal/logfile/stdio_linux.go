package logfile

import (
	"os"
	"syscall"
)

// RedirectStdio points this process's stdout and stderr (file descriptors
// 1 and 2) at f. The daemon's stdout and stderr are the log file its
// starter opened; after a rotation they would go on writing into the old
// file. Dup3, not Dup2: linux/arm64 has only the former.
func RedirectStdio(f *os.File) error {
	for _, fd := range []int{1, 2} {
		if err := syscall.Dup3(int(f.Fd()), fd, 0); err != nil {
			return err
		}
	}
	return nil
}
