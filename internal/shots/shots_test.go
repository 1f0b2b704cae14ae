package shots

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWritePrivateUniqueAndPruned(t *testing.T) {
	d := New(filepath.Join(t.TempDir(), "shots"))
	now := time.Unix(1_700_000_000, 0)
	d.now = func() time.Time { return now }
	d.MaxBytes = 25
	old, err := d.Write([]byte("0123456789"), ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(old)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	if di, _ := os.Stat(d.Path); di.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v", di.Mode().Perm())
	}
	os.Chtimes(old, now.Add(-2*DefaultMaxAge), now.Add(-2*DefaultMaxAge))
	a, _ := d.Write([]byte("0123456789"), ".jpg")
	if a == old {
		t.Fatal("names repeat")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("a file past MaxAge survived")
	}
	os.Chtimes(a, now.Add(-time.Minute), now.Add(-time.Minute))
	b, _ := d.Write([]byte("0123456789"), ".jpg")
	os.Chtimes(b, now.Add(-time.Second), now.Add(-time.Second))
	c, _ := d.Write([]byte("0123456789"), ".jpg") // 30 bytes > 25: the oldest goes
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Fatal("the oldest file survived the size limit")
	}
	for _, p := range []string{b, c} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s was pruned: %v", p, err)
		}
	}
	if n, bytes := d.Clean(); n != 2 || bytes != 20 {
		t.Fatalf("clean removed %d files, %d bytes", n, bytes)
	}
}
