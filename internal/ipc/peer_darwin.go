package ipc

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// xucredVersion is XUCRED_VERSION of <sys/ucred.h>, the only layout of
// struct xucred macOS has had; x/sys does not export it.
const xucredVersion = 0

// CheckPeer refuses a unix socket peer that runs as another user, as on
// Linux: the socket folder is private, but this costs nothing and also
// covers a folder that was swapped between the check and the dial. macOS
// has no SO_PEERCRED; LOCAL_PEERCRED (what getpeereid reads) gives the
// peer's effective uid in a struct xucred.
func CheckPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Xucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("reading the socket peer's credentials: %w", cerr)
	}
	if cred.Version != xucredVersion {
		return fmt.Errorf("the socket peer's credentials came in an unknown layout (version %d); refusing it", cred.Version)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the process on the other end of the socket runs as uid %d, not as you (uid %d); refusing it", cred.Uid, os.Getuid())
	}
	return nil
}
