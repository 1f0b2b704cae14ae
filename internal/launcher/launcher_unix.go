//go:build unix

package launcher

import (
	"os/exec"
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
