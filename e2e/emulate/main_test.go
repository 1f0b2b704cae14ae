// Package emulate holds the end-to-end tests of emulate (devices, CPU
// and network conditions, media features) and of what viewport and
// screenshot report of an emulated device, against a real Chromium with
// the real extension, host and daemon, on pages served by httptest.
package emulate

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var (
	bridge *browsertest.Bridge
	site   string
)

// pages are the fixtures; each shows what it sees as its text.
var pages = map[string]string{
	// /device shows the page's width, pixel ratio, touch support and user
	// agent, again on every resize.
	"/device": `<!doctype html><title>Device</title><meta name="viewport" content="width=device-width"><p id="d"></p><script>
const show = () => { document.getElementById("d").textContent = "innerWidth=" + innerWidth + " dpr=" + devicePixelRatio +
  " touch=" + ("ontouchstart" in window) + " coarse=" + matchMedia("(pointer: coarse)").matches + " ua=" + navigator.userAgent; };
show(); addEventListener("resize", show);
</script>`,
	// /media shows the colour scheme and motion preference the page sees.
	"/media": `<!doctype html><title>Media</title><p id="m"></p><script>
document.getElementById("m").textContent = "dark=" + matchMedia("(prefers-color-scheme: dark)").matches +
  " reduce=" + matchMedia("(prefers-reduced-motion: reduce)").matches;
</script>`,
	// /busy times a fixed busy loop when its button is pressed.
	"/busy": `<!doctype html><title>Busy</title><button id="run">run</button><p id="b"></p><script>
document.getElementById("run").onclick = () => {
  const t0 = performance.now(); let x = 0;
  for (let i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003;
  document.getElementById("b").textContent = "loopMs=" + Math.round(performance.now() - t0) + " x=" + x; };
</script>`,
	// /fetch fetches /data when its button is pressed and shows what
	// came of it, and how long it took.
	"/fetch": `<!doctype html><title>Fetch</title><button id="go">fetch</button><p id="f">pending</p><script>
document.getElementById("go").onclick = () => { const f = document.getElementById("f"); f.textContent = "pending";
  const t0 = performance.now();
  fetch("/data?" + Date.now()).then((r) => r.text()).then((t) => { f.textContent = "fetched=" + t + " ms=" + Math.round(performance.now() - t0); },
    (e) => { f.textContent = "failed=" + e.name; }); };
</script>`,
	"/data": `ok`,
	// /tall is a long page with a coloured top and bottom.
	"/tall": `<!doctype html><title>Tall</title><meta name="viewport" content="width=device-width"><body style="margin:0">` +
		`<div style="height:3000px;background:linear-gradient(#f00,#00f)"></div></body>`,
}

func TestMain(m *testing.M) {
	mux := http.NewServeMux()
	mux.Handle("/", browsertest.Pages(pages))
	srv := httptest.NewServer(mux)
	site = srv.URL
	code := browsertest.Main(m, &bridge)
	srv.Close()
	os.Exit(code)
}

// workspace is a workspace of the test's own, closed at its end.
func workspace(t *testing.T) string {
	t.Helper()
	return bridge.Workspace(t, "emulate-"+strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))
}

func call(t *testing.T, input map[string]any) map[string]any {
	t.Helper()
	return bridge.MustCall(t, input)
}

func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

func str(m map[string]any, key string) string { return browsertest.Str(m, key) }

// pageText is the page's visible text.
func pageText(t *testing.T, tab int) string {
	t.Helper()
	return str(call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}}), "text")
}
