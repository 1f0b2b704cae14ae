package ipc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// xucredVersion is XUCRED_VERSION of <sys/ucred.h>, the only layout of
// struct xucred macOS has had; x/sys does not export it.
const xucredVersion = 0

// peerUID is the effective uid of the process on the other end of the
// unix socket fd. macOS has no SO_PEERCRED; LOCAL_PEERCRED (what
// getpeereid reads) gives it in a struct xucred.
func peerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, fmt.Errorf("reading the socket peer's credentials: %w", err)
	}
	if cred.Version != xucredVersion {
		return 0, fmt.Errorf("the socket peer's credentials came in an unknown layout (version %d); refusing it", cred.Version)
	}
	return int(cred.Uid), nil
}
