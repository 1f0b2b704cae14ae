package install

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopySelfPutsAndReplacesTheBinary(t *testing.T) {
	src := filepath.Join(t.TempDir(), "browser-bridge")
	dir := filepath.Join(t.TempDir(), "share", "bin")
	for _, content := range []string{"version one", "version two"} {
		if err := os.WriteFile(src, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		got, err := CopySelf(src, dir)
		if err != nil {
			t.Fatal(err)
		}
		if got != filepath.Join(dir, binaryName) {
			t.Errorf("copy at %s, want it in %s", got, dir)
		}
		data, err := os.ReadFile(got)
		if err != nil || string(data) != content {
			t.Errorf("the copy holds %q (%v), want %q", data, err, content)
		}
		if fi, err := os.Stat(got); err != nil || fi.Mode().Perm()&0o100 == 0 {
			t.Errorf("the copy is not executable: %v %v", fi.Mode(), err)
		}
	}
	// Nothing but the binary is left behind (no temporary files).
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the bin folder holds %d entries, want only the binary", len(ents))
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the bin folder has mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
}

func TestCopySelfOfAMissingBinarySaysWhich(t *testing.T) {
	_, err := CopySelf(filepath.Join(t.TempDir(), "gone"), t.TempDir())
	if err == nil {
		t.Fatal("copying a missing binary worked")
	}
}

func TestInLastingPlace(t *testing.T) {
	bin, script, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	for _, c := range []struct {
		exe     string
		lasting []string
		want    bool
	}{
		{filepath.Join(bin, "browser-bridge"), nil, true},
		{filepath.Join(script, "browser-bridge"), []string{"", script}, true},
		{filepath.Join(tmp, "browser-bridge"), []string{script, "relative/dir"}, false},
		{filepath.Join(tmp, "browser-bridge"), nil, false},
	} {
		if got := InLastingPlace(c.exe, bin, c.lasting); got != c.want {
			t.Errorf("InLastingPlace(%s, %q) = %v, want %v", c.exe, c.lasting, got, c.want)
		}
	}
}
