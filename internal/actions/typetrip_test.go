package actions

import (
	"context"
	"encoding/json"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"slices"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// These tests stand in a scripted fake for the extension (its cdp.batch
// answers are what handlers/cdp.js and page/act.js locateToType answer)
// and check what the daemon sends for type in one round trip, and when
// it goes the usual way instead.

// seeTab notes tab as the last action on it saw it (what open's or an
// action's result does).
func seeTab(env *Env, tab browser.TabInfo) {
	env.seen.put(tabKey{env.Browser.Info().Instance, tab.TabID}, tab)
}

// typedAnswer is the extension's answer to the one-trip batch that found
// and readied field e7 and inserted the text.
func typedAnswer(tab browser.TabInfo) protocol.CDPBatchResult {
	check, _ := json.Marshal(map[string]any{"ok": true, "index": 0,
		"found":    map[string]any{"count": 1, "matches": []map[string]any{{"ref": "e7", "tag": "input", "name": "Query", "visible": true, "enabled": true}}},
		"prepared": map[string]any{"kind": "text", "ref": "e7", "focused": true, "ok": true}})
	return protocol.CDPBatchResult{Results: []json.RawMessage{json.RawMessage(`{}`)}, Before: &tab, Tab: &tab,
		Check: []protocol.PageFrameResult{{FrameID: 0, URL: tab.URL, Value: check}}}
}

func TestTypeOnASeenTabGoesInOneBatch(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	tab := browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/", Active: true}
	seeTab(env, tab)
	fake.Handle("cdp.batch", fakebrowser.Reply(typedAnswer(tab)))
	res, err := Run(context.Background(), env, "session:a", input(t, `{"action":"type","tabId":2,"label":"Query","value":"hello"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing before the batch: no look at the tab, no locate, no attach.
	if v := verbs(fake); len(v) == 0 || v[0] != "cdp.batch" || slices.Contains(v, "cdp.attach") {
		t.Fatalf("verbs %v; want cdp.batch first, and no cdp.attach", v)
	}
	var p protocol.CDPBatchParams
	if err := fake.Calls("cdp.batch")[0].Decode(&p); err != nil {
		t.Fatal(err)
	}
	if p.ExpectURL != tab.URL || !p.Activate || p.Check == nil || p.Check.Fn != "locateToType" || p.Check.Before != 0 ||
		len(p.Check.Frames) != 1 || p.Check.Frames[0].FrameID != 0 || len(p.Commands) != 1 || p.Commands[0].Method != "Input.insertText" || p.Then == nil {
		t.Fatalf("batch %+v; want the URL judged, activate, locateToType in the top frame before Input.insertText, and the look after", p)
	}
	var args struct {
		Locate     map[string]any `json:"locate"`
		EveryFrame bool           `json:"everyFrame"`
	}
	raw, _ := json.Marshal(p.Check.Frames[0].Args)
	json.Unmarshal(raw, &args)
	if args.Locate["label"] != "Query" || !args.EveryFrame {
		t.Errorf("locateToType args %s; want the label, searched in every frame", raw)
	}
	got := res.(*tool.TypeResult)
	if got.Inserted != "typed" || got.Element == nil || got.Element.Ref != "e7" || got.TabID != 2 {
		t.Errorf("result %+v; want the text typed into e7 of tab 2", got)
	}
}

// A tab the guards refuse, as the last action saw it, gets no batch: the
// usual way looks at the tab and refuses it as it is.
func TestTypeOnASeenRefusedTabSendsNoInput(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	seeTab(env, browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/"})
	env.Guard = func(context.Context, browser.Caller, string, browser.TabInfo) error {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "the site rules refuse example.com")
	}
	fake.Handle("cdp.batch", fakebrowser.Reply(typedAnswer(browser.TabInfo{TabID: 2, URL: "https://example.com/"})))
	_, err := Run(context.Background(), env, "session:a", input(t, `{"action":"type","tabId":2,"selector":"#q","value":"x"}`), nil)
	wantCode(t, err, protocol.CodeBlockedByPolicy)
	if v := verbs(fake); slices.Contains(v, "cdp.batch") || !slices.Contains(v, "tab.get") {
		t.Errorf("verbs %v; want the tab looked at and no batch", v)
	}
}

// A tab that shows another page than the one judged gets nothing from
// the batch (the extension answers stale); the action goes the usual
// way, and the tab is remembered as it is now.
func TestTypeOnAStaleTabGoesTheUsualWay(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	seeTab(env, browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/old"})
	now := browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/"}
	fake.Handle("cdp.batch", fakebrowser.Reply(protocol.CDPBatchResult{Stale: true, Stopped: true, Tab: &now}))
	fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true}))
	Run(context.Background(), env, "session:a", input(t, `{"action":"type","tabId":2,"selector":"#q","value":"x"}`), nil)
	v := verbs(fake)
	if len(v) < 2 || v[0] != "cdp.batch" || !slices.Contains(v[1:], "tab.get") || !slices.Contains(v[1:], "page.run") {
		t.Errorf("verbs %v; want the one-trip batch, then the usual look at the tab and locate", v)
	}
	if seen, _ := env.seen.get(tabKey{env.Browser.Info().Instance, 2}); seen.URL != now.URL {
		t.Errorf("the tab is remembered at %q; want %q, as the stale answer showed it", seen.URL, now.URL)
	}
}

// A locator of a child frame's element, a point, another mode and a tab
// never seen all go the usual way.
func TestTypeInOneTripOnlyWhereItApplies(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"action":"type","tabId":2,"selector":"#q","value":"x","frameId":3}`,
		`{"action":"type","tabId":2,"ref":"f3e1","value":"x"}`,
		`{"action":"type","tabId":2,"x":5,"y":5,"value":"x"}`,
		`{"action":"type","tabId":2,"selector":"#q","value":"x","inputMode":"paste"}`,
		`{"action":"type","tabId":2,"selector":"#q","value":"","clear":true}`,
		`{"action":"type","tabId":3,"selector":"#q","value":"x"}`,
	} {
		fake, env := ownedTabs(t)
		seeTab(env, browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/"})
		fake.Handle("cdp.batch", fakebrowser.Reply(protocol.CDPBatchResult{}))
		fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true}))
		Run(context.Background(), env, "session:a", input(t, in), nil)
		for _, c := range fake.Calls("cdp.batch") {
			var p protocol.CDPBatchParams
			c.Decode(&p)
			if p.ExpectURL != "" {
				t.Errorf("%s: sent the one-trip batch %+v", in, p)
			}
		}
	}
}

// An answer that does not name the field typed into (an extension that
// disagrees with the daemon) fails the call, saying the text went in.
func TestTypeInOneTripSaysTheTextWentInWhenTheAnswerIsUnclear(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	tab := browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/", Active: true}
	seeTab(env, tab)
	answer := typedAnswer(tab)
	answer.Check[0].Value = json.RawMessage(`{"ok":true,"index":3,"found":{"count":0,"matches":[]}}`)
	fake.Handle("cdp.batch", fakebrowser.Reply(answer))
	_, err := Run(context.Background(), env, "session:a", input(t, `{"action":"type","tabId":2,"label":"Query","value":"hello"}`), nil)
	wantCode(t, err, protocol.CodeInternal)
	if !strings.Contains(err.Error(), "the text was typed") {
		t.Errorf("error %v; want it to say the text went in", err)
	}
}
