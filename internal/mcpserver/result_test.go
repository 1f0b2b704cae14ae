package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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
	if got := statusText(m); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestStatusTextNotConnected(t *testing.T) {
	m := decode(t, `{"connected":false,"reason":"no Browser Bridge extension is connected: install it","diagnostics":{"enabled":true}}`)
	want := "Not connected: no Browser Bridge extension is connected: install it\ndiagnostics: {\"enabled\":true}"
	if got := statusText(m); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestStatusTextBoundsTabs(t *testing.T) {
	var tabs []string
	for i := range maxStatusTabs + 5 {
		tabs = append(tabs, `{"tabId":`+itoa(i)+`,"url":"https://x/","title":"x"}`)
	}
	m := decode(t, `{"connected":true,"windows":[{"windowId":1,"tabs":[`+strings.Join(tabs, ",")+`]}]}`)
	got := statusText(m)
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
