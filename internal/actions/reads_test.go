package actions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/extract"
)

// A continued extract is cut from the read of the same tab of the same
// browser: tab IDs are only unique within one browser, so with two
// connected, browser B's tab 5 showing the same URL as browser A's tab 5
// must not be served A's text. The two fake browsers stand in for two
// Chromes connected to one daemon; B's page scripts fail, so a read of B
// shows as an error rather than a page.
func TestAContinuedReadIsNeverAnotherBrowsersText(t *testing.T) {
	const url = "https://mail.example/inbox"
	a, b := fakebrowser.New(), fakebrowser.New()
	for _, f := range []*fakebrowser.Browser{a, b} {
		f.Handle("tab.get", fakebrowser.Reply(browser.TabInfo{TabID: 5, WindowID: 1, URL: url, Title: "Inbox"}))
	}
	env := engine(t, a)
	linkB := browser.NewLink()
	if err := b.Connect(linkB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Drop)

	// Browser A's tab 5 was read in full and its first window returned.
	seedRead(t, env, env.Browser, 5, url, "A's secret mail")

	res, err := RunOn(context.Background(), env, linkB, "session:a", input(t, `{"action":"extract","tabId":5,"offset":3}`), nil)
	if out, _ := json.Marshal(res); strings.Contains(string(out), "secret") {
		t.Fatalf("browser B's continued extract was served browser A's text: %s", out)
	}
	// Browser A's own continuation is still cut from its read.
	res, err = Run(context.Background(), env, "session:a", input(t, `{"action":"extract","tabId":5,"offset":3}`), nil)
	if out, _ := json.Marshal(res); err != nil || !strings.Contains(string(out), "secret") {
		t.Errorf("browser A's continued extract: %s, %v; want its own read's text", out, err)
	}
	if len(b.Calls("page.run")) == 0 && len(b.Calls("readiness.enable")) == 0 {
		t.Errorf("browser B's page was not read again (err %v)", err)
	}
}

// seedRead puts a full read of tabID in browser l into env's read cache,
// as extract does after reading it.
func seedRead(t *testing.T, env *Env, l Browser, tabID int, url, text string) {
	t.Helper()
	rd := aRead{c: &extract.Content{URL: url, Text: text, Markdown: text}, include: map[string]bool{extract.PartMarkdown: true}}
	r := newRun(context.Background(), env, l, "session:a", input(t, `{"action":"extract"}`), nil)
	env.reads.put(readKey{browser: r.browserInstance(), tabID: tabID, kind: "extract", parts: "default"}, url, rd)
}
