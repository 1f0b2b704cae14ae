//go:build linux || darwin

package ipc

import (
	"fmt"
	"net"
	"os"
)

// CheckPeer refuses a unix socket peer that runs as another user: the
// socket folder is private, but this costs nothing and also covers a
// folder that was swapped between the check and the dial. How the peer's
// uid is read differs (peerUID: SO_PEERCRED on Linux, LOCAL_PEERCRED on
// macOS); the comparison is this one.
func CheckPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var uid int
	var cerr error
	if err := raw.Control(func(fd uintptr) { uid, cerr = peerUID(int(fd)) }); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if uid != os.Getuid() {
		return fmt.Errorf("the process on the other end of the socket runs as uid %d, not as you (uid %d); refusing it", uid, os.Getuid())
	}
	return nil
}
