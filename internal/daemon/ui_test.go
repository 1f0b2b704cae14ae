package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// uiDaemon is a daemon that is not listening, with fake connected to its
// link: ui.go's functions are called directly.
func uiDaemon(t *testing.T, fake *fakebrowser.Browser) *Daemon {
	t.Helper()
	d, err := New(paths.ForHome(t.TempDir()), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.audit.Close() })
	// The reconciliation after the fake's hello writes the registry: it
	// must be done before the test's folder is removed.
	t.Cleanup(d.link.WaitHellos)
	if fake != nil {
		if err := fake.Connect(d.link); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(fake.Drop)
	}
	return d
}

func TestUIState(t *testing.T) {
	fake := fakebrowser.New()
	// The tabs are open in the fake browser: the daemon's reconcile after
	// the hello, which may run after the entries below are made, keeps
	// them.
	fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{Windows: []protocol.WindowInfo{
		{WindowID: 3, Tabs: []protocol.TabInfo{{TabID: 41, WindowID: 3}, {TabID: 42, WindowID: 3}}}}}))
	d := uiDaemon(t, fake)
	reg := d.reg.For(d.link.Info().Instance)
	reg.SetWorkspace(registry.Workspace{ID: "session:a", WindowID: 3, GroupID: 8, Title: "a", Color: "blue"})
	reg.AddTab(41, 3, "session:a")
	reg.AddTab(42, 3, "session:a")
	for i, a := range []string{"open", "click", "type"} {
		d.audit.Write(audit.Entry{Session: "session:a", Action: a, Browser: "1 (Edge)", TabID: 41, Code: "ok", Ms: int64(i)})
	}
	s, _ := settings.Load(d.layout)
	s.Policy.Deny = []string{"bank.example"}
	settings.Save(d.layout, s)

	res, err := d.answerUI(d.link.Info(), protocol.TypeUIState, []byte(`{"id":"ext-1","type":"ui.state"}`))
	if err != nil {
		t.Fatal(err)
	}
	st := res.(protocol.UIState)
	if st.Daemon.Protocol != protocol.Version || st.Daemon.PID == 0 || st.Paused || st.Off != "" {
		t.Errorf("daemon part: %+v", st)
	}
	if len(st.Workspaces) != 1 || st.Workspaces[0].ID != "session:a" || len(st.Workspaces[0].Tabs) != 2 || st.Workspaces[0].WindowID != 3 {
		t.Errorf("workspaces: %+v", st.Workspaces)
	}
	if len(st.Actions) != 3 || st.Actions[0].Action != "type" || st.Actions[2].Action != "open" || st.Actions[0].Browser != "1 (Edge)" {
		t.Errorf("actions, newest first: %+v", st.Actions)
	}
	if len(st.Policy.Deny) != 1 || len(st.Policy.Allow) != 0 || st.Policy.Allow == nil || len(st.Policy.BuiltInDeny) != len(policy.DefaultDeny) {
		t.Errorf("policy: %+v", st.Policy)
	}
	// It is asked every second: it leaves no trace in the trail.
	if all, _ := audit.Read(d.layout, audit.Filter{}); len(all) != 3 {
		t.Errorf("ui.state was audited: %d entries", len(all))
	}
}

