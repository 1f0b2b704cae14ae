//go:build unix

package pathcheck

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// swapAtOpen makes Open find, between its checks and its open, what swap
// puts there: the race of a check that returns a path Chrome opens later.
func swapAtOpen(t *testing.T, swap func(canon string)) {
	t.Helper()
	testHookOpen = swap
	t.Cleanup(func() { testHookOpen = nil })
}

// bothWays runs f with openat2 (where the kernel has it) and with the
// component walk that replaces it elsewhere.
func bothWays(t *testing.T, f func(t *testing.T)) {
	t.Run("openat2", f)
	t.Run("walk", func(t *testing.T) {
		old := noOpenat2Swap(true)
		defer noOpenat2Swap(old)
		f(t)
	})
}

func TestOpenRefusesAFileSwappedForASymlink(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := t.TempDir()
		secret := filepath.Join(dir, "hidden", "id_rsa")
		os.MkdirAll(filepath.Dir(secret), 0o700)
		os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600)
		p := filepath.Join(dir, "report.txt")
		os.WriteFile(p, []byte("report"), 0o644)
		swapAtOpen(t, func(canon string) {
			os.Remove(canon)
			os.Symlink(secret, canon)
		})
		_, err := Open(p)
		wantRule(t, err, p, "changed while it was checked")
	})
}

func TestOpenRefusesAParentSwappedForASymlink(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := t.TempDir()
		keys := filepath.Join(dir, "keys")
		os.MkdirAll(keys, 0o700)
		os.WriteFile(filepath.Join(keys, "report.txt"), []byte("PRIVATE KEY"), 0o600)
		p := filepath.Join(dir, "docs", "report.txt")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("report"), 0o644)
		swapAtOpen(t, func(canon string) {
			os.RemoveAll(filepath.Dir(canon))
			os.Symlink(keys, filepath.Dir(canon))
		})
		_, err := Open(p)
		wantRule(t, err, p, "changed while it was checked")
	})
}

func TestOpenRefusesHardLinks(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, ".ssh", "id_ed25519")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("PRIVATE KEY"), 0o600)
	p := filepath.Join(dir, "report.txt")
	if err := os.Link(key, p); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p)
	wantRule(t, err, p, "2 hard links")
	if why := Refused(p); !strings.Contains(why, "hard links") {
		t.Fatalf("file: URL of a hard link: %q", why)
	}
	// Made at the last moment, it is caught on the open file.
	q := filepath.Join(dir, "later.txt")
	os.WriteFile(q, []byte("x"), 0o644)
	swapAtOpen(t, func(canon string) {
		os.Remove(canon)
		os.Link(key, canon)
	})
	_, err = Open(q)
	wantRule(t, err, q, "hard links")
}

func TestOpenRefusesFIFOsDevicesAndFoldersWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, rule string
		put        func(canon string) error
	}{
		{"fifo", "FIFO", func(c string) error { return syscall.Mkfifo(c, 0o644) }},
		{"folder", "folder", func(c string) error { return os.Mkdir(c, 0o755) }},
		{"device", "device", func(c string) error { return syscall.Mknod(c, syscall.S_IFCHR|0o644, 0x103) }}, // 1:3, /dev/null
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".txt")
			os.WriteFile(p, []byte("x"), 0o644)
			var putErr error
			swapAtOpen(t, func(canon string) {
				os.Remove(canon)
				putErr = tc.put(canon)
			})
			done := make(chan error, 1)
			go func() { _, err := Open(p); done <- err }()
			select {
			case err := <-done:
				if putErr != nil {
					t.Skipf("cannot make a %s here: %v", tc.name, putErr)
				}
				wantRule(t, err, p, tc.rule)
			case <-time.After(5 * time.Second):
				t.Fatal("Open blocked")
			}
		})
	}
}

// TestOpenReadsTheFileThatWasChecked: once open, the file is what is read,
// whatever is put at its path afterwards.
func TestOpenReadsTheFileThatWasChecked(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.txt")
	os.WriteFile(p, []byte("the report"), 0o644)
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.Remove(p)
	os.WriteFile(filepath.Join(dir, "secret"), []byte("PRIVATE KEY"), 0o600)
	os.Symlink(filepath.Join(dir, "secret"), p)
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "the report" {
		t.Fatalf("read %q, %v", b, err)
	}
	if f.Path != p || f.Canonical != p || f.Info.Size() != 10 {
		t.Fatalf("file: %+v", f)
	}
}

