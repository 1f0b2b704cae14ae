package daemon

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// The daemon writes its heap profile where HeapProfileEnv says, last
// when it stops: a gzipped profile that go tool pprof reads.
func TestHeapProfileIsWrittenWhenAsked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.pprof")
	t.Setenv(HeapProfileEnv, path)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { writeHeapProfiles(ctx, slog.New(slog.DiscardHandler)); close(done) }()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("writeHeapProfiles did not return after its context ended")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the profile is not gzipped, as pprof writes it: %v", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil || len(raw) == 0 {
		t.Fatalf("the profile is empty or cut: %d bytes, %v", len(raw), err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the profile's mode is %v (%v), want 0600: it names what the daemon holds", fi.Mode().Perm(), err)
	}
}

// Unset, nothing is written and the writer ends at once.
func TestNoHeapProfileUnlessAsked(t *testing.T) {
	t.Setenv(HeapProfileEnv, "")
	done := make(chan struct{})
	go func() { writeHeapProfiles(context.Background(), slog.New(slog.DiscardHandler)); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("writeHeapProfiles waits though no profile was asked for")
	}
}

// status's memory figures: the live heap after a collection, within
// what the runtime has mapped.
func TestMemoryStatus(t *testing.T) {
	runtime.GC()
	m := memoryStatus()
	heap, _ := m["heapBytes"].(uint64)
	all, _ := m["runtimeBytes"].(uint64)
	if heap == 0 || all < heap {
		t.Errorf("memoryStatus() = %v: want a live heap above 0 and below the runtime's total", m)
	}
}
