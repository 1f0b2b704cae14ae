package paths

import (
	"errors"
	"os"
	"path/filepath"
)

// userBinDir is in %LOCALAPPDATA%, beside the bridge's state: per user,
// not roaming (a binary is for this machine only).
func userBinDir() (string, error) {
	local := os.Getenv("LOCALAPPDATA")
	if local == "" {
		return "", errors.New("finding the local application data folder: %LOCALAPPDATA% is not set")
	}
	return filepath.Join(local, "BrowserBridge", "bin"), nil
}
