package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// StallingFiles serves downloads that hold back until release is closed,
// for the tests of the download cap, and a page that links
// to them ("Trickle", "Burst", "Late"). None has a Content-Length: the
// size shows only as the bytes come. /trickle.bin and /burst.bin send
// their headers and a first kilobyte (Chrome starts a download once it
// has enough to sniff), wait, then send the rest of total bytes,
// /trickle.bin in 64 KB chunks 25 ms apart, /burst.bin at once. /late.bin
// sends nothing, headers included, before release, then trickles: its
// download starts only then. sent has, per path, the bytes the client
// took, once its handler has returned.
func StallingFiles(t testing.TB, release <-chan struct{}, total int) (url string, sent map[string]chan int) {
	t.Helper()
	sent = map[string]chan int{"/trickle.bin": make(chan int, 1), "/burst.bin": make(chan int, 1), "/late.bin": make(chan int, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ch, ok := sent[r.URL.Path]
		if !ok {
			fmt.Fprint(w, `<!doctype html><title>Stalling</title><p><a href="/trickle.bin">Trickle</a> <a href="/burst.bin">Burst</a> <a href="/late.bin">Late</a></p>`)
			return
		}
		n := 0
		defer func() { ch <- n }()
		wait := func() bool {
			select {
			case <-release:
				return true
			case <-r.Context().Done():
				return false
			}
		}
		if r.URL.Path == "/late.bin" && !wait() {
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+strings.TrimPrefix(r.URL.Path, "/")+`"`)
		n, _ = w.Write(make([]byte, 1024))
		w.(http.Flusher).Flush()
		if !wait() {
			return
		}
		chunk := 64 << 10
		if r.URL.Path == "/burst.bin" {
			chunk = total
		}
		for n < total {
			m, err := w.Write(make([]byte, min(chunk, total-n)))
			n += m
			if err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(25 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, sent
}

// LeftInDownloads waits up to 5 s for the browser's download folder (of
// the Env whose BROWSER_BRIDGE_HOME is home) to hold no file whose name
// starts with one of prefixes, nor a partial download (Chrome removes a
// cancelled download's partial file on its own time), and returns the
// names still there.
func LeftInDownloads(home string, prefixes ...string) []string {
	folder := filepath.Join(home, "user", "Downloads")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var left []string
		entries, _ := os.ReadDir(folder)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".crdownload") || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(e.Name(), p) }) {
				left = append(left, e.Name())
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
	}
}
