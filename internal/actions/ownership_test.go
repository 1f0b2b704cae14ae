package actions

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
)

// ownedTabs is a browser with the user's tab 1 and tabs the bridge
// opened: 2 by session:a in its own workspace, 3 by session:a in the
// named workspace "shared", 4 in run:r1, and 5 an entry from before
// sessions were recorded, in a named workspace.
func ownedTabs(t *testing.T) (*fakebrowser.Browser, *Env) {
	t.Helper()
	fake := fakebrowser.New()
	var all []browser.TabInfo
	for id := 1; id <= 5; id++ {
		all = append(all, browser.TabInfo{TabID: id, WindowID: 9, URL: "https://example.com/"})
	}
	tabs(fake, all...)
	fake.Handle("tab.close", fakebrowser.Reply(struct{}{}))
	env := engine(t, fake)
	reg := env.Registries.For(fake.Hello.InstanceID)
	reg.AddTabBy(2, 9, "session:a", "session:a")
	reg.AddTabBy(3, 9, "shared", "session:a")
	reg.AddTabBy(4, 9, "run:r1", "session:a")
	reg.AddTab(5, 9, "legacy")
	return fake, env
}

func TestMayTouch(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		session string
		input   string
		refused bool
	}{
		{"the user's tab, any session", "session:b", `{"action":"click","tabId":1,"selector":"a"}`, false},
		{"the opener, its own workspace", "session:a", `{"action":"click","tabId":2,"selector":"a"}`, false},
		{"the opener, a named workspace it did not name again", "session:a", `{"action":"click","tabId":3,"selector":"a"}`, false},
		{"another session", "session:b", `{"action":"click","tabId":2,"selector":"a"}`, true},
		{"another session, a named workspace", "session:b", `{"action":"extract","tabId":3}`, true},
		{"another session naming the workspace", "session:b", `{"action":"click","tabId":2,"selector":"a","browserWorkspaceId":"session:a"}`, false},
		{"another session naming the shared workspace", "session:b", `{"action":"extract","tabId":3,"browserWorkspaceId":"shared"}`, false},
		{"another session naming some other workspace", "session:b", `{"action":"extract","tabId":3,"browserWorkspaceId":"mine"}`, true},
		{"another session of the same run", "session:b", `{"action":"extract","tabId":4,"runId":"r1"}`, false},
		{"an entry of unknown opener", "session:b", `{"action":"extract","tabId":5}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, env := ownedTabs(t)
			r := newRun(context.Background(), env, nil, tt.session, input(t, tt.input), nil)
			err := r.guards().mayTouch(*r.in.TabID)
			if tt.refused {
				wantCode(t, err, protocol.CodeNotOwned)
				if !strings.Contains(err.Error(), "browserWorkspaceId") {
					t.Errorf("the refusal does not say how to act anyway: %v", err)
				}
				// The usual cause first: a tabId the agent forgot.
				if i, j := strings.Index(err.Error(), "pass the tabId that your open returned"), strings.Index(err.Error(), "browserWorkspaceId"); i < 0 || i > j {
					t.Errorf("the refusal does not first say to pass the tabId open returned: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

func TestCloseOfAnotherSessionsTabIsRefused(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	_, err := Run(context.Background(), env, "session:b", input(t, `{"action":"close","tabId":2}`), nil)
	wantCode(t, err, protocol.CodeNotOwned)
	if slices.Contains(verbs(fake), "tab.close") {
		t.Fatal("the refused close reached the browser")
	}
	if !env.Registries.For(fake.Hello.InstanceID).IsOwned(2) {
		t.Fatal("the refused close forgot the tab")
	}
	// Naming the workspace closes it; so does its own session.
	if _, err := Run(context.Background(), env, "session:b", input(t, `{"action":"close","tabId":2,"browserWorkspaceId":"session:a"}`), nil); err != nil {
		t.Fatalf("close naming the workspace: %v", err)
	}
	if _, err := Run(context.Background(), env, "session:a", input(t, `{"action":"close","tabId":3}`), nil); err != nil {
		t.Fatalf("close by the opener: %v", err)
	}
}

func TestOpenRecordsTheOpenerSession(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("window.create", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3}))
	fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 11}))
	fake.Handle("tab.waitLoad", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3}))
	env := engine(t, fake)
	if _, err := Run(context.Background(), env, "session:a", input(t, `{"action":"open","url":"https://example.com/","browserWorkspaceId":"named"}`), nil); err != nil {
		t.Fatal(err)
	}
	got, ok := env.Registries.For(fake.Hello.InstanceID).Get(7)
	if !ok || got.Workspace != "named" || got.Session != "session:a" {
		t.Fatalf("registry entry %+v, %v; want workspace named, session session:a", got, ok)
	}
}

func TestPageActionsOnAnotherSessionsTabAreRefused(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	_, err := Run(context.Background(), env, "session:b", input(t, `{"action":"click","tabId":2,"x":1,"y":1}`), nil)
	wantCode(t, err, protocol.CodeNotOwned)
	if v := verbs(fake); !slices.Equal(v, []string{"tab.get"}) {
		t.Errorf("a refused tab got %v; nothing may reach the page", v)
	}
	if _, err := start(t, env, `{"action":"extract","tabId":2,"browserWorkspaceId":"session:a"}`).guards().pageTarget(); err != nil {
		t.Errorf("naming the workspace: %v", err)
	}
}

// type takes the quick way on the bridge's own tabs (pageTargetLooking:
// the field is looked for beside the look at the tab), but another
// session's tab is refused before anything is sent at all.
func TestTypeOnAnotherSessionsTabSendsNothing(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	_, err := Run(context.Background(), env, "session:b", input(t, `{"action":"type","tabId":2,"selector":"#q","value":"x"}`), nil)
	wantCode(t, err, protocol.CodeNotOwned)
	if v := verbs(fake); len(v) != 0 {
		t.Errorf("a refused tab got %v; nothing may be sent", v)
	}
}

// On the quick way, the guards still judge the tab before anything acts
// on it: a tab a site rule refuses (here: Env.Guard) gets the look, but
// no input.
func TestTypeOnARefusedPageTypesNothing(t *testing.T) {
	t.Parallel()
	fake, env := ownedTabs(t)
	refused := protocol.Errorf(protocol.CodeBlockedByPolicy, "the site rules refuse example.com")
	env.Guard = func(context.Context, browser.Caller, string, browser.TabInfo) error { return refused }
	_, err := Run(context.Background(), env, "session:a", input(t, `{"action":"type","tabId":2,"selector":"#q","value":"x"}`), nil)
	wantCode(t, err, protocol.CodeBlockedByPolicy)
	for _, v := range verbs(fake) {
		if v == "cdp.batch" || v == "cdp" || v == "tab.activate" {
			t.Errorf("a refused page got %s (all: %v)", v, verbs(fake))
		}
	}
	if v := verbs(fake); !slices.Contains(v, "tab.get") {
		t.Errorf("the tab was not looked at: %v", v)
	}
}

// An open into a workspace a search made incognito says so, since the
// user is not signed in there; one that asked for incognito
// does not.
func TestOpenInAnIncognitoWorkspaceSaysSo(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		input string
		warn  bool
	}{
		{`{"action":"open","url":"https://example.com/","browserWorkspaceId":"w"}`, true},
		{`{"action":"open","url":"https://example.com/","browserWorkspaceId":"w","incognito":true}`, false},
	} {
		fake := fakebrowser.New()
		fake.Handle("tab.create", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3, Incognito: true}))
		fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 11}))
		fake.Handle("tab.waitLoad", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3, Incognito: true}))
		env := engine(t, fake)
		env.Registries.For(fake.Hello.InstanceID).SetWorkspace(registry.Workspace{ID: "w", WindowID: 3, GroupID: 11, Incognito: true})
		res, err := Run(context.Background(), env, "session:a", input(t, tt.input), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		if got := strings.Contains(string(b), "incognito: false"); got != tt.warn {
			t.Errorf("%s: %s; want a warning: %v", tt.input, b, tt.warn)
		}
	}
}
