package install

import (
	"os"
	"path/filepath"
	"runtime"
)

// SandboxedBrowser is a snap or flatpak browser: it runs confined and
// cannot start a native host outside its sandbox, so install does not
// register with it and says why.
type SandboxedBrowser struct {
	Browser string `json:"browser"`
	Path    string `json:"path"`
	Why     string `json:"why"`
}

// sandboxes are the per-user folders of confined browsers on Linux.
var sandboxes = []struct{ name, dir, kind string }{
	{"Chromium (snap)", "snap/chromium", "snap"},
	{"Brave (snap)", "snap/brave", "snap"},
	{"Google Chrome (flatpak)", ".var/app/com.google.Chrome", "flatpak"},
	{"Chromium (flatpak)", ".var/app/org.chromium.Chromium", "flatpak"},
	{"Ungoogled Chromium (flatpak)", ".var/app/io.github.ungoogled_software.ungoogled_chromium", "flatpak"},
	{"Brave (flatpak)", ".var/app/com.brave.Browser", "flatpak"},
	{"Microsoft Edge (flatpak)", ".var/app/com.microsoft.Edge", "flatpak"},
}

// Sandboxed lists the snap and flatpak browsers of the user whose home is
// home (none outside Linux).
func Sandboxed(home string) []SandboxedBrowser {
	if runtime.GOOS != "linux" || home == "" {
		return nil
	}
	var out []SandboxedBrowser
	for _, s := range sandboxes {
		p := filepath.Join(home, s.dir)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		why := "a " + s.kind + " browser runs confined and cannot start programs outside its sandbox, so it cannot reach the native host; use Chrome or Chromium from a .deb/.rpm package, or `browser-bridge launch`"
		out = append(out, SandboxedBrowser{Browser: s.name, Path: p, Why: why})
	}
	return out
}
