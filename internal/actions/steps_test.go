package actions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// These tests run the engine's steps against the fake browser
// (internal/browser/fakebrowser), which stands in for the extension and
// the Chrome behind it: each test scripts the verbs' answers that a real
// page would give, over a real browser.Link, and checks the verbs the
// engine sent. What the page itself does is the e2e suites' business.

// engine is an Env over a Link with fake connected and a registry of its
// own.
func engine(t *testing.T, fake *fakebrowser.Browser) *Env {
	t.Helper()
	l := browser.NewLink()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	regs, err := registry.Open(filepath.Join(t.TempDir(), "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	return &Env{Browser: l, Registries: regs, Started: time.Now()}
}

// input parses a tool input, as the front ends and the daemon do.
func input(t *testing.T, raw string) *tool.Input {
	t.Helper()
	in, _, err := tool.Parse([]byte(raw))
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return in
}

// start begins carrying out raw on env, as Run does, to call one step.
// The tab it takes its turn on is let go at the end of the test.
func start(t *testing.T, env *Env, raw string) *run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	r := newRun(ctx, env, nil, "session:test", input(t, raw), nil)
	t.Cleanup(func() {
		if r.unlockTab != nil {
			r.unlockTab()
		}
		cancel()
	})
	return r
}

// tabs makes tab.get answer with the tab of that ID in tabs.
func tabs(fake *fakebrowser.Browser, tabs ...browser.TabInfo) {
	fake.Handle("tab.get", fakebrowser.Typed(func(_ context.Context, p protocol.TabGetParams) (any, error) {
		for _, t := range tabs {
			if t.TabID == p.TabID {
				return t, nil
			}
		}
		return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab %d", p.TabID)
	}))
}

// verbs lists the verbs the fake received, in order (a bare Link sends
// nothing of its own on a hello).
func verbs(fake *fakebrowser.Browser) []string {
	var out []string
	for _, c := range fake.Calls("") {
		out = append(out, c.Verb)
	}
	return out
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if protocol.CodeOf(err) != code {
		t.Fatalf("error %v (code %q), want code %q", err, protocol.CodeOf(err), code)
	}
}

func TestTargetIsTabIDElseTheWorkspacesElseChromesActiveTab(t *testing.T) {
	t.Parallel()
	// Chrome with the user's window 1 (focused, tab 10 active) and the
	// workspace's window 2 (tab 21 active).
	state := protocol.BrowserState{LastFocusedWindowID: 1, Windows: []protocol.WindowInfo{
		{WindowID: 1, Focused: true, Tabs: []browser.TabInfo{{TabID: 10, WindowID: 1, Active: true, URL: "https://user.example/"}}},
		{WindowID: 2, Tabs: []browser.TabInfo{{TabID: 20, WindowID: 2}, {TabID: 21, WindowID: 2, Active: true, URL: "https://ws.example/"}}},
	}}
	for _, tt := range []struct {
		name, input string
		want        int
		code        string
	}{
		{"tabId", `{"action":"inspect","tabId":20}`, 20, ""},
		{"workspace", `{"action":"inspect","browserWorkspaceId":"ws"}`, 21, ""},
		{"chrome", `{"action":"inspect"}`, 10, ""},
		{"run IDs do not steer", `{"action":"inspect","runId":"r1"}`, 10, ""},
		{"unknown workspace", `{"action":"inspect","browserWorkspaceId":"other"}`, 0, protocol.CodeTabNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakebrowser.New()
			fake.Handle("browser.state", fakebrowser.Reply(state))
			tabs(fake, state.Windows[1].Tabs...)
			env := engine(t, fake)
			env.Registries.For(fake.Hello.InstanceID).SetWorkspace(registry.Workspace{ID: "ws", WindowID: 2, GroupID: -1})
			got, err := start(t, env, tt.input).guards().pageTarget()
			if tt.code != "" {
				wantCode(t, err, tt.code)
				return
			}
			if err != nil || got.TabID != tt.want {
				t.Fatalf("pageTarget = tab %d, %v; want tab %d", got.TabID, err, tt.want)
			}
		})
	}
}

