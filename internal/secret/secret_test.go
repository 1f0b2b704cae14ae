package secret

import (
	"os"
	"path/filepath"
	"testing"
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
