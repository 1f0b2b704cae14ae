package launcher

import "syscall"

// setDeathSignal stops the browser if the launcher dies without cleaning up
// (e.g. SIGKILL), so no orphaned browser keeps running.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }

func needsDisplay() bool { return true }

func candidates() []string {
	return []string{
		"/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser",
		"chromium", "chromium-browser", "google-chrome-for-testing", "chrome",
		"google-chrome", "microsoft-edge", "brave-browser",
	}
}