func TestGuardRefusesTheUsersIncognitoTabButNotTheBridgesOwn(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	// Tab 7 is the user's incognito tab, tab 8 one the bridge opened in
	// incognito (a search).
	tabs(fake, browser.TabInfo{TabID: 7, WindowID: 3, Incognito: true, URL: "https://private.example/"},
		browser.TabInfo{TabID: 8, WindowID: 4, Incognito: true, URL: "https://search.example/"})
	env := engine(t, fake)
	env.Registries.For(fake.Hello.InstanceID).AddTab(8, 4, "session:test")
	hooked := 0
	env.Guard = func(context.Context, browser.Caller, string, browser.TabInfo) error { hooked++; return nil }

	_, err := Run(context.Background(), env, "session:test", input(t, `{"action":"click","tabId":7,"selector":"a"}`), nil)
	wantCode(t, err, protocol.CodeIncognitoNotAllowed)
	if v := verbs(fake); !slices.Equal(v, []string{"tab.get"}) {
		t.Errorf("a refused tab got %v; want only the tab.get that found it incognito", v)
	}
	if hooked != 0 {
		t.Errorf("Env.Guard was asked about a tab the bridge's own guard refused")
	}
	if _, err := start(t, env, `{"action":"click","tabId":8,"selector":"a"}`).guards().pageTarget(); err != nil {
		t.Errorf("the bridge's own incognito tab: %v", err)
	}
}

func TestGuardRefusesTheErrorPageAndRefusedFilesButNavigationGoesOn(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 3, URL: "https://down.example/", LoadError: "net::ERR_NAME_NOT_RESOLVED"},
		browser.TabInfo{TabID: 4, URL: "file:///home/u/.ssh/id_rsa"})
	env := engine(t, fake)
	_, err := start(t, env, `{"action":"extract","tabId":3}`).guards().pageTarget()
	wantCode(t, err, protocol.CodeProtectedPage)
	_, err = start(t, env, `{"action":"inspect","tabId":4}`).guards().pageTarget()
	wantCode(t, err, protocol.CodeBlockedByPolicy)
	// Loading another page into them is what the user should do.
	for _, id := range []int{3, 4} {
		r := start(t, env, `{"action":"open","tabId":3,"url":"https://example.com/"}`)
		if _, err := r.guards().guardNavigation(browser.TabInfo{TabID: id, URL: "file:///home/u/.ssh/id_rsa", LoadError: "x"}); err != nil {
			t.Errorf("navigating tab %d away: %v", id, err)
		}
	}
}

func TestEnvGuardSeesTheActionAndTheTabAndCanStopIt(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tab := browser.TabInfo{TabID: 5, Active: true, URL: "https://bank.example/"}
	tabs(fake, tab)
	env := engine(t, fake)
	var gotAction string
	var gotTab browser.TabInfo
	// The lead's site policy stands behind this hook; here it refuses.
	env.Guard = func(_ context.Context, _ browser.Caller, action string, t browser.TabInfo) error {
		gotAction, gotTab = action, t
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "the user's rules keep the bridge off %s", t.URL)
	}
	_, err := Run(context.Background(), env, "session:test", input(t, `{"action":"click","tabId":5,"x":10,"y":20}`), nil)
	wantCode(t, err, protocol.CodeBlockedByPolicy)
	if gotAction != "click" || gotTab.TabID != 5 || gotTab.URL != tab.URL {
		t.Errorf("Env.Guard got (%q, %+v); want click on tab 5", gotAction, gotTab)
	}
	if v := verbs(fake); !slices.Equal(v, []string{"tab.get"}) {
		t.Errorf("a guarded tab got %v; nothing may reach the page", v)
	}
}

