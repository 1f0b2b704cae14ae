package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// status is the status result of the JSON object m, as the shaper reads it.
func status(t *testing.T, m map[string]any) *tool.StatusResult {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var s tool.StatusResult
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestStatusText(t *testing.T) {
	m := decode(t, `{"connected":true,"activeTab":{"tabId":2},
		"windows":[
			{"windowId":1,"focused":true,"incognito":false,"tabs":[
				{"tabId":2,"url":"https://a/","title":"A","active":true,"owned":false,"groupId":-1},
				{"tabId":3,"url":"https://b/","title":"","active":false,"owned":true,"groupId":5}]},
			{"windowId":9,"focused":false,"incognito":true,"tabs":[
				{"tabId":4,"url":"","title":"","active":true,"owned":false,"groupId":-1,"redacted":true}]}],
		"workspaces":[{"id":"session:claude-1a2b","windowId":1,"groupId":5,"tabs":[3]}]}`)
	want := `Connected to Chrome. Active tab: 2.
window 1 (focused)
  [2] A — https://a/ (active)
  [3] (untitled) — https://b/ (owned)
window 9 (incognito)
  [4] (the user's incognito tab) (active)
workspaces:
  session:claude-1a2b: window 1, tabs [3]`
	if got := statusText(status(t, m)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestStatusTextNotConnected(t *testing.T) {
	m := decode(t, `{"connected":false,"reason":"no Browser Bridge extension is connected: install it","diagnostics":{"enabled":true}}`)
	want := "Not connected: no Browser Bridge extension is connected: install it\ndiagnostics: {\"enabled\":true}"
	if got := statusText(status(t, m)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestStatusTextBoundsTabs(t *testing.T) {
	var tabs []string
	for i := range maxStatusTabs + 5 {
		tabs = append(tabs, `{"tabId":`+itoa(i)+`,"url":"https://x/","title":"x"}`)
	}
	m := decode(t, `{"connected":true,"windows":[{"windowId":1,"tabs":[`+strings.Join(tabs, ",")+`]}]}`)
	got := statusText(status(t, m))
	if n := strings.Count(got, "\n  ["); n != maxStatusTabs || !strings.Contains(got, "(5 more tabs in structuredContent)") {
		t.Errorf("%d tab lines; tail %q", n, got[len(got)-60:])
	}
}

func TestCompactJSONCutsOnARuneBoundary(t *testing.T) {
	s := compactJSON(map[string]any{"t": strings.Repeat("é", 100)}, 50)
	if !utf8.ValidString(s) || !strings.Contains(s, "cut at") {
		t.Errorf("%q", s)
	}
}

func TestErrorResultKeepsCodeAndSentence(t *testing.T) {
	res := errorResult(invalid("url %q is not allowed: use an http URL", "javascript:1"))
	b, _ := json.Marshal(res)
	if !res.IsError || !bytes.Contains(b, []byte(`"code":"invalid_argument"`)) || !strings.HasPrefix(text(res), `invalid_argument: url "javascript:1" is not allowed`) {
		t.Errorf("%s", b)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// A page read carries its content once: the text and the structured
// content together take no more than the daemon's JSON result (which the
// daemon cut to the budget), less the reserve the handler keeps for the
// structured part.
func TestPageResultCarriesTheContentOnce(t *testing.T) {
	var md, tx strings.Builder
	var links, heads []map[string]any
	for i := range 300 {
		fmt.Fprintf(&md, "## Section %d\n\nParagraph %d says \"something\" about [item %d](https://example.com/item/%d).\n\n", i, i, i, i)
		fmt.Fprintf(&tx, "Section %d Paragraph %d says something about item %d.\n", i, i, i)
		links = append(links, map[string]any{"text": fmt.Sprintf("item %d", i), "url": fmt.Sprintf("https://example.com/item/%d", i)})
		heads = append(heads, map[string]any{"level": 2, "text": fmt.Sprintf("Section %d", i)})
	}
	next := 99999
	raw, _ := json.Marshal(map[string]any{"tabId": 123456789, "url": "https://example.com/a/rather/long/path?with=query&and=more", "title": "A page with a title of some length",
		"markdown": md.String(), "reader": map[string]any{"title": "A page", "markdown": md.String()}, "links": links, "headings": heads, "text": tx.String(),
		"frames": []any{}, "warnings": []string{"characters 0 to 99999 of 200000 (parts in order: markdown, reader, links, headings, text); for the rest, call extract with tabId 123456789 and offset 99999"},
		"totalChars": 200000, "nextOffset": next})
	res := shaper{}.result("extract", raw)
	sc, _ := json.Marshal(res.StructuredContent)
	total := utf8.RuneCountInString(text(res)) + utf8.RuneCount(sc)
	if limit := utf8.RuneCount(raw) - budgetReserve; total > limit {
		t.Errorf("text %d + structured %d = %d characters, over the daemon's %d less the reserve", utf8.RuneCountInString(text(res)), utf8.RuneCount(sc), total, utf8.RuneCount(raw))
	}
	for _, part := range []string{"markdown", "reader", "links", "headings", "text"} {
		if bytes.Contains(sc, []byte(`"`+part+`":`)) {
			t.Errorf("structuredContent repeats %s", part)
		}
	}
	if !strings.Contains(text(res), "offset 99999") || !strings.Contains(string(sc), `"nextOffset":99999`) {
		t.Errorf("the continuation is lost")
	}
}
