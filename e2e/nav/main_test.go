// Package nav holds the end-to-end tests of the navigation actions —
// reload, back, forward, activate, viewport and pdf — against a real
// Chromium with the real extension, host and daemon, on pages served by
// httptest.
package nav

import (
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

// pages are the fixtures. /count counts its own loads in sessionStorage
// (a reload or a load from the network raises it; a restore from the
// back/forward cache does not run the script again) and shows the count
// in its title. /size shows the size the page is laid out at, as the
// page itself sees it, and whether a narrow-screen media query matches.
var pages = map[string]string{
	"/count": `<!doctype html><title>loading</title><body><p id="n"></p><script>
const n = Number(sessionStorage.getItem("loads") || 0) + 1;
sessionStorage.setItem("loads", String(n));
document.title = "loads " + n;
document.getElementById("n").textContent = "loads " + n;
</script></body>`,
	// /leave counts its loads too, and asks "leave page?" once clicked.
	"/leave": `<!doctype html><title>loading</title><body><button id="b">touch</button><script>
const n = Number(sessionStorage.getItem("loads") || 0) + 1;
sessionStorage.setItem("loads", String(n));
document.title = "loads " + n;
addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = ""; });
</script></body>`,
	"/a":    `<!doctype html><title>Page A</title><body><h1>A</h1><a id="to-b" href="/b">to b</a></body>`,
	"/b":    `<!doctype html><title>Page B</title><body><h1>B</h1><p id="frag">fragment target</p></body>`,
	"/slow": `<!doctype html><title>Slow</title><body><p>waiting</p><script src="/never"></script></body>`,
	"/size": `<!doctype html><title>Size</title><style>
#narrow { display: none } @media (max-width: 600px) { #narrow { display: block } }
</style><body><p id="w"></p><p id="narrow">narrow screen</p><script>
const show = () => { document.getElementById("w").textContent = "innerWidth=" + innerWidth + " innerHeight=" + innerHeight; };
show(); addEventListener("resize", show);
</script></body>`,
	"/touch": `<!doctype html><title>Touch</title><p id="t"></p><script>
const show = () => { document.getElementById("t").textContent = "touch=" + ("ontouchstart" in window) +
  " coarse=" + matchMedia("(pointer: coarse)").matches + " dpr=" + devicePixelRatio; };
show(); addEventListener("resize", show);
</script>`,
	"/print": `<!doctype html><title>Print</title><body style="background:#fd0"><h1>A page to print</h1>` +
		strings.Repeat("<p>Line of text to fill the paper.</p>", 120) + `</body>`,
}

func TestMain(m *testing.M) {
	mux := http.NewServeMux()
	mux.Handle("/", browsertest.Pages(pages))
	// /never never answers (until the browser gives up or 40 s pass): a
	// parser-blocking script that holds /slow in "loading".
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(40 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	site = srv.URL
	code := browsertest.Main(m, &bridge)
	srv.Close()
	os.Exit(code)
}

// workspace is a workspace of the test's own, closed at its end.
func workspace(t *testing.T) string {
	t.Helper()
	return bridge.Workspace(t, "nav-"+strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))
}

func call(t *testing.T, input map[string]any) map[string]any {
	t.Helper()
	return bridge.MustCall(t, input)
}

func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

func str(m map[string]any, key string) string { return browsertest.Str(m, key) }