func TestTakeTurnRereadsTheTabAfterWaiting(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	var mu sync.Mutex
	url := "https://a.example/"
	fake.Handle("tab.get", fakebrowser.Typed(func(_ context.Context, p protocol.TabGetParams) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		return browser.TabInfo{TabID: p.TabID, URL: url}, nil
	}))
	env := engine(t, fake)
	first := start(t, env, `{"action":"click","tabId":6,"selector":"a"}`)
	if _, err := first.guards().pageTarget(); err != nil {
		t.Fatal(err)
	}
	second := start(t, env, `{"action":"type","tabId":6,"selector":"input","value":"x"}`)
	got := make(chan browser.TabInfo, 1)
	go func() {
		tab, _ := second.guards().pageTarget()
		got <- tab
	}()
	// The second waits for the first's turn; meanwhile the first
	// navigates the tab.
	if _, err := fake.WaitCalls(context.Background(), "tab.get", 2); err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
		t.Fatal("the second page action did not wait for the first's turn on the tab")
	case <-time.After(50 * time.Millisecond):
	}
	mu.Lock()
	url = "https://b.example/"
	mu.Unlock()
	first.unlockTab()
	first.unlockTab = nil
	if tab := <-got; tab.URL != "https://b.example/" {
		t.Errorf("after its wait the action works on %s; want the tab as it is now", tab.URL)
	}
	// A reading action does not wait.
	if _, err := start(t, env, `{"action":"inspect","tabId":6}`).guards().pageTarget(); err != nil {
		t.Fatal(err)
	}
}

func TestObserveFollowsANavigation(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	// The click started a load of another page that has not finished
	// within the wait.
	tabs(fake, browser.TabInfo{TabID: 2, URL: "https://example.com/next", Status: "loading"})
	notYet := false
	fake.Handle("tab.waitLoad", fakebrowser.Reply(browser.TabInfo{TabID: 2, URL: "https://example.com/next", Title: "Next", Loaded: &notYet}))
	env := engine(t, fake)
	r := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`)
	res, err := r.observer().observe(browser.TabInfo{TabID: 2, URL: "https://example.com/", Status: "complete"}, &Element{Element: tool.Element{Tag: "a"}}, inputWait{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Navigated || res.URL != "https://example.com/next" || res.Title != "Next" || res.Element == nil {
		t.Errorf("observe = %+v; want the navigation to the next page, with the element", res)
	}
	if !slices.Contains(res.Warnings, "the page it led to was still loading") {
		t.Errorf("warnings %q: want the unfinished load said", res.Warnings)
	}
	// click OpensTabs, but tab 2 is not the bridge's: no tab.opened.
	if v := verbs(fake); !slices.Equal(v, []string{"tab.get", "tab.waitLoad"}) {
		t.Errorf("observe sent %v", v)
	}
}

// What the waits for the element took is a value the steps hand observe,
// which puts it in the result's outcome: the time of all of them, what the
// first was for, and their notes after the action's own warnings.
func TestObserveReportsTheWaitsItIsHanded(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 2, URL: "https://example.com/"})
	env := engine(t, fake)
	located := inputWait{ms: 300, what: "covered by div \"Cookies\""}
	moved := inputWait{ms: 200, what: "moving", notes: []string{"the element kept moving (an animation); it was pressed while under the pointer"}}
	w := located.plus(inputWait{}).plus(moved)
	res, err := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`).observer().observe(browser.TabInfo{TabID: 2, URL: "https://example.com/"}, nil, w, "the locator matched 2 elements")
	if err != nil {
		t.Fatal(err)
	}
	if res.WaitedMs != 500 || res.WaitedFor != located.what {
		t.Errorf("waited %d ms for %q; want 500 ms for %q", res.WaitedMs, res.WaitedFor, located.what)
	}
	if want := []string{"the locator matched 2 elements", moved.notes[0]}; !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
	if len(located.notes) != 0 {
		t.Errorf("plus changed its receiver's notes: %q", located.notes)
	}
}

