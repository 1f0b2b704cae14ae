// Package atomicfile writes a file whole or not at all. The bridge's
// state files (the registry, the settings, the browsers' slots, the
// secret, the host's extra origins) are read by other processes at any
// moment, and a crash in the middle of a write must leave the old file,
// never half of a new one.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path through a temporary file beside it (mode
// 0600, as os.CreateTemp makes it; perm, when another, is set before the
// rename) that is then renamed over path: a symlink at path is replaced,
// not followed. On failure nothing is left of the temporary file.
func Write(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && perm != 0o600 {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
