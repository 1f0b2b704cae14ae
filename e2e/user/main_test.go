// Package user holds the end-to-end tests of the user's side of the bridge:
// the extension's page, the Pause switch, the hand-off and the
// site rules, against a real Chromium with the real extension, host and
// daemon. The test drives the extension's page and the hand-off's Done as
// the user would — trusted input over a DevTools port of its own
// (browsertest.StartWithDevTools) — since the bridge itself may do
// neither.
package user

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var (
	bridge *browsertest.Bridge
	// site serves testdata/ on 127.0.0.1; denied is another server, on
	// localhost, that the site-rule tests deny (deniedRule); deniedHits
	// counts the requests that reached it, and deniedClicks the presses
	// of its page's button (which asks for /clicked).
	site, denied string
	deniedRule   string
	deniedHits   atomic.Int64
	deniedClicks atomic.Int64
)

func TestMain(m *testing.M) {
	// The addresses are set before the fixtures serve: they read them.
	srv := httptest.NewUnstartedServer(fixtures())
	site = "http://" + srv.Listener.Addr().String()
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deniedHits.Add(1)
		if r.URL.Path == "/clicked" {
			deniedClicks.Add(1)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Denied site</title><p>DENIED-SITE-CONTENT</p><button onclick="fetch('/clicked')">Denied button</button>`))
	}))
	_, port, _ := net.SplitHostPort(bad.Listener.Addr().String())
	denied = "http://localhost:" + port
	deniedRule = "localhost:" + port
	srv.Start()
	code := browsertest.MainWithDevTools(m, &bridge)
	srv.Close()
	bad.Close()
	os.Exit(code)
}

// fixtures serves testdata/<name>.html with {{denied}} and {{site}}
// filled in, and /redirect?to=URL.
func fixtures() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" || strings.Contains(name, "..") {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile("testdata/" + name + ".html")
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.NewReplacer("{{denied}}", denied, "{{site}}", site).Replace(string(b))))
	})
	return mux
}

// devtools is the test binary's own DevTools connection.
func devtools(t *testing.T) *browsertest.DevTools { return bridge.SharedDevTools(t) }

// extURL is a page of the extension.
func extURL(path string) string { return bridge.ExtensionURL(path) }

// ctxFor bounds one test's waits.
func ctxFor(t *testing.T, d time.Duration) context.Context { return browsertest.Ctx(t, d) }

// workspace is a workspace of the test's own, closed at its end.
func workspace(t *testing.T, id string) string { return bridge.Workspace(t, id) }

// openPage opens a fixture in the test's workspace and returns its tabId.
func openPage(t *testing.T, ws, path string) int { return bridge.OpenIn(t, ws, site+path) }

// usersTab opens url in a tab of the user's own (through the test's
// DevTools, not the bridge: no session rule covers it), in a window of its
// own (beside another tab, it would have the active tab as its opener, a
// bridge tab's at times), and returns its tabId once status lists it.
func usersTab(t *testing.T, url string) int {
	t.Helper()
	ctx := ctxFor(t, 30*time.Second)
	d := devtools(t)
	_, target, err := d.OpenWindow(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Call(ctxFor(t, 5*time.Second), "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
	})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status"})) {
			if tm["url"] == url && tm["owned"] == false {
				return int(tm["tabId"].(float64))
			}
		}
	}
	t.Fatalf("the user's tab at %s is not in status", url)
	return 0
}

// failCode runs input and wants it to fail with code; it returns the
// message.
func failCode(t *testing.T, input map[string]any, code string) string {
	t.Helper()
	return bridge.MustFail(t, input, code)
}

func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

func str(m map[string]any, key string) string { return browsertest.Str(m, key) }

// stopWorker stops the extension's service worker, as Chrome stops an
// idle one, and waits until it is gone.
func stopWorker(t *testing.T, d *browsertest.DevTools, ctx context.Context) {
	t.Helper()
	if err := d.StopServiceWorker(ctx, extURL("")); err != nil {
		t.Fatal(err)
	}
}
