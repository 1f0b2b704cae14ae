package ipc

import (
	"fmt"
	"syscall"
)

// peerUID is the uid of the process on the other end of the unix socket
// fd, from SO_PEERCRED.
func peerUID(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, fmt.Errorf("reading the socket peer's credentials: %w", err)
	}
	return int(cred.Uid), nil
}
