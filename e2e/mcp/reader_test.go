package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
)

// smallArticle is a short article inside a site's chrome (navigation, a
// sidebar, a footer) that is as long as the article: its reader view
// takes the chrome away, so it is worth sending even on a small page.
const smallArticle = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tides at the harbour</title></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a> <a href="/culture">Culture</a> <a href="/opinion">Opinion</a> <a href="/about">About us</a> <a href="/login">Sign in</a></nav></header>
<main><article><h1>Tides at the harbour</h1>
<p>The harbour master has published the new tide tables for the winter season, and the changes are larger than in any year since the breakwater was rebuilt.</p>
<p>Boats that moor at the inner quay should expect the low water to come nearly forty minutes later than last year, which leaves less room for the morning departures.</p>
<p>The fishing cooperative has asked for the dredging of the channel to be moved forward, and the council will discuss the request at its next meeting in January.</p>
</article></main>
<aside><h2>Most read</h2><ul><li><a href="/a">Council approves the new cycle lanes along the seafront road</a></li><li><a href="/b">Local bakery wins the regional prize for the third year running</a></li><li><a href="/c">Ferry timetable changes for the holidays announced today</a></li></ul>
<h2>Advertisement</h2><p>Subscribe today and get three months of unlimited reading for the price of one.</p></aside>
<footer><p>Copyright 2026 The Harbour Gazette. All rights reserved.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/contact">Contact</a></footer>
</body></html>`

// A small page's reader view that is its markdown again, give or take a
// word, is left out of a default extract: on the demo page after its Go
// button is clicked the reader view differs from the markdown only by
// "Go clicked" against "clicked". The reader view of a
// short article in a site's chrome is kept: it takes the chrome away.
func TestNearRepeatReaderIsLeftOut(t *testing.T) {
	demo, err := os.ReadFile("../../demo/index.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/article" {
			fmt.Fprint(w, smallArticle)
			return
		}
		w.Write(demo)
	}))
	defer srv.Close()
	cs := startMCP(t, nil)
	t.Cleanup(func() {
		callTool(t, cs, map[string]any{"action": "close", "closeWorkspace": true, "runId": "mcp-reader"})
	})
	open := structured(t, callTool(t, cs, map[string]any{"action": "open", "url": srv.URL + "/demo", "runId": "mcp-reader"}))
	tab := num(t, open, "tabId")
	if res := callTool(t, cs, map[string]any{"action": "click", "tabId": tab, "selector": "#go", "runId": "mcp-reader"}); res.IsError {
		t.Fatalf("click: %s", text(res))
	}
	parts := func(url string, tab int) ([]any, string) {
		in := map[string]any{"action": "extract", "runId": "mcp-reader"}
		if url != "" {
			in["url"] = url
		} else {
			in["tabId"] = tab
		}
		res := callTool(t, cs, in)
		if res.IsError {
			t.Fatalf("extract: %s", text(res))
		}
		p, _ := structured(t, res)["parts"].([]any)
		return p, text(res)
	}
	p, txt := parts("", tab)
	t.Logf("demo page after a click: %d bytes of text, parts %v", len(txt), p)
	if !strings.Contains(txt, "clicked") {
		t.Errorf("the read misses the click's change:\n%s", txt)
	}
	if slices.Contains(p, any("reader")) {
		t.Errorf("the demo page's near-repeat reader view was sent:\n%s", txt)
	}
	p, txt = parts(srv.URL+"/article", 0)
	t.Logf("a short article in chrome: %d bytes of text, parts %v", len(txt), p)
	if !slices.Contains(p, any("reader")) {
		t.Errorf("the short article's reader view was left out:\n%s", txt)
	}
}
