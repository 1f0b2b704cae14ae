package paths

import (
	"strings"
	"testing"
)

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
