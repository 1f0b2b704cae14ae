//go:build unix

package client

import (
	"os/exec"
	"syscall"
)

// detach puts the daemon in its own session so that it outlives the
// command that started it and a Ctrl-C in that terminal.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
