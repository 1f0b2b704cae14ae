//go:build unix

package staging

import (
	"bytes"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func newDir(t *testing.T) (*Dir, string) {
	t.Helper()
	base := t.TempDir()
	src := filepath.Join(base, "src")
	os.Mkdir(src, 0o755)
	return New(filepath.Join(base, "cache", "uploads")), src
}

func write(t *testing.T, p string, b []byte) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestStageCopiesPrivately(t *testing.T) {
	d, src := newDir(t)
	data := make([]byte, 1<<20+7)
	rand.Read(data)
	a := write(t, filepath.Join(src, "photo.bin"), data)
	b := write(t, filepath.Join(src, "other", "photo.bin"), []byte("same name, other file"))
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(a, old, old)

	staged, cleanup, err := d.Stage([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(staged) != 2 || staged[0] == staged[1] {
		t.Fatalf("staged %v", staged)
	}
	for i, want := range [][]byte{data, []byte("same name, other file")} {
		p := staged[i]
		if filepath.Base(p) != "photo.bin" || !strings.HasPrefix(p, d.Root()+"/") {
			t.Errorf("staged as %s", p)
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("copy %d differs (%d bytes, %v)", i, len(got), err)
		}
		if m := mode(t, p); m != 0o600 {
			t.Errorf("file mode %v", m)
		}
		for dir := filepath.Dir(p); dir != filepath.Dir(d.Root()); dir = filepath.Dir(dir) {
			if m := mode(t, dir); m != 0o700 {
				t.Errorf("folder %s mode %v", dir, m)
			}
		}
	}
	if fi, _ := os.Stat(staged[0]); !fi.ModTime().Equal(old) {
		t.Errorf("modification time %v, want %v", fi.ModTime(), old)
	}
	// What Chrome reads is what was checked: the original swapped for a
	// symlink to a key afterwards changes nothing.
	key := write(t, filepath.Join(src, "k", "key"), []byte("PRIVATE KEY"))
	os.Remove(a)
	os.Symlink(key, a)
	if got, _ := os.ReadFile(staged[0]); !bytes.Equal(got, data) {
		t.Fatal("the staged copy follows the original")
	}

	up := filepath.Dir(filepath.Dir(staged[0]))
	cleanup()
	if _, err := os.Stat(up); !os.IsNotExist(err) {
		t.Fatalf("cleanup left %s: %v", up, err)
	}
	cleanup() // twice is fine
}

func TestStageRefusesAndCopiesNothing(t *testing.T) {
	d, src := newDir(t)
	good := write(t, filepath.Join(src, "report.txt"), []byte("report"))
	link := filepath.Join(src, "link.txt")
	os.Symlink(good, link)
	hard := filepath.Join(src, "hard.txt")
	os.Link(write(t, filepath.Join(src, ".ssh", "id_ed25519"), []byte("KEY")), hard)
	fifo := filepath.Join(src, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	for _, tc := range []struct{ path, rule string }{
		{link, "symlink"},
		{hard, "hard links"},
		{fifo, "FIFO"},
		{src, "folder"},
		{filepath.Join(src, ".ssh", "id_ed25519"), "names secrets"},
		{filepath.Join(src, ".aws", "credentials"), "names secrets"}, // missing: the same answer
	} {
		done := make(chan error, 1)
		go func() {
			_, _, err := d.Stage([]string{good, tc.path})
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Stage blocked", tc.path)
		}
		if protocol.CodeOf(err) != protocol.CodeUploadPathRejected || !strings.Contains(err.Error(), tc.rule) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v, want upload_path_rejected naming it and %q", tc.path, err, tc.rule)
		}
	}
	if entries, _ := os.ReadDir(d.Root()); len(entries) != 0 {
		t.Fatalf("something was staged: %v", entries)
	}
}

func TestStageRefusesMoreThanTheCap(t *testing.T) {
	d, src := newDir(t)
	// Sparse: the size counts, the disk is not used.
	big := filepath.Join(src, "big.iso")
	f, _ := os.Create(big)
	f.Truncate(MaxBytes + 1)
	f.Close()
	_, _, err := d.Stage([]string{big})
	if protocol.CodeOf(err) != protocol.CodeUploadPathRejected || !strings.Contains(err.Error(), "2.0 GiB") {
		t.Fatalf("over the cap: %v", err)
	}
	if entries, _ := os.ReadDir(d.Root()); len(entries) != 0 {
		t.Fatalf("something was staged: %v", entries)
	}
}

// TestStageMakesRoomForNewUploads: kept copies count against the cap;
// the oldest are removed for a new upload once no upload can still be
// setting them, and a young one is never.
func TestStageMakesRoomForNewUploads(t *testing.T) {
	d, src := newDir(t)
	small := write(t, filepath.Join(src, "small.txt"), []byte("x"))
	if _, _, err := d.Stage([]string{small}); err != nil { // creates the folder
		t.Fatal(err)
	}
	leftover := func(name string, age time.Duration) string {
		up := filepath.Join(d.Root(), name)
		os.MkdirAll(filepath.Join(up, "0"), 0o700)
		f, _ := os.Create(filepath.Join(up, "0", "big.iso"))
		f.Truncate(MaxBytes - 1)
		f.Close()
		at := time.Now().Add(-age)
		os.Chtimes(up, at, at)
		return up
	}
	young := leftover("up-young", time.Minute)
	_, _, err := d.Stage([]string{small})
	if protocol.CodeOf(err) != protocol.CodeUploadPathRejected || !strings.Contains(err.Error(), "try again in a few minutes") {
		t.Fatalf("with a young upload filling the folder: %v", err)
	}
	os.RemoveAll(young)
	old := leftover("up-old", 5*time.Minute)
	if _, _, err := d.Stage([]string{small}); err != nil {
		t.Fatalf("with an old upload filling the folder: %v", err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("the old upload was not removed")
	}
}

func TestKeptUploadsExpireAndAreSwept(t *testing.T) {
	d, src := newDir(t)
	d.keep = 200 * time.Millisecond
	small := write(t, filepath.Join(src, "small.txt"), []byte("x"))
	staged, _, err := d.Stage([]string{small})
	if err != nil {
		t.Fatal(err)
	}
	up := filepath.Dir(filepath.Dir(staged[0]))
	if _, err := os.Stat(up); err != nil {
		t.Fatal("removed at once")
	}
	waitGone(t, up)

	// Left by an earlier daemon: the expired one goes at the sweep, the
	// other once its time is up.
	d2 := New(d.Root())
	d2.keep = time.Hour
	stale := filepath.Join(d.Root(), "up-stale")
	fresh := filepath.Join(d.Root(), "up-fresh")
	for p, age := range map[string]time.Duration{stale: 2 * time.Hour, fresh: time.Hour - 300*time.Millisecond} {
		os.MkdirAll(filepath.Join(p, "0"), 0o700)
		os.WriteFile(filepath.Join(p, "0", "f"), []byte("x"), 0o600)
		at := time.Now().Add(-age)
		os.Chtimes(p, at, at)
	}
	if err := d2.Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("the stale upload survived the sweep")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatal("a fresh upload was swept")
	}
	waitGone(t, fresh)
}

func TestStageInParallel(t *testing.T) {
	d, src := newDir(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := write(t, filepath.Join(src, string(rune('a'+i))+".txt"), bytes.Repeat([]byte{byte(i)}, 1000))
			staged, cleanup, err := d.Stage([]string{p})
			if err != nil {
				t.Error(err)
				return
			}
			if got, _ := os.ReadFile(staged[0]); !bytes.Equal(got, bytes.Repeat([]byte{byte(i)}, 1000)) {
				t.Errorf("copy %d differs", i)
			}
			cleanup()
		}()
	}
	wg.Wait()
}

func TestStagingFolderMustBePrivate(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	root := filepath.Join(base, "uploads")
	os.Symlink(real, root)
	src := write(t, filepath.Join(base, "src", "a.txt"), []byte("x"))
	if _, _, err := New(root).Stage([]string{src}); err == nil {
		t.Fatal("staged into a symlinked folder")
	}
	// A loose folder of the user's own is made private.
	loose := filepath.Join(base, "loose")
	os.Mkdir(loose, 0o755)
	if _, _, err := New(loose).Stage([]string{src}); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, loose); m != 0o700 {
		t.Fatalf("mode %v", m)
	}
}

func waitGone(t *testing.T, p string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(p); os.IsNotExist(err) {
			return
		}
	}
	t.Fatalf("%s was not removed", p)
}
