package paths

import (
	"fmt"
	"os"
	"path/filepath"
)

// userBinDir is in ~/Library/Application Support, where macOS apps keep
// what they need to run and what Time Machine backs up.
func userBinDir() (string, error) {
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the Application Support folder: %w", err)
	}
	return filepath.Join(cfg, "BrowserBridge", "bin"), nil
}
