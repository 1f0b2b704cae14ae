package daemon_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// While the user has paused the bridge every action but status fails with
// paused_by_user before anything reaches the extension (the fake browser
// stands in for it and records what it gets), and resuming restores it.
func TestPauseRefusesAllButStatus(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	settings.Save(layout, settings.Settings{Paused: true})
	c := connect(t, layout)
	before := len(fake.Calls(""))
	_, err := c.Call(context.Background(), map[string]any{"action": "open", "url": "https://example.com/"}, 5*time.Second, nil)
	wantCode(t, err, protocol.CodePausedByUser)
	_, err = c.Verb(context.Background(), "tab.list", map[string]any{}, nil)
	wantCode(t, err, protocol.CodePausedByUser)
	// The daemon's own upkeep goes on (the site rules given to a browser
	// that connected, the registry's reconciliation): none of the agent's
	// commands does.
	for _, c := range fake.Calls("")[before:] {
		if c.Verb != "policy.set" && c.Verb != "browser.state" {
			t.Errorf("the extension got %s while paused", c.Verb)
		}
	}
	// paused is a boolean, always there; the sentence has its own field,
	// and the Go client's type reads both.
	raw, err := c.Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil)
	var st tool.StatusResult
	if err != nil || !strings.Contains(string(raw), `"paused":true`) {
		t.Errorf("status while paused does not say so: %s %v", raw, err)
	} else if json.Unmarshal(raw, &st) != nil || !st.Paused || !strings.HasPrefix(st.PausedMessage, "the user has paused the bridge") {
		t.Errorf("status while paused decodes to %+v: %s", st, raw)
	}
	settings.Save(layout, settings.Settings{})
	if raw, err := c.Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil); err != nil || !strings.Contains(string(raw), `"paused":false`) || strings.Contains(string(raw), "pausedMessage") {
		t.Errorf("status after resume: %s %v", raw, err)
	}
	_, err = c.Call(context.Background(), map[string]any{"action": "close", "tabId": 99}, 5*time.Second, nil)
	if protocol.CodeOf(err) == protocol.CodePausedByUser {
		t.Errorf("still paused after resume: %v", err)
	}
}

// A URL the site rules deny is refused with blocked_by_policy naming the
// rule; the built-in rules hold whatever the settings say.
func TestSiteRulesRefuseURLs(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	var s settings.Settings
	s.Policy.Add("deny", "bank.example")
	settings.Save(layout, s)
	c := connect(t, layout)
	for _, u := range []string{"https://www.bank.example/login", "https://chromewebstore.google.com/detail/x"} {
		_, err := c.Call(context.Background(), map[string]any{"action": "open", "url": u}, 5*time.Second, nil)
		wantCode(t, err, protocol.CodeBlockedByPolicy)
		if err != nil && !strings.Contains(err.Error(), "rule") {
			t.Errorf("%s: %v does not name the rule", u, err)
		}
	}
	if n := len(fake.Calls("window.create")) + len(fake.Calls("tab.create")); n != 0 {
		t.Errorf("a denied URL reached the extension (%d tabs made)", n)
	}
}

// Every command leaves one audit line, refused ones too, with the typed
// text redacted.
func TestEveryCommandIsAudited(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	c := connect(t, layout)
	c.Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil)
	c.Call(context.Background(), map[string]any{"action": "type", "tabId": 3, "label": "Password", "value": "hunter2"}, 5*time.Second, nil)
	c.Verb(context.Background(), "tab.list", map[string]any{}, nil)
	var got []audit.Entry
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		got, _ = audit.Read(layout, audit.Filter{})
		if len(got) >= 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 3 {
		t.Fatalf("%d audit lines, want 3: %+v", len(got), got)
	}
	if got[0].Action != "status" || got[0].Code != "ok" || got[0].Session != "session:test" {
		t.Errorf("status line: %+v", got[0])
	}
	if got[1].Action != "type" || got[1].Code == "ok" || got[1].TabID != 3 || got[1].Params["value"] != "[redacted, 7 chars]" || got[1].Params["label"] != "Password" {
		t.Errorf("type line: %+v", got[1])
	}
	if got[2].Action != "tab.list" || got[2].Door != "program" {
		t.Errorf("verb line: %+v", got[2])
	}
	// The action and the verb name the browser they ran in: the only
	// one, slot 0.
	if !strings.HasPrefix(got[1].Browser, "0 (") || got[2].Browser != got[1].Browser {
		t.Errorf("browsers of the type and verb lines: %q, %q; want both the fake's, slot 0", got[1].Browser, got[2].Browser)
	}
}

// The WebSocket settings of the default browser (no browser named) go
// into the trail under that browser's name too.
func TestWebSocketVerbsNameTheirBrowserInTheAudit(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	fake.Handle("websocket.status", fakebrowser.Reply(struct{}{}))
	host(t, layout, fake)
	c := connect(t, layout)
	c.Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil) // waits for the browser
	if _, err := c.Verb(context.Background(), "websocket.status", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	var got []audit.Entry
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if got, _ = audit.Read(layout, audit.Filter{}); len(got) >= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 2 || got[1].Action != "websocket.status" || !strings.HasPrefix(got[1].Browser, "0 (") {
		t.Fatalf("audit lines %+v; want the websocket.status line to name browser 0", got)
	}
}
