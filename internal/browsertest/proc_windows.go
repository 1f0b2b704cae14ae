package browsertest

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
)

// ownGroup starts cmd in a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// termGroup ends cmd: Windows has no signal to ask with.
func termGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

// killGroup ends cmd.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

// stopPID ends process pid and waits up to 2 s until it has.
func stopPID(pid int) {
	p, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	p.Kill()
	done := make(chan struct{})
	go func() { p.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}
