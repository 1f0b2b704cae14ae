package install

import (
	"errors"
	"os"
)

const binaryName = "browser-bridge.exe"

// moveAsideRunning renames an earlier copy at dst out of the way: Windows
// refuses to overwrite (or delete) an .exe that runs — the daemon or a
// native host may run from it — but lets it be renamed. The renamed copy
// is removed by the next install once nothing runs from it any more.
func moveAsideRunning(dst string) error {
	old := dst + ".old"
	os.Remove(old) // still running: then the rename below fails and says so
	if err := os.Rename(dst, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