// A locator keeps what its locate found, and the observe after the act
// reads it from there: the tab, the waits and the warnings, and the
// element when the result names it (not a point clicked or hovered).
func TestObserveLocatedReadsWhatTheLocatorHolds(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 2, URL: "https://example.com/", Title: "Example"})
	env := engine(t, fake)
	r := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`)
	for _, named := range []bool{true, false} {
		l := r.locator()
		l.found = found{tab: browser.TabInfo{TabID: 2, URL: "https://example.com/"}, named: named,
			el:       Element{Element: tool.Element{Tag: "a"}, waited: inputWait{ms: 300, what: "moving"}},
			warnings: []string{"the locator matched 2 elements"}}
		res, err := r.observer().observeLocated(l)
		if err != nil {
			t.Fatal(err)
		}
		if res.TabID != 2 || res.Title != "Example" || res.WaitedMs != 300 || res.WaitedFor != "moving" || !slices.Equal(res.Warnings, l.warnings) {
			t.Errorf("named %v: observeLocated = %+v; want tab 2 as it is now, the waits and warnings the locator holds", named, res)
		}
		if (res.Element != nil) != named || named && res.Element.Tag != "a" {
			t.Errorf("named %v: the result's element is %+v", named, res.Element)
		}
	}
}

// A frame that could not be watched is not waited for: the settle after
// the input is over at once, without a look at the page.
func TestAnUnwatchedReactionIsSettledAtOnce(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("page.run", func(context.Context, fakebrowser.Call) (any, error) {
		return nil, protocol.Errorf(protocol.CodeTabNotFound, "the tab is gone")
	})
	env := engine(t, fake)
	w := start(t, env, `{"action":"type","tabId":2,"selector":"input","value":"x"}`).settling().watchReaction(2, 5)
	if re := w.await(); !re.Settled || re.Waited != 0 {
		t.Errorf("await = %+v; want settled at once", re)
	}
	if v := verbs(fake); !slices.Equal(v, []string{"page.run"}) {
		t.Errorf("the wait sent %v; want the watch alone", v)
	}
}

func TestObserveReportsOpenedTabsOfTheBridgesOwnTab(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 2, WindowID: 1, URL: "https://example.com/"})
	fake.Handle("tab.opened", fakebrowser.Reply(protocol.TabsResult{Tabs: []browser.TabInfo{{TabID: 9, WindowID: 1, OpenerTabID: 2}}}))
	env := engine(t, fake)
	reg := env.Registries.For(fake.Hello.InstanceID)
	reg.AddTab(2, 1, "session:test")
	res, err := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`).observer().observe(browser.TabInfo{TabID: 2, URL: "https://example.com/"}, nil, inputWait{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Navigated || len(res.OpenedTabs) != 1 || res.OpenedTabs[0].TabID != 9 || !reg.IsOwned(9) {
		t.Errorf("observe = %+v; want tab 9 opened and adopted, no navigation", res)
	}
	// type does not open tabs: no round trip for them.
	if _, err := start(t, env, `{"action":"type","tabId":2,"selector":"input","value":"x"}`).observer().observe(browser.TabInfo{TabID: 2, URL: "https://example.com/"}, nil, inputWait{}); err != nil {
		t.Fatal(err)
	}
	if n := len(fake.Calls("tab.opened")); n != 1 {
		t.Errorf("tab.opened sent %d times; want once, for the click", n)
	}
}

// A point click on the bridge's tab 3 whose mousedown handler shows an
// alert.
func TestClickBatchInterruptedByADialogSendsTheRestAfterTheAnswer(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 3, Active: true, URL: "https://example.com/"})
	fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true}))
	batches := 0
	fake.Handle("cdp.batch", fakebrowser.Typed(func(_ context.Context, p protocol.CDPBatchParams) (any, error) {
		batches++
		if batches == 1 { // Chrome stops at the press: the page shows an alert
			return protocol.CDPBatchResult{Dialog: &protocol.Dialog{Type: "alert", Message: "pressed"}, Interrupted: 1}, nil
		}
		return protocol.CDPBatchResult{}, nil
	}))
	fake.Handle("cdp", fakebrowser.Reply(struct{}{}))
	res, err := Run(context.Background(), engine(t, fake), "session:test", input(t, `{"action":"click","tabId":3,"x":10,"y":20}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	// page.run notes what is at the point (the fake has no page: the
	// click goes ahead unchecked); then what the click set off (the
	// fake keeps no record: report.go asks once) and whether it started
	// a download (downloads.go).
	want := []string{"tab.get", "cdp.attach", "page.run", "cdp.batch", "cdp", "cdp.batch", "tab.get", "record.console", "downloads.list"}
	if v := verbs(fake); !slices.Equal(v, want) {
		t.Fatalf("verbs %v, want %v", v, want)
	}
	var answer protocol.CDPParams
	fake.Calls("cdp")[0].Decode(&answer)
	if answer.Method != "Page.handleJavaScriptDialog" || answer.TabID != 3 {
		t.Errorf("the dialog was answered with %+v", answer)
	}
	var first, rest struct {
		Commands []struct {
			Method string
			Params mouseEvent
		}
	}
	calls := fake.Calls("cdp.batch")
	calls[0].Decode(&first)
	calls[1].Decode(&rest)
	if len(first.Commands) != 3 || len(rest.Commands) != 1 || rest.Commands[0].Params.Type != "mouseReleased" {
		t.Errorf("batches %+v then %+v; want moved, pressed, released, then the release alone", first, rest)
	}
	got := res.(*tool.ActResult)
	if got.Dialog == nil || got.Dialog.Type != "alert" || got.Dialog.Answer != "accepted" || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], `"pressed"`) {
		t.Errorf("result %+v; want the alert reported, accepted", got)
	}
}

// Each verb of a click that fails brings its code to the caller, except
// the last look at the tab: a click that closed its tab worked.
func TestAFailedCallOfAClickSurfacesItsCode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		verb string
		nth  int
		code string
	}{
		{"tab.get", 1, protocol.CodeTabNotFound},
		{"cdp.attach", 1, protocol.CodeProtectedPage},
		{"cdp.batch", 1, protocol.CodeMethodNotAllowed},
		{"tab.get", 2, ""},
	} {
		t.Run(fmt.Sprintf("%s#%d", tt.verb, tt.nth), func(t *testing.T) {
			t.Parallel()
			fake := fakebrowser.New()
			tabs(fake, browser.TabInfo{TabID: 3, Active: true, URL: "https://example.com/"})
			fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true}))
			fake.Handle("cdp.batch", fakebrowser.Reply(protocol.CDPBatchResult{}))
			code := tt.code
			if code == "" {
				code = protocol.CodeTabNotFound
			}
			fake.FailNth(tt.verb, tt.nth, code, "scripted failure")
			res, err := Run(context.Background(), engine(t, fake), "session:test", input(t, `{"action":"click","tabId":3,"x":1,"y":2}`), nil)
			if tt.code != "" {
				wantCode(t, err, tt.code)
				var pe *protocol.Error
				if !errors.As(err, &pe) || pe.Message != "scripted failure" {
					t.Errorf("error %v: want the extension's message", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w := res.(*tool.ActResult).Warnings; !slices.Contains(w, "the tab closed after the action") {
				t.Errorf("warnings %q: want the closed tab said", w)
			}
		})
	}
}

func TestADialogOnTheUsersTabIsLeftToTheUser(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 4, Active: true, URL: "https://example.com/"})
	// The user's own tab already shows a confirm when the action comes.
	fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true, Dialog: &protocol.Dialog{Type: "confirm", Message: "Leave?"}}))
	env := engine(t, fake)
	_, err := Run(context.Background(), env, "session:test", input(t, `{"action":"click","tabId":4,"x":1,"y":2}`), nil)
	wantCode(t, err, protocol.CodeBlockedByPolicy)
	if n := len(fake.Calls("cdp")); n != 0 {
		t.Errorf("the bridge answered the user's dialog (%d cdp calls)", n)
	}
	// Told to, it answers it, and goes on.
	fake.Handle("cdp", fakebrowser.Reply(struct{}{}))
	attaches := 0
	fake.Handle("cdp.attach", fakebrowser.Typed(func(context.Context, protocol.CDPAttachParams) (any, error) {
		if attaches++; attaches == 1 {
			return protocol.CDPAttachResult{OK: true, Dialog: &protocol.Dialog{Type: "confirm", Message: "Leave?"}}, nil
		}
		return protocol.CDPAttachResult{OK: true}, nil
	}))
	fake.Handle("cdp.batch", fakebrowser.Reply(protocol.CDPBatchResult{}))
	res, err := Run(context.Background(), env, "session:test", input(t, `{"action":"click","tabId":4,"x":1,"y":2,"dialog":"dismiss"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.(*tool.ActResult).Dialog; d == nil || d.Answer != "dismissed" {
		t.Errorf("result %+v; want the confirm dismissed", res)
	}
}

// When the call's deadline passes during a look for the element (one look
// can take longer than the reserve on a loaded machine: CI saw a bridge
// example's 2 s click on a missing element answer timeout), the answer is
// what the looks before found, not a bare timeout.
func TestElementWaitAnswersWhatItFoundWhenTheDeadlinePassesMidLook(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	tabs(fake, browser.TabInfo{TabID: 2, URL: "https://example.com/", Status: "complete"})
	fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true}))
	fake.Handle("tab.activate", fakebrowser.Reply(protocol.OKResult{OK: true}))
	looks := 0
	fake.Handle("page.run", fakebrowser.Typed(func(ctx context.Context, p protocol.PageRunParams) (any, error) {
		looks++
		if looks > 1 { // this look outlasts the call
			<-ctx.Done()
		}
		return protocol.PageRunResult{Frames: []protocol.PageFrameResult{{FrameID: 0, URL: "https://example.com/", Value: json.RawMessage(`{"count":0,"matches":[]}`)}}}, nil
	}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := Run(ctx, engine(t, fake), "session:test", input(t, `{"action":"click","tabId":2,"text":"Unsubscribe","timeoutMs":1000}`), nil)
	wantCode(t, err, protocol.CodeElementNotFound)
}

// A call aside from the agent's (the replay's picture of a step) answers
// no dialog open on the bridge's own tab, and only a reading action runs
// aside. Answered, the dialog would be reported to nobody
// (the agent's next action finds the page free) and taken from the user.
func TestACallAsideAnswersNoDialog(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	fake.Handle("cdp", fakebrowser.Reply(struct{}{}))
	fake.Handle("tab.frames", fakebrowser.Reply(protocol.TabFramesResult{Frames: []protocol.Frame{{FrameID: 0, URL: "https://example.com/"}}}))
	fake.Handle("page.run", fakebrowser.Reply(protocol.PageRunResult{}))
	fake.Handle("tab.activate", fakebrowser.Reply(protocol.OKResult{OK: true}))
	fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true, Dialog: &protocol.Dialog{Type: "alert", Message: "later"}}))
	_, err := RunAside(context.Background(), env, nil, "session:a", input(t, `{"action":"screenshot","tabId":2,"mode":"viewport"}`))
	wantCode(t, err, protocol.CodeBlockedByPolicy)
	if n := len(fake.Calls("cdp")); n != 0 {
		t.Errorf("the picture answered the alert the agent has not seen (%d cdp calls)", n)
	}

	// An input action, which a dialog could leave half done (the mouse
	// button down), does not run aside at all.
	_, err = RunAside(context.Background(), env, nil, "session:a", input(t, `{"action":"click","tabId":2,"x":10,"y":20}`))
	wantCode(t, err, protocol.CodeInvalidArgument)
	if n := len(fake.Calls("cdp.batch")); n != 0 {
		t.Errorf("a click ran aside (%d input batches)", n)
	}

	// The agent's own call on the same tab answers it, as always.
	fake.Handle("cdp.attach", fakebrowser.Reply(protocol.CDPAttachResult{OK: true, Dialog: &protocol.Dialog{Type: "alert", Message: "later"}}))
	_, err = Run(context.Background(), env, "session:a", input(t, `{"action":"screenshot","tabId":2,"mode":"viewport"}`), nil)
	if n := len(fake.Calls("cdp")); n == 0 {
		t.Errorf("the agent's screenshot did not answer the alert (%v)", err)
	}
}
