package client

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// detach starts the daemon with no console (DETACHED_PROCESS: no window
// flashes up, and closing the terminal or a Ctrl-C in it does not reach
// the daemon) in a process group of its own, so it outlives the command
// that started it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP,
		HideWindow:    true,
	}
}