func TestOpenFolderRules(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, mode os.FileMode) string {
		d := filepath.Join(dir, name)
		os.Mkdir(d, 0o700)
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "f.txt")
		os.WriteFile(p, []byte("x"), 0o644)
		return p
	}
	ok := func(p string) {
		t.Helper()
		if _, err := Check([]string{p}); err != nil {
			t.Errorf("refused: %v", err)
		}
	}
	ok(mk("private", 0o700))
	ok(mk("readable", 0o755))
	ok(mk("sticky-shared", 0o777|os.ModeSticky)) // /tmp, with a file of the user's own
	_, err := Check([]string{mk("shared", 0o777)})
	wantRule(t, err, filepath.Join(dir, "shared", "f.txt"), "writable by group and others")
	_, err = Check([]string{mk("others", 0o703)})
	wantRule(t, err, filepath.Join(dir, "others", "f.txt"), "writable by others")

	group := mk("group", 0o770)
	if gid := privateGroup(); gid >= 0 {
		os.Chown(filepath.Dir(group), -1, gid)
		ok(group)
	}
	if os.Geteuid() != 0 {
		t.Log("not root: the cases of other users' files and groups need chown")
		return
	}
	os.Chown(filepath.Dir(group), -1, 54321)
	_, err = Check([]string{group})
	wantRule(t, err, group, "writable by its group")
	theirs := mk("sticky-theirs", 0o777|os.ModeSticky)
	os.Chown(theirs, 54321, 54321)
	_, err = Check([]string{theirs})
	wantRule(t, err, theirs, "belongs to another user")
}

// TestFolderRefusal checks the folder rule alone, for the cases a test
// cannot make without root.
func TestFolderRefusal(t *testing.T) {
	me := uint32(os.Geteuid())
	for _, tc := range []struct {
		mode, uid, gid uint32
		want           string
	}{
		{0o700, me, 0, ""},
		{0o755, 12345, 12345, ""},
		{0o1777, me, 0, ""},
		{0o1777, me + 1, 0, "another user"},
		{0o777, me, 0, "group and others"},
		{0o775, me, 54321, "its group"},
		{0o2775, me, 54321, "its group"},
		{0o757, me, 0, "others"},
	} {
		got := folderRefusal(folderStat{mode: tc.mode, gid: tc.gid}, tc.uid)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("folder %04o, file uid %d: %q, want %q", tc.mode, tc.uid, got, tc.want)
		}
	}
	if gid := privateGroup(); gid >= 0 {
		if got := folderRefusal(folderStat{mode: 0o775, gid: uint32(gid)}, me); got != "" {
			t.Errorf("the user's private group: %q", got)
		}
		if got := folderRefusal(folderStat{mode: 0o777, gid: uint32(gid)}, me); got == "" {
			t.Error("writable by others, whatever the group")
		}
	}
}

// TestWalkFolderRefusesSymlinks: the walk that replaces openat2 stops at
// any symlink on the way, and opens plain folders.
func TestWalkFolderRefusesSymlinks(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "l"))
	fd, err := walkFolder(filepath.Join(dir, "a", "b"))
	if err != nil {
		t.Fatalf("plain folder: %v", err)
	}
	syscall.Close(fd)
	for _, p := range []string{filepath.Join(dir, "l", "b"), filepath.Join(dir, "l"), dir + "/a/../a"} {
		if fd, err := walkFolder(p); err == nil {
			syscall.Close(fd)
			t.Errorf("%s opened", p)
		}
	}
}

func wantRule(t *testing.T, err error, p, rule string) {
	t.Helper()
	if protocol.CodeOf(err) != protocol.CodeUploadPathRejected {
		t.Fatalf("%s: got %v, want upload_path_rejected", p, err)
	}
	if !strings.Contains(err.Error(), rule) || !strings.Contains(err.Error(), p) {
		t.Fatalf("error %q does not name the path and %q", err, rule)
	}
}
