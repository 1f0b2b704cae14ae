package ipc

import (
	"fmt"
	"net"

	"golang.org/x/sys/windows"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// CheckPeer refuses a pipe peer that runs as another user: the Windows
// form of the peer UID check. The pipe's DACL already keeps other users
// from opening the daemon's end; this also covers a client that found a
// pipe of the same name made by someone else first (the name is
// machine-wide), which would collect the secret. The daemon asks for the
// client's process, the client for the server's; either way the user SID
// of that process's token must be this process's.
func CheckPeer(c net.Conn) error {
	pc, ok := c.(*pipeConn)
	if !ok {
		return nil
	}
	var pid uint32
	var err error
	if pc.server {
		err = windows.GetNamedPipeClientProcessId(pc.h, &pid)
	} else {
		err = windows.GetNamedPipeServerProcessId(pc.h, &pid)
	}
	if err != nil {
		return fmt.Errorf("finding the process on the other end of the pipe: %w", err)
	}
	sid, err := processUser(pid)
	if err != nil {
		return fmt.Errorf("finding the user of the process on the other end of the pipe (pid %d): %w", pid, err)
	}
	me, err := paths.UserSID()
	if err != nil {
		return err
	}
	if !sid.Equals(me) {
		return fmt.Errorf("the process on the other end of the pipe (pid %d) runs as %s, not as you (%s); refusing it", pid, sid, me)
	}
	return nil
}

// processUser is the user SID of process pid's token.
func processUser(pid uint32) (*windows.SID, error) {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return nil, err
	}
	defer windows.CloseHandle(p)
	var tok windows.Token
	if err := windows.OpenProcessToken(p, windows.TOKEN_QUERY, &tok); err != nil {
		return nil, err
	}
	defer tok.Close()
	tu, err := tok.GetTokenUser()
	if err != nil {
		return nil, err
	}
	return tu.User.Sid.Copy()
}
