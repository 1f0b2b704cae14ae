package logfile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func size(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Daemon.log was never rotated.
func TestWriterRotatesBySizeAndKeepsTwo(t *testing.T) {
	p := filepath.Join(t.TempDir(), "daemon.log")
	var rotated []*os.File
	w, err := Open(p, Options{MaxSize: 100, OnRotate: func(f *os.File) { rotated = append(rotated, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	line := func(i int) string { return fmt.Sprintf("line %03d %s\n", i, strings.Repeat("x", 20)) } // 30 bytes
	for i := range 20 {
		if _, err := w.Write([]byte(line(i))); err != nil {
			t.Fatal(err)
		}
		if s := size(t, p); s > 100 {
			t.Fatalf("after line %d the log is %d bytes", i, s)
		}
	}
	// 3 lines a file: 18-19 in the log, 15-17 in .1, 12-14 in .2, nothing older.
	if got, want := read(t, p), line(18)+line(19); got != want {
		t.Errorf("log: %q, want %q", got, want)
	}
	if got, want := read(t, p+".1"), line(15)+line(16)+line(17); got != want {
		t.Errorf("log.1: %q, want %q", got, want)
	}
	if got, want := read(t, p+".2"), line(12)+line(13)+line(14); got != want {
		t.Errorf("log.2: %q, want %q", got, want)
	}
	if _, err := os.Stat(p + ".3"); err == nil {
		t.Error("a third old file was kept")
	}
	if len(rotated) != 6 || rotated[5].Name() != p {
		t.Errorf("OnRotate called %d times", len(rotated))
	}
	for _, q := range []string{p, p + ".1", p + ".2"} {
		if fi, _ := os.Stat(q); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v", q, fi.Mode().Perm())
		}
	}
}

// What other processes append (the starter, a panic on stderr) counts.
func TestWriterCountsWhatOthersAppend(t *testing.T) {
	p := filepath.Join(t.TempDir(), "daemon.log")
	os.WriteFile(p, bytes.Repeat([]byte("o"), 90), 0o600)
	w, err := Open(p, Options{MaxSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write([]byte("0123456789\n")) // 101: rotate first
	if got := read(t, p); got != "0123456789\n" {
		t.Errorf("log after rotation: %q", got)
	}
	other, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	other.Write(bytes.Repeat([]byte("p"), 85))
	other.Close()
	w.Write([]byte("next\n")) // 11+85+5 > 100
	if got := read(t, p); got != "next\n" || size(t, p+".1") != 96 || size(t, p+".2") != 90 {
		t.Errorf("log %q, .1 %d bytes, .2 %d bytes", got, size(t, p+".1"), size(t, p+".2"))
	}
}

func TestWriterNeverSplitsAWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "daemon.log")
	w, _ := Open(p, Options{MaxSize: 10})
	defer w.Close()
	big := strings.Repeat("b", 25) + "\n"
	w.Write([]byte(big))   // an empty file takes it whole
	w.Write([]byte("s\n")) // then the next write starts a new file
	if read(t, p+".1") != big || read(t, p) != "s\n" {
		t.Errorf("log %q, .1 %q", read(t, p), read(t, p+".1"))
	}
	// The log removed by hand: started again.
	os.Remove(p)
	w.Write([]byte(strings.Repeat("c", 10) + "\n"))
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the log was not started again: %v", err)
	}
}

func TestWriterConcurrentWrites(t *testing.T) {
	p := filepath.Join(t.TempDir(), "daemon.log")
	w, _ := Open(p, Options{MaxSize: 1000, Keep: 100})
	defer w.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				fmt.Fprintf(w, "g%d line %02d\n", g, i)
			}
		}()
	}
	wg.Wait()
	var all string
	files, _ := filepath.Glob(p + "*")
	for _, f := range files {
		all += read(t, f)
		if size(t, f) > 1000 {
			t.Errorf("%s is %d bytes", f, size(t, f))
		}
	}
	if n := strings.Count(all, "\n"); n != 400 {
		t.Errorf("%d lines in all files, want 400", n)
	}
}

// RedirectStdio points stdout and stderr at the new file. It runs in a
// child (this test binary again), so that the test's own output stays.
func TestRedirectStdio(t *testing.T) {
	if p := os.Getenv("LOGFILE_TEST_REDIRECT"); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			err = RedirectStdio(f)
		}
		if err != nil {
			fmt.Println("redirect failed:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stdout, "to stdout")
		fmt.Fprintln(os.Stderr, "to stderr")
		os.Exit(0)
	}
	p := filepath.Join(t.TempDir(), "new.log")
	os.WriteFile(p, nil, 0o600)
	cmd := exec.Command(os.Args[0], "-test.run=^TestRedirectStdio$")
	cmd.Env = append(os.Environ(), "LOGFILE_TEST_REDIRECT="+p)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v %s", err, out.String())
	}
	if got := read(t, p); got != "to stdout\nto stderr\n" || out.Len() != 0 {
		t.Errorf("file %q, left on the old stdio %q", got, out.String())
	}
}

func TestEveryLetsOneThroughPerInterval(t *testing.T) {
	now := time.Unix(1000, 0)
	e := &Every{Interval: time.Second, now: func() time.Time { return now }}
	step := func(d time.Duration) { now = now.Add(d) }
	if ok, n := e.Allow(); !ok || n != 0 {
		t.Fatalf("first event: %v %d", ok, n)
	}
	for range 5000 { // a flood within the second
		if ok, _ := e.Allow(); ok {
			t.Fatal("a second line within the interval")
		}
		step(100 * time.Microsecond)
	}
	step(time.Second)
	if ok, n := e.Allow(); !ok || n != 5000 {
		t.Fatalf("after the interval: %v, %d suppressed, want 5000", ok, n)
	}
	step(time.Second)
	if ok, n := e.Allow(); !ok || n != 0 {
		t.Fatalf("a quiet second later: %v, %d suppressed", ok, n)
	}
	// The zero value lets everything through.
	var z Every
	for range 3 {
		if ok, _ := z.Allow(); !ok {
			t.Fatal("the zero Every held an event back")
		}
	}
}

func TestEveryConcurrent(t *testing.T) {
	e := &Every{Interval: time.Hour}
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if ok, _ := e.Allow(); ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if allowed != 1 {
		t.Errorf("%d events allowed in one interval", allowed)
	}
}
