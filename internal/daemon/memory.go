package daemon

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
)

// HeapProfileEnv names a file the daemon rewrites with a heap profile
// of itself every minute (and once more when it stops), for finding
// what grows in a long run: the daemon has no network port, so there
// is no pprof endpoint to ask. Unset, nothing is written
// (docs/reference.md, Environment; docs/controls.md, soak).
const HeapProfileEnv = "BROWSER_BRIDGE_HEAP_PROFILE"

// heapProfileEvery is how often the heap profile is rewritten.
const heapProfileEvery = time.Minute

// sampleHeapFinely makes the heap profile sample one allocation per 4 KB
// instead of 512 KB when HeapProfileEnv is set: the daemon's whole heap
// is a few MB, which the default rate would describe in three samples.
// It must run before the daemon allocates what is to be profiled.
func sampleHeapFinely() {
	if os.Getenv(HeapProfileEnv) != "" {
		runtime.MemProfileRate = 4096
	}
}

// memoryStatus is the Go runtime's view of the daemon's memory for
// status: the heap the last garbage collection found live (what the
// daemon holds, without the garbage made since) and everything the
// runtime has mapped (heap, stacks, its own structures; not the
// binary's code, which the resident size counts too). Read through
// runtime/metrics, which does not stop the world.
func memoryStatus() map[string]any {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	m := map[string]any{}
	if s[0].Value.Kind() == metrics.KindUint64 {
		m["heapBytes"] = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		m["runtimeBytes"] = s[1].Value.Uint64()
	}
	return m
}

// writeHeapProfiles rewrites the heap profile named by HeapProfileEnv
// every minute until ctx ends, then once more; it returns at once when
// the variable is unset. It logs to log what it could not write.
func writeHeapProfiles(ctx context.Context, log *slog.Logger) {
	path := os.Getenv(HeapProfileEnv)
	if path == "" {
		return
	}
	write := func() {
		// A collection first, so the profile's in-use figures are what
		// is live now, not what the last cycle left.
		runtime.GC()
		var b bytes.Buffer
		if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
			log.Warn("heap profile", "err", err)
			return
		}
		if err := atomicfile.Write(path, b.Bytes(), 0o600); err != nil {
			log.Warn("heap profile", "path", path, "err", err)
		}
	}
	t := time.NewTicker(heapProfileEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			write()
			return
		case <-t.C:
			write()
		}
	}
}