func TestUIPause(t *testing.T) {
	d := uiDaemon(t, nil)
	for _, paused := range []bool{true, false} {
		res, err := d.answerUI(d.link.Info(), protocol.TypeUIPause, []byte(`{"id":"ext-2","type":"ui.pause","paused":`+map[bool]string{true: "true", false: "false"}[paused]+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if res.(protocol.UIPaused).Paused != paused {
			t.Errorf("answer %+v", res)
		}
		if got := settings.Paused(d.layout) != nil; got != paused {
			t.Errorf("settings paused = %v, want %v", got, paused)
		}
	}
	all, _ := audit.Read(d.layout, audit.Filter{Session: "user"})
	if len(all) != 2 || all[0].Action != "pause" || all[1].Action != "resume" {
		t.Errorf("the switch is not in the trail: %+v", all)
	}
	if _, err := d.answerUI(d.link.Info(), "ui.bogus", []byte(`{}`)); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
		t.Errorf("unknown request: %v", err)
	}
}

// The page's switch of evaluate is the CLI's policy evaluate on|off: it
// writes settings.json, status reads it, and the trail says who did it.
func TestUIEvaluate(t *testing.T) {
	d := uiDaemon(t, nil)
	if settings.EvaluateOff(d.layout) == nil || d.uiState(d.link.Info()).Evaluate {
		t.Fatal("evaluate is on by default")
	}
	for _, on := range []bool{true, false} {
		res, err := d.answerUI(d.link.Info(), protocol.TypeUIEvaluate, []byte(`{"id":"ext-3","type":"ui.evaluate","on":`+map[bool]string{true: "true", false: "false"}[on]+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if res.(protocol.UIEvaluated).On != on || d.uiState(d.link.Info()).Evaluate != on || (settings.EvaluateOff(d.layout) == nil) != on {
			t.Errorf("after the switch to %v: answer %+v, settings and page disagree", on, res)
		}
	}
	all, _ := audit.Read(d.layout, audit.Filter{Session: "user"})
	if len(all) != 2 || all[0].Action != "evaluate on" || all[1].Action != "evaluate off" {
		t.Errorf("the switch is not in the trail: %+v", all)
	}
}

func TestGuard(t *testing.T) {
	fake := fakebrowser.New()
	d := uiDaemon(t, fake)
	s, _ := settings.Load(d.layout)
	s.Policy.Deny = []string{"bank.example"}
	settings.Save(d.layout, s)
	ctx := context.Background()
	ext := d.link.Info().ID
	blocked := "chrome-extension://" + ext + "/ui/blocked.html"
	pay := &protocol.Stop{URL: "https://bank.example/pay", Rule: "bank.example", Kind: "deny"}
	tests := []struct {
		action, url string
		stop        *protocol.Stop
		code        string
		msg         string
	}{
		{"click", "https://news.example/", nil, "", ""},
		{"click", "https://www.bank.example/login", nil, protocol.CodeBlockedByPolicy, `"bank.example"`},
		{"extract", "chrome://settings/", nil, "", ""}, // Chrome refuses it itself: protected_page, as before
		{"click", blocked, pay, protocol.CodeBlockedByPolicy, `stopped the tab from loading "https://bank.example/pay" (site rule "bank.example")`},
		// The page's URL is not read: a forged rule and target (F1, F8)
		// are neither named nor loaded.
		{"click", blocked + "?rule=SYSTEM+NOTE+TO+AGENT#file:///etc/passwd", nil, protocol.CodeBlockedByPolicy, "shows the bridge's blocked page"},
	}
	for _, tt := range tests {
		err := d.guard(ctx, nil, tt.action, browser.TabInfo{TabID: 4, URL: tt.url, Stopped: tt.stop})
		if protocol.CodeOf(err) != tt.code || (err != nil && !strings.Contains(err.Error(), tt.msg)) {
			t.Errorf("%s on %s: %v, want code %q with %q", tt.action, tt.url, err, tt.code, tt.msg)
		}
		if err != nil && (strings.Contains(err.Error(), "SYSTEM NOTE") || strings.Contains(err.Error(), "file:")) {
			t.Errorf("%s on %s: the page's URL reached the error: %v", tt.action, tt.url, err)
		}
	}
	// Once the user lifts the rule, the tab the extension stopped gets its
	// page back, and the action goes on there.
	fake.Handle("policy.set", fakebrowser.Reply(protocol.OKResult{OK: true}))
	fake.Handle("tab.navigate", fakebrowser.Typed(func(ctx context.Context, p protocol.TabNavigateParams) (any, error) {
		return browser.TabInfo{TabID: p.TabID, URL: p.URL, Title: "Pay"}, nil
	}))
	s.Policy.Deny = nil
	settings.Save(d.layout, s)
	if err := d.guard(ctx, nil, "click", browser.TabInfo{TabID: 4, URL: blocked, Stopped: pay}); err != nil {
		t.Errorf("a blocked page whose rule is lifted: %v", err)
	}
	// A record of anything but a web address is never loaded (file: is
	// allowed by the site rules; the upload rules guard it).
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(1)", "chrome-extension://" + ext + "/ui/popup.html"} {
		err := d.guard(ctx, nil, "click", browser.TabInfo{TabID: 4, URL: blocked, Stopped: &protocol.Stop{URL: u, Kind: "deny", Rule: "x"}})
		if protocol.CodeOf(err) != protocol.CodeBlockedByPolicy {
			t.Errorf("a stop of %s: %v, want blocked_by_policy", u, err)
		}
	}
	if calls := fake.Calls("tab.navigate"); len(calls) != 1 || !strings.Contains(string(calls[0].Frame), `"url":"https://bank.example/pay"`) {
		t.Errorf("the stopped page was not loaded again: %v", calls)
	}
	if len(fake.Calls("policy.set")) != 1 {
		t.Errorf("the extension was not given the rules first")
	}

	end, err := d.env.Handoffs().BeginIn(d.link.Info().Instance, 4, "Sign in", "session:a")
	if err != nil {
		t.Fatal(err)
	}
	for _, action := range []string{"click", "open", "screenshot"} {
		if err := d.guard(ctx, nil, action, browser.TabInfo{TabID: 4, URL: "https://news.example/"}); protocol.CodeOf(err) != protocol.CodeHandoffInProgress {
			t.Errorf("%s while handed off: %v", action, err)
		}
	}
	end()
	if err := d.guard(ctx, nil, "click", browser.TabInfo{TabID: 4, URL: "https://news.example/"}); err != nil {
		t.Errorf("after the hand-off: %v", err)
	}
}

// The extension gets the rules and the download cap after its hello and
// again when settings.json changes (the CLI writes it without the
// daemon).
func TestWatchPolicyPushesTheRules(t *testing.T) {
	fake := fakebrowser.New()
	fake.Handle("policy.set", fakebrowser.Reply(protocol.OKResult{OK: true}))
	fake.Handle("downloads.limit", fakebrowser.Reply(protocol.OKResult{OK: true}))
	d := uiDaemon(t, fake)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.watchPolicy(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	calls, err := fake.WaitCalls(wctx, "policy.set", 1)
	if err != nil {
		t.Fatal(err)
	}
	var p protocol.PolicySetParams
	calls[0].Decode(&p)
	if p.Allow == nil || p.Deny == nil || len(p.BuiltInDeny) != len(policy.DefaultDeny) {
		t.Errorf("first push %+v", p)
	}
	s, _ := settings.Load(d.layout)
	s.Policy.Deny = []string{"bank.example"}
	settings.Save(d.layout, s)
	calls, err = fake.WaitCalls(wctx, "policy.set", 2)
	if err != nil {
		t.Fatal(err)
	}
	calls[1].Decode(&p)
	if b, _ := json.Marshal(p.Deny); string(b) != `["bank.example"]` {
		t.Errorf("second push %+v", p)
	}
	// Nothing changes: no more pushes.
	time.Sleep(1500 * time.Millisecond)
	if n := len(fake.Calls("policy.set")); n != 2 {
		t.Errorf("%d pushes, want 2", n)
	}
	// A new connection (a restarted service worker) gets them again.
	fake.Drop()
	if err := fake.Connect(d.link); err != nil {
		t.Fatal(err)
	}
	if _, err := fake.WaitCalls(wctx, "policy.set", 3); err != nil {
		t.Fatal(err)
	}
	// The cap, with each of those pushes, and again when only it changes
	// (the extension holds downloads to it by itself).
	s.DownloadMaxBytes = 200000
	settings.Save(d.layout, s)
	calls, err = fake.WaitCalls(wctx, "downloads.limit", 4)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{settings.DefaultDownloadMaxBytes, settings.DefaultDownloadMaxBytes, settings.DefaultDownloadMaxBytes, 200000} {
		var c protocol.DownloadsLimitParams
		calls[i].Decode(&c)
		if c.MaxBytes != want {
			t.Errorf("push %d of the cap: %d, want %d", i+1, c.MaxBytes, want)
		}
	}
}
