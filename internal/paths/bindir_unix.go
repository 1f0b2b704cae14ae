//go:build unix && !darwin

package paths

import (
	"fmt"
	"os"
	"path/filepath"
)

// userBinDir follows the XDG base directories: programs' data belongs in
// $XDG_DATA_HOME, by default ~/.local/share.
func userBinDir() (string, error) {
	data := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the home folder: %w", err)
		}
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "browser-bridge", "bin"), nil
}
