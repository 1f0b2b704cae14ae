//go:build unix

package paths

import (
	"os"
	"path/filepath"
	"strings"
)

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
		dir := filepath.Join(home, b[1])
		// On Linux the browsers keep their folders under $XDG_CONFIG_HOME
		// when it is set (an absolute path, as the spec requires).
		if rest, ok := strings.CutPrefix(b[1], ".config/"); ok {
			if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
				dir = filepath.Join(x, rest)
			}
		}
		out = append(out, Browser{Name: b[0], ManifestDir: filepath.Join(dir, "NativeMessagingHosts"), ConfigDir: dir})
	}
	return out
}
