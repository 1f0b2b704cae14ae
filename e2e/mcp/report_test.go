package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestActionReportIsOneLineOverMCP: through MCP, a click that throws and
// fails a request ends its text with one line that says both, the
// error's words fenced as the page's; a calm click's text has no such
// line.
func TestActionReportIsOneLineOverMCP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/items" {
			w.WriteHeader(500)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>report</title>
<button id="boom" onclick="fetch('/api/items'); null.items">boom</button><button id="calm">calm</button>`)
	}))
	defer srv.Close()
	cs := startMCP(t, nil)
	tab := num(t, mustCall(t, cs, map[string]any{"action": "open", "url": srv.URL + "/", "runId": "mcp-report"}), "tabId")

	res := callTool(t, cs, map[string]any{"action": "click", "tabId": tab, "selector": "#calm"})
	if res.IsError || strings.Contains(text(res), "during this action") {
		t.Errorf("a calm click: %s", text(res))
	}
	res = callTool(t, cs, map[string]any{"action": "click", "tabId": tab, "selector": "#boom"})
	if res.IsError {
		t.Fatalf("click: %s", text(res))
	}
	fence := regexp.MustCompile(`page-[a-z2-7]{12}`)
	lines := strings.Split(fence.ReplaceAllString(text(res), "F"), "\n")
	last := lines[len(lines)-1]
	want := regexp.MustCompile(`^during this action: 1 error \(<F part="error">[^<]*Cannot read properties of null[^<]*</F>\), 1 failed request \(GET /api/items → 500, requestId \S+\)$`)
	if !want.MatchString(last) {
		t.Errorf("the click's text ends %q, want the one line of what it set off", last)
	}
}
