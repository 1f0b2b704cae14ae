package pathcheck

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// winTempDir is a fresh folder, removed best-effort: t.TempDir fails under
// Wine, whose file deletion lacks the POSIX semantics Go 1.26's
// os.RemoveAll asks for.
func winTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if why := ruleRefusal(dir, true, true); why != "" {
		t.Fatalf("the test's own folder %s is refused: %s", dir, why)
	}
	return dir
}

func TestOpenOnWindows(t *testing.T) {
	dir := winTempDir(t)
	p := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(p, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatalf("a plain file: %v", err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "hello" || !strings.EqualFold(f.Canonical, p) {
		t.Errorf("read %q at %q", b, f.Canonical)
	}
	// As written, before the file system: a stream, a short name, a UNC path.
	for _, bad := range []string{p + ":hidden", filepath.Join(dir, "REPORT~1.TXT"), `\\localhost\c$\x.txt`} {
		if _, err := Open(bad); err == nil {
			t.Errorf("%s was opened", bad)
		}
	}
	// The same file under \\?\ is the same file.
	if f, err := Open(`\\?\` + p); err != nil {
		t.Errorf(`the \\?\ form: %v`, err)
	} else {
		f.Close()
	}
	// A second name (a hard link) hides which name is the original.
	if err := os.Link(p, filepath.Join(dir, "other.txt")); err != nil {
		t.Fatalf("making a hard link: %v", err)
	}
	if _, err := Open(p); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("a file with two names: %v", err)
	}
	// A folder is not a file.
	if _, err := Open(dir); err == nil {
		t.Error("a folder was opened")
	}
}

func TestOpenRefusesSymlinksOnWindows(t *testing.T) {
	dir := winTempDir(t)
	target := filepath.Join(dir, "target.txt")
	os.WriteFile(target, []byte("x"), 0o600)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("this system makes no symlinks for this user (Windows needs developer mode or an elevated token): %v", err)
	}
	// Windows says "symlink"; Wine 8 makes a link that Lstat cannot
	// follow and says the file does not exist. Either way it is not
	// opened.
	if _, err := Open(link); err == nil {
		t.Error("a symlink was opened")
	} else {
		t.Log(err)
	}
}
