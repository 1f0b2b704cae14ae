// Package ask holds the end-to-end tests of "ask before irreversible
// steps" (settings.json askBeforeIrreversible; internal/actions/ask.go),
// against a real Chromium with the real extension, host and daemon. The
// tests answer the question as the user would — trusted input over a
// DevTools port of their own (browsertest.StartWithDevTools) — since the
// bridge itself may not.
package ask

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
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

var (
	bridge *browsertest.Bridge
	// site serves testdata/ on 127.0.0.1 and counts the forms posted to
	// it; other is another site (localhost: another registrable domain)
	// that counts the requests that reached it.
	site, other string
	orders      atomic.Int64 // POST /order
	sends       atomic.Int64 // POST /send
	otherHits   atomic.Int64
)

func TestMain(m *testing.M) {
	// The other site first: the fixtures' handler reads other, which must
	// be set before that server serves.
	away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/favicon.ico" {
			otherHits.Add(1)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><title>Other site</title><p>OTHER-SITE"))
	}))
	_, port, _ := net.SplitHostPort(away.Listener.Addr().String())
	other = "http://localhost:" + port
	srv := httptest.NewServer(fixtures())
	site = srv.URL
	code := browsertest.MainWithDevTools(m, &bridge)
	srv.Close()
	away.Close()
	os.Exit(code)
}

// fixtures serves testdata/<name>.html with {{other}} filled in, and
// counts what the forms post.
func fixtures() http.Handler {
	mux := http.NewServeMux()
	posted := func(n *atomic.Int64, title string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				n.Add(1)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><title>" + title + "</title><p>" + title))
		}
	}
	mux.HandleFunc("/order", posted(&orders, "Order placed"))
	mux.HandleFunc("/send", posted(&sends, "Sent"))
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
		w.Write([]byte(strings.ReplaceAll(string(b), "{{other}}", other)))
	})
	return mux
}

// setAsk turns the mode on or off in the bridge's settings.json (read on
// use: the next action sees it); the test's end turns it off.
func setAsk(t *testing.T, on bool) {
	t.Helper()
	l := paths.ForHome(bridge.Home)
	s, err := settings.Load(l)
	if err != nil {
		t.Fatal(err)
	}
	s.AskBeforeIrreversible = on
	if err := settings.Save(l, s); err != nil {
		t.Fatal(err)
	}
	if on {
		t.Cleanup(func() { setAsk(t, false) })
	}
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

// failCode runs input and wants it to fail with code; it returns the
// message.
func failCode(t *testing.T, input map[string]any, code string) string {
	t.Helper()
	r := bridge.Call(t, input)
	return wantCode(t, r, code)
}

func wantCode(t *testing.T, r browsertest.Result, code string) string {
	t.Helper()
	if r.Exit == 0 || r.Err == nil {
		t.Fatalf("the call succeeded, want error %s: %s", code, r.Stdout)
	}
	if r.Err.Code != code {
		t.Fatalf("error %s %q, want %s", r.Err.Code, r.Err.Message, code)
	}
	return r.Err.Message
}

func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

func str(m map[string]any, key string) string { return browsertest.Str(m, key) }

func jsString(s string) string { return browsertest.JSString(s) }

// waitPage waits until expr is true in the page (browsertest.DevTools.WaitPage).
func waitPage(t *testing.T, page, expr string) { t.Helper(); devtools(t).WaitPage(t, page, expr) }
