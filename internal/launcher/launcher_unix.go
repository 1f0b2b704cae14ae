//go:build unix

package launcher

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// ownGroup starts the browser in its own process group, so it can be
// stopped as a whole (renderers, GPU process, our native host) by its PID
// and a Ctrl-C in the terminal reaches only the launcher, which stops it in
// order.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	syscall.Kill(-cmd.Process.Pid, sig)
}

// brandedVersion is the major version of Google Chrome when bin is Google
// Chrome (its --version says so), or 0.
func brandedVersion(bin string) int {
	base := strings.ToLower(filepath.Base(bin))
	if !strings.Contains(base, "google-chrome") && !strings.Contains(base, "google chrome") && base != "chrome" {
		return 0
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return 0
	}
	return versionOutput(out)
}
