package paths

import (
	"os"
	"path/filepath"
)

// Browser is a Chromium-based browser that can host the extension.
type Browser struct {
	Name string // e.g. "Google Chrome"
	// ManifestDir is the per-user folder where that browser looks for
	// native messaging host manifests.
	ManifestDir string
}

// Browsers lists the per-user native messaging host folders of the
// Chromium browsers on this OS (see E2E.md; a browser started with a custom
// --user-data-dir reads <user-data-dir>/NativeMessagingHosts instead).
func Browsers() []Browser {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	var out []Browser
	for _, b := range browserDirs() {
		out = append(out, Browser{Name: b[0], ManifestDir: filepath.Join(home, b[1], "NativeMessagingHosts")})
	}
	return out
}
