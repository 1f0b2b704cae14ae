package paths

import (
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

func TestHomeEnvMovesEverything(t *testing.T) {
	h := t.TempDir()
	t.Setenv(EnvHome, h)
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{l.State, l.Cache, l.Screenshots(), l.Secret(), l.Registry()} {
		if !strings.HasPrefix(p, h) {
			t.Errorf("%q is outside %s", p, h)
		}
	}
}
