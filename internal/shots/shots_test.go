package shots

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWritePrivateUniqueAndPruned(t *testing.T) {
	d := New(filepath.Join(t.TempDir(), "shots"))
	now := time.Now()
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
	now = now.Add(2 * DefaultMaxAge)
	a, _ := d.Write([]byte("0123456789"), ".jpg")
	if a == old {
		t.Fatal("names repeat")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("a file past MaxAge survived")
	}
	now = now.Add(time.Second)
	b, _ := d.Write([]byte("0123456789"), ".jpg")
	now = now.Add(time.Second)
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

// Write prunes from what it knows of the folder, and looks at the folder
// again every rescanEvery: a file it did not write counts from then on.
func TestWriteLooksAgainAtTheFolder(t *testing.T) {
	d := New(filepath.Join(t.TempDir(), "shots"))
	now := time.Now()
	d.now = func() time.Time { return now }
	d.MaxBytes = 25
	a, err := d.Write([]byte("0123456789"), ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(d.Path, prefix+"left-by-another.jpg")
	if err := os.WriteFile(other, []byte("01234567890123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		now = now.Add(time.Millisecond)
		p, _ := d.Write(nil, ".jpg") // empty: they take no room
		os.Remove(p)
	}
	if d.looks != 1 {
		t.Fatalf("101 writes within a minute listed the folder %d times, want once", d.looks)
	}
	now = now.Add(rescanEvery)
	b, _ := d.Write([]byte("0123456789"), ".jpg") // looks again: a and the other file, 30 bytes
	now = now.Add(time.Second)
	c, _ := d.Write([]byte("0123456789"), ".jpg")
	for _, gone := range []string{a, other} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Fatalf("%s survived the size limit once Write looked again", gone)
		}
	}
	for _, p := range []string{b, c} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s was pruned: %v", p, err)
		}
	}
}

// BenchmarkWriteBeside10000 writes a screenshot into a folder that holds
// 10,000 (a busy day's worth at ~50 KB each is about the 500 MB cap).
func BenchmarkWriteBeside10000(b *testing.B) {
	d := New(filepath.Join(b.TempDir(), "shots"))
	for i := 0; i < 10000; i++ {
		if _, err := d.Write([]byte("0123456789"), ".jpg"); err != nil && i == 0 {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := d.Write([]byte("0123456789"), ".jpg")
		if err != nil {
			b.Fatal(err)
		}
		os.Remove(p)
	}
}
