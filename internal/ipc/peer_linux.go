package ipc

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// CheckPeer refuses a unix socket peer that runs as another user: the
// socket folder is private, but this costs nothing and also covers a
// folder that was swapped between the check and the dial.
func CheckPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("reading the socket peer's credentials: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the process on the other end of the socket runs as uid %d, not as you (uid %d); refusing it", cred.Uid, os.Getuid())
	}
	return nil
}
