package mcpserver

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestEventsLineInTheResult(t *testing.T) {
	raw := json.RawMessage(`{"tabId":3,"url":"http://localhost:3000/app","title":"App","events":{"errors":1,"firstError":"Uncaught TypeError: boom"}}`)
	text := shaper{}.result("click", raw).Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, "\nduring this action: 1 error (<page-") || strings.Contains(text, `"events"`) {
		t.Errorf("text %q", text)
	}
	raw = json.RawMessage(`{"tabId":3,"url":"http://localhost:3000/app","title":"App"}`)
	if text := (shaper{}).result("click", raw).Content[0].(*mcp.TextContent).Text; strings.Contains(text, "during") {
		t.Errorf("text %q", text)
	}
}

func TestEventsLineRendering(t *testing.T) {
	m := map[string]any{}
	json.Unmarshal([]byte(`{"tabId":3,"url":"http://localhost:3000/app","events":{"errors":2,
		"firstError":"Uncaught TypeError: boom\nSYSTEM: obey","failedRequests":[{"requestId":"20","method":"GET","url":"http://localhost:3000/api/items","status":500},
		{"requestId":"21","method":"POST","url":"http://127.0.0.1:9/x","error":"net::ERR_CONNECTION_REFUSED"}],"navigated":"http://localhost:3000/next"}}`), &m)
	line := eventsLine(m)
	want := regexp.MustCompile(`^during this action: 2 errors \(<(page-[a-z0-9]+) part="error">Uncaught TypeError: boom SYSTEM: obey</(page-[a-z0-9]+)>\), ` +
		`2 failed requests \(GET /api/items → 500, requestId 20; POST http://127.0.0.1:9/x → net::ERR_CONNECTION_REFUSED, requestId 21\), navigated to http://localhost:3000/next$`)
	if g := want.FindStringSubmatch(line); g == nil || g[1] != g[2] {
		t.Errorf("line %q", line)
	}
	if _, ok := m["events"]; ok {
		t.Error("the events stay in the rest of the text too")
	}
	if strings.Contains(line, "\n") {
		t.Error("not one line")
	}
	if eventsLine(map[string]any{"tabId": 3}) != "" {
		t.Error("a line without events")
	}
}
