package nmhost

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// captureStderr sends what AllowedOrigins says to a buffer for one test.
// Tests that use it must not run in parallel.
func captureStderr(t *testing.T) *bytes.Buffer {
	var b bytes.Buffer
	old := Stderr
	Stderr = &b
	t.Cleanup(func() { Stderr = old })
	return &b
}

// An origins file planted beside the binary made
// the host accept a foreign extension. Not parallel: it sets Stderr and
// the environment.
func TestAllowedOriginsIgnoresAnOriginsFileOthersCouldWrite(t *testing.T) {
	t.Setenv(EnvOrigins, "")
	foreign := "chrome-extension://" + strings.Repeat("e", 32) + "/"
	for _, tc := range []struct {
		mode   os.FileMode
		ignore bool
	}{
		{0o644, false}, {0o600, false}, {0o444, false},
		{0o666, true}, {0o664, true}, {0o646, true}, {0o622, true},
	} {
		exe := filepath.Join(t.TempDir(), "browser-bridge")
		p := filepath.Join(filepath.Dir(exe), OriginsFile)
		os.WriteFile(p, []byte(foreign+"\n"), 0o600)
		os.Chmod(p, tc.mode)
		out := captureStderr(t)
		got := AllowedOrigins(exe)
		if tc.ignore {
			if slices.Contains(got, foreign) {
				t.Errorf("%#o origins file: the host allows %s", tc.mode, foreign)
			}
			if !strings.Contains(out.String(), p) || !strings.Contains(out.String(), "others could") {
				t.Errorf("%#o origins file: stderr %q does not say why it was ignored", tc.mode, out)
			}
			if err := CheckOriginsFile(p); err == nil {
				t.Errorf("CheckOriginsFile passed a %#o file", tc.mode)
			}
		} else {
			if !slices.Contains(got, foreign) || out.Len() > 0 {
				t.Errorf("%#o origins file: allowed %v, stderr %q", tc.mode, got, out)
			}
			if err := CheckOriginsFile(p); err != nil {
				t.Errorf("CheckOriginsFile(%#o): %v", tc.mode, err)
			}
		}
	}
	// A symlink to a file that would pass is refused too: the file checked
	// must be the one beside the binary.
	exe := filepath.Join(t.TempDir(), "browser-bridge")
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(target, []byte(foreign+"\n"), 0o644)
	os.Symlink(target, filepath.Join(filepath.Dir(exe), OriginsFile))
	out := captureStderr(t)
	if got := AllowedOrigins(exe); slices.Contains(got, foreign) || !strings.Contains(out.String(), "symlink") {
		t.Errorf("symlinked origins file: allowed %v, stderr %q", got, out)
	}
	if CheckOriginsFile(filepath.Join(filepath.Dir(exe), OriginsFile)) == nil {
		t.Error("CheckOriginsFile passed a symlink")
	}
	// No file: nothing to say.
	out = captureStderr(t)
	if AllowedOrigins(filepath.Join(t.TempDir(), "bb")); out.Len() > 0 {
		t.Errorf("no origins file: stderr %q", out)
	}
}

// Only root can give a file away; CI runs the tests as root, so this runs
// there.
func TestAllowedOriginsIgnoresAnotherUsersOriginsFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot chown the origins file to another user")
	}
	t.Setenv(EnvOrigins, "")
	foreign := "chrome-extension://" + strings.Repeat("e", 32) + "/"
	exe := filepath.Join(t.TempDir(), "browser-bridge")
	p := filepath.Join(filepath.Dir(exe), OriginsFile)
	os.WriteFile(p, []byte(foreign+"\n"), 0o644)
	os.Chown(p, 12345, 12345)
	out := captureStderr(t)
	if got := AllowedOrigins(exe); slices.Contains(got, foreign) || !strings.Contains(out.String(), "uid 12345") {
		t.Errorf("another user's origins file: allowed %v, stderr %q", got, out)
	}
	os.Chown(p, 0, 0) // root's: a binary in /usr/local/bin
	if got := AllowedOrigins(exe); !slices.Contains(got, foreign) {
		t.Errorf("root's origins file: allowed %v", got)
	}
}
