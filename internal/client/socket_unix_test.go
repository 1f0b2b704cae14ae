//go:build !windows

package client

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
)

// (Unix only: on Windows the socket is a named pipe, which has no folder.)

// A forwarded socket in a folder others may enter is refused with what to
// do about a folder the user chose: move the socket into a private one.
// The daemon's own advice ("remove it, the daemon makes it again") would
// have had them delete, say, their home folder (QA on main).
func TestForwardedSocketInAnOpenFolderSaysMoveIt(t *testing.T) {
	layout := ipctest.Layout(t)
	open := filepath.Join(ipctest.Dir(t), "home")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	_, err := ConnectSocket(context.Background(), filepath.Join(open, "d.sock"), layout.Secret(), "program:test")
	if err == nil {
		t.Fatal("ConnectSocket presented the secret in a folder of mode 0755")
	}
	if msg := err.Error(); !strings.Contains(msg, "0700") || !strings.Contains(msg, "mkdir -m 700") || strings.Contains(msg, "remove it") {
		t.Errorf("error %q, want it to say to put the socket in a private (0700) folder, and not to remove the folder", msg)
	}
	if _, err := os.Stat(open); err != nil {
		t.Errorf("the folder: %v", err)
	}
}
