package paths

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvInstallDir names the folder a script installed the binary into
// (install.sh sets it); a binary that runs from there is in a lasting
// place already.
const EnvInstallDir = "BROWSER_BRIDGE_INSTALL_DIR"

// BinDir is the lasting per-user folder that `install` copies the binary
// into when it runs from somewhere that may go away (the npx cache, a
// downloads folder, /tmp): browsers start the native host from the path
// in its manifest, long after the command that wrote it has ended.
// Under BROWSER_BRIDGE_HOME it is that folder's bin, like all other state.
func BinDir() (string, error) {
	if h := os.Getenv(EnvHome); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return "", fmt.Errorf("resolving %s=%q: %w", EnvHome, h, err)
		}
		return filepath.Join(abs, "bin"), nil
	}
	dir, err := userBinDir()
	if err != nil {
		return "", fmt.Errorf("%w (set %s)", err, EnvHome)
	}
	return dir, nil
}
