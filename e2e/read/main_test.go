// Package read holds the end-to-end tests of reading pages — extract,
// inspect, wait and search — against a real Chromium with the real
// extension, host and daemon, on pages served by httptest from testdata/.
package read

import (
	"encoding/json"
	"fmt"
	"net"
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
	// site serves testdata/ on 127.0.0.1; cross is the same server named
	// localhost, a different origin for the browser.
	site  string
	cross string
)

func TestMain(m *testing.M) {
	// The addresses are set before the server serves: its handlers read
	// them.
	srv := httptest.NewUnstartedServer(fixtures())
	site = "http://" + srv.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	cross = "http://localhost:" + port
	srv.Start()
	// The daemon reads the engine from its environment, which the harness
	// passes down from ours.
	os.Setenv("BROWSER_BRIDGE_SEARCH_URL", site+"/search?q={query}")
	code := browsertest.Main(m, &bridge)
	srv.Close()
	os.Exit(code)
}

// fixtures serves testdata/*.html, with {{cross}} replaced by the
// cross-origin base URL, and the search engine stand-in.
func fixtures() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/search", serveSearch)
	// /never-answers never answers (until the browser gives up on it or 40 s pass):
	// a parser-blocking script that holds its page in "loading".
	mux.HandleFunc("/never-answers", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(40 * time.Second):
		}
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
		if d := r.URL.Query().Get("delay"); d != "" {
			if ms, err := time.ParseDuration(d + "ms"); err == nil {
				time.Sleep(ms)
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.ReplaceAll(string(b), "{{cross}}", cross)))
	})
	return mux
}

// serveSearch stands in for the engine: a consent wall, an "unusual
// traffic" check, or a results page shaped like Google's.
func serveSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	page := "serp"
	switch q {
	case "consent please":
		page = "serp-consent"
	case "unusual please":
		page = "serp-sorry"
	case "ads please", "ads please 2", "ads please 3":
		// The same ads, then without a results container (#search), then
		// also with related searches above the results.
		page = "serp-ads"
	case "google ads please":
		page = "serp-google-ads"
	}
	b, err := os.ReadFile("testdata/" + page + ".html")
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch q {
	case "ads please 2":
		b = []byte(strings.Replace(string(b), `<div id="search">`, `<div class="results">`, 1))
	case "ads please 3":
		b = []byte(strings.Replace(string(b), `<div id="search">`, `<div class="results"><div role="heading" aria-level="2">Related searches</div><a href="/search?q=widget+top">widget top</a>`, 1))
	}
	s := strings.ReplaceAll(string(b), "{{query}}", q)
	w.Write([]byte(strings.ReplaceAll(s, "{{site}}", site)))
}

// workspace is a workspace of the test's own, closed at its end, so tests
// get their own window (an active, visible tab: background tabs have
// their timers throttled).
func workspace(t *testing.T) string {
	t.Helper()
	return bridge.Workspace(t, "read-"+strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))
}

// openPage opens a fixture in the test's workspace and returns its tabId.
func openPage(t *testing.T, path string) int {
	t.Helper()
	return bridge.OpenIn(t, workspace(t), site+path)
}

// call runs input and fails the test unless it succeeds; it also returns
// the raw stdout.
func call(t *testing.T, input map[string]any) (map[string]any, string) {
	t.Helper()
	r := bridge.Call(t, input)
	if r.Exit != 0 || r.Err != nil || r.JSON == nil {
		t.Fatalf("call %v: exit %d, stdout %s, stderr %s", input, r.Exit, r.Stdout, r.Stderr)
	}
	return r.JSON, string(r.Stdout)
}

// failCode runs input and wants it to fail with code.
func failCode(t *testing.T, input map[string]any, code string) string {
	t.Helper()
	return bridge.MustFail(t, input, code)
}

func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

func str(m map[string]any, key string) string { return browsertest.Str(m, key) }

func list(m map[string]any, key string) []map[string]any {
	raw, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, v := range raw {
		if mm, ok := v.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

func compact(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

func itoa(n int) string { return fmt.Sprint(n) }

// firstOf is the first of its arguments that is not empty.
func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// rectOf is an inspect element's rect, [x, y, width, height].
func rectOf(e map[string]any) [4]float64 {
	var r [4]float64
	raw, _ := e["rect"].([]any)
	for i := 0; i < len(raw) && i < 4; i++ {
		r[i], _ = raw[i].(float64)
	}
	return r
}
