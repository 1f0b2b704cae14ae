//go:build linux || darwin

package pathcheck

import (
	"os"
	"syscall"
)

// The part Linux and macOS share: both ask statfs, and each names the
// filesystems its own way (pseudoName, in pseudofs_linux.go and
// pseudofs_darwin.go).

// pseudoFSType returns the name of the pseudo-filesystem that holds path,
// or "" for any other filesystem.
func pseudoFSType(path string) (string, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return "", err
	}
	return pseudoName(&st), nil
}

// pseudoFSTypeOf is pseudoFSType of an open file.
func pseudoFSTypeOf(f *os.File) (string, error) {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return "", err
	}
	return pseudoName(&st), nil
}
