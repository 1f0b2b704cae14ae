// Package e2e holds the end-to-end tests: a real Chromium with the real
// extension, the real host binary and the real daemon over real sockets,
// against pages served by httptest.
package e2e

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var bridge *browsertest.Bridge

func TestMain(m *testing.M) {
	os.Exit(browsertest.Main(m, &bridge))
}

// site serves /page/<title> as a page with that title, for the test's life.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		title := strings.TrimPrefix(r.URL.Path, "/page/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1>", html.EscapeString(title), html.EscapeString(title))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// num reads a JSON number field as int.
func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

// statusTab finds a tab in a status result.
func statusTab(t *testing.T, status map[string]any, tabID int) map[string]any {
	t.Helper()
	for _, tm := range browsertest.StatusTabs(status) {
		if int(tm["tabId"].(float64)) == tabID {
			return tm
		}
	}
	return nil
}

// userTab is a tab the bridge did not open: the launch's first tab.
func userTab(t *testing.T) int {
	t.Helper()
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	ws, _ := st["windows"].([]any)
	for _, w := range ws {
		for _, tab := range w.(map[string]any)["tabs"].([]any) {
			tm := tab.(map[string]any)
			if tm["owned"] == false {
				return int(tm["tabId"].(float64))
			}
		}
	}
	t.Fatalf("no tab the bridge did not open: %v", st)
	return 0
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
