//go:build unix

package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSocketFallsBackWhenPathTooLong(t *testing.T) {
	short := ForHome("/tmp/x")
	if short.Socket != "/tmp/x/run/daemon.sock" {
		t.Fatalf("short home: socket %q", short.Socket)
	}
	long := "/tmp/" + strings.Repeat("a", 120)
	l := ForHome(long)
	if len(l.Socket) > maxSocketPath {
		t.Fatalf("socket path %q is %d bytes", l.Socket, len(l.Socket))
	}
	if strings.HasPrefix(l.Socket, long) {
		t.Fatalf("long home kept its socket inside: %q", l.Socket)
	}
	if other := ForHome(long + "b"); other.Socket == l.Socket {
		t.Fatal("two homes share one fallback socket")
	}
}

func TestEnsurePrivateDirFixesMode(t *testing.T) {
	d := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := EnsurePrivateDir(d); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(d)
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", fi.Mode().Perm())
	}
}

// A state folder found open is made private, and because a secret was in
// it, a note says so for the daemon, which replaces the secret. Whoever
// finds the folder open (CLI, MCP server, daemon) leaves the same note.
func TestMakePrivateNotesAnExposedSecret(t *testing.T) {
	for _, mode := range []os.FileMode{0o755, 0o750, 0o711, 0o777, 0o701} {
		l := ForHome(filepath.Join(t.TempDir(), "state"))
		if err := os.Mkdir(l.State, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(l.Secret(), []byte("x"), 0o600)
		os.Chmod(l.State, mode) // past the umask
		was, err := MakePrivate(l.State)
		if err != nil || was != mode {
			t.Fatalf("MakePrivate of a %#o folder: %#o, %v", mode, was, err)
		}
		if fi, _ := os.Stat(l.State); fi.Mode().Perm() != 0o700 {
			t.Errorf("%#o folder: mode now %v, want 0700", mode, fi.Mode().Perm())
		}
		note, err := os.ReadFile(l.SecretExposed())
		if err != nil || !strings.Contains(string(note), fmt.Sprintf("%#o", mode)) || !strings.Contains(string(note), "others could") {
			t.Errorf("%#o folder: note %q, %v", mode, note, err)
		}
		if fi, err := os.Stat(l.SecretExposed()); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("the note is not a private file: %v %v", fi, err)
		}
		// Private now: nothing more to say.
		if was, err := MakePrivate(l.State); was != 0 || err != nil {
			t.Errorf("second MakePrivate: %#o, %v", was, err)
		}
	}
}

func TestMakePrivateWithoutSecretLeavesNoNote(t *testing.T) {
	l := ForHome(filepath.Join(t.TempDir(), "state"))
	os.Mkdir(l.State, 0o700)
	os.Chmod(l.State, 0o755)
	if was, err := MakePrivate(l.State); was != 0o755 || err != nil {
		t.Fatalf("MakePrivate: %#o, %v", was, err)
	}
	if _, err := os.Stat(l.SecretExposed()); err == nil {
		t.Error("a note without a secret to replace")
	}
	// A new folder is private from the start.
	if was, err := MakePrivate(filepath.Join(l.State, "new", "sub")); was != 0 || err != nil {
		t.Fatalf("MakePrivate of a new folder: %#o, %v", was, err)
	}
}

func TestMakePrivateRefusesWhatIsNotOurFolder(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o755)
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	if _, err := MakePrivate(link); err == nil {
		t.Error("a symlink to a folder was taken for the folder")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o755 {
		t.Error("MakePrivate chmod-ed through a symlink")
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := MakePrivate(file); err == nil {
		t.Error("a file was taken for a folder")
	}
	// Ownership: only root can give a folder away (CI runs the tests as
	// root, so this part runs there).
	if os.Geteuid() != 0 {
		t.Log("not root: cannot chown a folder to another user; skipping that part")
		return
	}
	theirs := filepath.Join(dir, "theirs")
	os.Mkdir(theirs, 0o700)
	if err := os.Chown(theirs, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	if _, err := MakePrivate(theirs); err == nil || !strings.Contains(err.Error(), "another user") {
		t.Errorf("a folder of uid 12345: %v", err)
	}
}
