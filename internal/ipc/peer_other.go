//go:build !linux && !windows && !darwin

package ipc

import "net"

// CheckPeer is a no-op where SO_PEERCRED is not available; the private
// socket folder (checked before dialing) is the guard there.
func CheckPeer(c net.Conn) error { return nil }
