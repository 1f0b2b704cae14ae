package secret

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

func TestEnsureCreatesPrivateFileOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s", "secret")
	a, err := Ensure(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	b, err := Ensure(p)
	if err != nil || a != b {
		t.Fatalf("second Ensure: %q %v, want %q", b, err, a)
	}
	if len(a) != 64 {
		t.Fatalf("secret %q is not 32 hex bytes", a)
	}
	if !Equal(a, b) || Equal(a, b[:63]+"x") {
		t.Fatal("Equal is wrong")
	}
}

func TestLoadRejectsMalformed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(p, []byte("short"), 0o600)
	if _, err := Load(p); err == nil {
		t.Fatal("malformed secret accepted")
	}
}

// state makes a state folder with a secret, then sets the folder's and the
// secret's modes (past the umask).
func state(t *testing.T, dirMode, fileMode os.FileMode) (paths.Layout, string) {
	t.Helper()
	l := paths.ForHome(filepath.Join(t.TempDir(), "state"))
	s, err := Ensure(l.Secret())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(l.Secret(), fileMode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(l.State, dirMode); err != nil {
		t.Fatal(err)
	}
	return l, s
}

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestPrepareKeepsAPrivateSecret(t *testing.T) {
	l, old := state(t, 0o700, 0o600)
	s, notes, err := Prepare(l)
	if err != nil || s != old || len(notes) != 0 {
		t.Fatalf("Prepare of private state: %q %q %v, want the same secret and no notes", s, notes, err)
	}
	// No secret yet: one is made, nothing to say.
	l2 := paths.ForHome(filepath.Join(t.TempDir(), "new"))
	s, notes, err = Prepare(l2)
	if err != nil || len(s) != 64 || len(notes) != 0 || mode(t, l2.State) != 0o700 || mode(t, l2.Secret()) != 0o600 {
		t.Fatalf("Prepare of a new state folder: %q %q %v", s, notes, err)
	}
}

// A 0755 state folder was chmod-ed to 0700 without a
// word and its secret kept.
func TestPrepareReplacesTheSecretOfAnOpenFolder(t *testing.T) {
	for _, dm := range []os.FileMode{0o755, 0o750, 0o711, 0o777} {
		l, old := state(t, dm, 0o600)
		s, notes, err := Prepare(l)
		if err != nil {
			t.Fatalf("%#o: %v", dm, err)
		}
		if s == old || len(s) != 64 {
			t.Errorf("%#o folder: the secret was kept", dm)
		}
		if got, _ := Load(l.Secret()); got != s {
			t.Errorf("%#o folder: the file holds %q, Prepare returned %q", dm, got, s)
		}
		if mode(t, l.State) != 0o700 || mode(t, l.Secret()) != 0o600 {
			t.Errorf("%#o folder: modes now %v and %v", dm, mode(t, l.State), mode(t, l.Secret()))
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "replaced the secret") || !strings.Contains(notes[0], fmt.Sprintf("%#o", dm)) {
			t.Errorf("%#o folder: notes %q", dm, notes)
		}
		if _, err := os.Stat(l.SecretExposed()); err == nil {
			t.Errorf("%#o folder: the note outlived the new secret", dm)
		}
		if again, notes, _ := Prepare(l); again != s || len(notes) != 0 {
			t.Errorf("%#o folder: second Prepare %q %q", dm, again, notes)
		}
	}
}

// The CLI or the MCP server may find the folder open first (they make it
// private before starting the daemon): the daemon still replaces the secret.
func TestPrepareReplacesTheSecretWhenAnotherProcessClosedTheFolder(t *testing.T) {
	l, old := state(t, 0o755, 0o600)
	if err := paths.EnsurePrivateDir(l.State); err != nil { // what client.EnsureDaemon does
		t.Fatal(err)
	}
	s, notes, err := Prepare(l)
	if err != nil || s == old || len(notes) != 1 || !strings.Contains(notes[0], "0755") {
		t.Fatalf("Prepare after another process closed the folder: %q %q %v", s, notes, err)
	}
}

func TestPrepareReplacesASecretOthersCouldRead(t *testing.T) {
	for _, fm := range []os.FileMode{0o644, 0o640, 0o604, 0o620, 0o666} {
		l, old := state(t, 0o700, fm)
		if err := Check(l.Secret()); err == nil {
			t.Errorf("Check passed a %#o secret", fm)
		}
		s, notes, err := Prepare(l)
		if err != nil || s == old || mode(t, l.Secret()) != 0o600 {
			t.Errorf("%#o secret: %q %v, mode %v", fm, s, err, mode(t, l.Secret()))
		}
		if len(notes) != 1 || !strings.Contains(notes[0], fmt.Sprintf("%#o", fm)) {
			t.Errorf("%#o secret: notes %q", fm, notes)
		}
	}
}

func TestPrepareReplacesASymlinkedOrMalformedSecret(t *testing.T) {
	l, _ := state(t, 0o700, 0o600)
	elsewhere := filepath.Join(t.TempDir(), "planted")
	planted := strings.Repeat("ab", 32)
	os.WriteFile(elsewhere, []byte(planted+"\n"), 0o600)
	os.Remove(l.Secret())
	os.Symlink(elsewhere, l.Secret())
	s, notes, err := Prepare(l)
	if err != nil || s == planted || len(notes) != 1 || !strings.Contains(notes[0], "not a regular file") {
		t.Fatalf("symlinked secret: %q %q %v", s, notes, err)
	}
	if fi, _ := os.Lstat(l.Secret()); !fi.Mode().IsRegular() {
		t.Error("the symlink is still there")
	}
	if b, _ := os.ReadFile(elsewhere); strings.TrimSpace(string(b)) != planted {
		t.Error("Prepare wrote through the symlink")
	}
	os.WriteFile(l.Secret(), []byte("short\n"), 0o600)
	if s, notes, err := Prepare(l); err != nil || len(s) != 64 || len(notes) != 1 {
		t.Fatalf("malformed secret: %q %q %v", s, notes, err)
	}
}

// Another user's secret is known to that user. Only root can give a file
// away; CI runs the tests as root, so this runs there.
func TestPrepareReplacesASecretOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot chown the secret to another user")
	}
	l, old := state(t, 0o700, 0o600)
	if err := os.Chown(l.Secret(), 12345, 12345); err != nil {
		t.Fatal(err)
	}
	if err := Check(l.Secret()); err == nil || !strings.Contains(err.Error(), "uid 12345") {
		t.Errorf("Check of another user's secret: %v", err)
	}
	s, notes, err := Prepare(l)
	if err != nil || s == old || len(notes) != 1 || !strings.Contains(notes[0], "uid 12345") {
		t.Fatalf("another user's secret: %q %q %v", s, notes, err)
	}
	fi, _ := os.Lstat(l.Secret())
	if uid, _ := paths.Owner(fi); uid != os.Getuid() {
		t.Errorf("the new secret belongs to uid %d", uid)
	}
}
