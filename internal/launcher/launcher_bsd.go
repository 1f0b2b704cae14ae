//go:build unix && !darwin && !linux

package launcher

import "syscall"

// setDeathSignal does nothing on the BSDs: they have no parent-death
// signal, so a browser outlives a launcher killed without cleaning up
// (as on macOS).
func setDeathSignal(*syscall.SysProcAttr) {}

func needsDisplay() bool { return true }

// candidates are where the BSDs' Chromium ports install it (FreeBSD's
// www/chromium names its binary chrome), then the names on PATH.
func candidates() []string {
	return []string{"/usr/local/bin/chrome", "/usr/local/bin/chromium", "chrome", "chromium", "chromium-browser"}
}
