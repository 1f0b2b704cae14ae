package paths

import (
	"os"
	"strings"
	"testing"
)

func TestHomeEnvMovesEverything(t *testing.T) {
	// os.MkdirTemp, not t.TempDir: this test runs under Wine too, where
	// Go's os.RemoveAll fails (see internal/ipc/ipc_windows_test.go).
	h, err := os.MkdirTemp("", "home")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(h) })
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
