// Package perf holds the end-to-end tests of the performance action
// against a real Chromium with the real extension, host and daemon, on a
// page served by httptest that is built to have what a trace should
// find: a slow render-blocking stylesheet, a long task, a layout shift
// and a large heading as its largest paint.
package perf

import (
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var (
	bridge *browsertest.Bridge
	site   string
)

var pages = map[string]string{
	// /slow: its stylesheet takes 400 ms (render-blocking), /busy.js
	// keeps the main thread for 300 ms (a long task), and 300 ms after
	// the load a banner is put above #moved (a layout shift).
	"/slow": `<!doctype html><html><head><title>Slow page</title>
<link rel="stylesheet" href="/slow.css">
</head><body>
<div id="top"></div>
<h1 style="font-size:64px;margin:0">The largest words on this page, painted in a large heading</h1>
<div id="moved" style="height:300px;background:#ccd">A box that moves down</div>
<script src="/busy.js"></script>
<script>
addEventListener("load", () => setTimeout(() => {
  const b = document.createElement("div");
  b.style.height = "250px"; b.style.background = "#fdd"; b.textContent = "late banner";
  document.getElementById("top").appendChild(b);
}, 300));
</script>
</body></html>`,
	"/plain": `<!doctype html><title>Plain</title><p>Nothing slow here.</p>`,
	// /alert: an alert holds its load.
	"/alert": `<!doctype html><title>Alert</title><p>before</p><script>if (sessionStorage.getItem("seen")) alert("loading"); sessionStorage.setItem("seen", "1")</script><p>after</p>`,
	// /image: its largest paint is a picture.
	"/image": `<!doctype html><title>Picture</title><p>small words</p><img id="hero" src="/hero.png" width="900" height="600" alt="a hero picture">`,
}

func TestMain(m *testing.M) {
	mux := http.NewServeMux()
	mux.Handle("/", browsertest.Pages(pages))
	mux.HandleFunc("/slow.css", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(400 * time.Millisecond):
		}
		w.Header().Set("Content-Type", "text/css")
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte("body { font-family: sans-serif }\n"))
	})
	mux.HandleFunc("/busy.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte("(function busy() { const end = performance.now() + 300; while (performance.now() < end) {} })();\n"))
	})
	mux.HandleFunc("/hero.png", func(w http.ResponseWriter, r *http.Request) {
		img := image.NewRGBA(image.Rect(0, 0, 900, 600))
		for i := range img.Pix {
			img.Pix[i] = byte(i * 7)
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "no-store")
		png.Encode(w, img)
	})
	srv := httptest.NewServer(mux)
	site = srv.URL
	code := browsertest.Main(m, &bridge)
	srv.Close()
	os.Exit(code)
}

func workspace(t *testing.T) string {
	t.Helper()
	return bridge.Workspace(t, "perf-"+strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))
}
