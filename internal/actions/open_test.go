package actions

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
)

// chromeMakes is a window.create, tab.create or tab.group as Chrome does
// it: the extension's handler is inside chrome.windows.create (say) when
// the daemon gives up, and Chrome makes the window all the same, after
// took, answering made; the answer then goes nowhere.
func chromeMakes(took time.Duration, made any) fakebrowser.Handler {
	return func(context.Context, fakebrowser.Call) (any, error) {
		time.Sleep(took)
		return made, nil
	}
}

// An open whose caller gives up (its deadline, a cancel) while Chrome is
// making its window answers at once, and closes the window once Chrome
// has made it: a window no workspace owns would be left to the user
// (one per timed-out open, not closable by the bridge).
func TestAnOpenGivenUpClosesTheWindowItWasMaking(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"deadline", "cancel"} {
		t.Run(how, func(t *testing.T) {
			fake := fakebrowser.New()
			fake.Handle("window.create", chromeMakes(300*time.Millisecond, browser.TabInfo{TabID: 7, WindowID: 3}))
			fake.Handle("window.close", fakebrowser.Reply(protocol.OKResult{OK: true}))
			env := engine(t, fake)
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			want := context.DeadlineExceeded
			if how == "cancel" {
				ctx, cancel = context.WithCancel(context.Background())
				time.AfterFunc(50*time.Millisecond, cancel)
				want = context.Canceled
			}
			start := time.Now()
			_, err := Run(ctx, env, "session:a", input(t, `{"action":"open","url":"https://example.com/","browserWorkspaceId":"w"}`), nil)
			if !givenUp(err, want) {
				t.Fatalf("error %v, want %v", err, want)
			}
			if took := time.Since(start); took > 200*time.Millisecond {
				t.Errorf("the open answered after %s; the caller gave up after 50ms", took)
			}
			var p protocol.WindowCloseParams
			if closedLater(t, fake, "window.close", &p); p.WindowID != 3 {
				t.Errorf("closed %+v, want window 3", p)
			}
			reg := env.Registries.For(fake.Hello.InstanceID)
			if _, ok := reg.Workspace("w"); ok {
				t.Error("the given-up open registered its workspace")
			}
			if reg.IsOwned(7) {
				t.Error("the given-up open's tab is still in the registry")
			}
		})
	}
}

// An open that waits for its workspace's lock (held by an open given up
// during its grouping) gives up at its own deadline, and asks Chrome to
// make nothing for a call that is over.
func TestAnOpenWaitsForItsWorkspaceWithinItsDeadline(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("window.create", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3}))
	env := engine(t, fake)
	unlock, err := env.workspaces.lock(context.Background(), "busy-ws")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Run(ctx, env, "session:a", input(t, `{"action":"open","url":"https://example.com/","browserWorkspaceId":"busy-ws"}`), nil)
	if !givenUp(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the deadline", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the open answered after %s; its deadline was 200ms", took)
	}
	if n := len(fake.Calls("window.create")) + len(fake.Calls("tab.create")); n != 0 {
		t.Errorf("%d creates for an open that was over", n)
	}
}

// A create for a call that is already over asks Chrome for nothing (the
// lock's wait may end as the deadline passes: its select picks either).
func TestCreateForACallThatIsOverMakesNothing(t *testing.T) {
	t.Parallel()
	env := engine(t, fakebrowser.New())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := newRun(ctx, env, nil, "session:a", input(t, `{"action":"open","url":"https://example.com/"}`), nil)
	var made atomic.Bool
	_, err := r.opening().create(func(context.Context) (browser.TabInfo, error) {
		made.Store(true)
		return browser.TabInfo{TabID: 1}, nil
	}, func(context.Context, browser.TabInfo) error { return nil })
	time.Sleep(100 * time.Millisecond) // a create asked for would be under way by now
	if !errors.Is(err, context.Canceled) || made.Load() {
		t.Errorf("create for a cancelled call: %v, made %v; want context.Canceled and nothing made", err, made.Load())
	}
}

// Into a workspace's window, the same: the tab Chrome made after the
// open gave up is closed, not left ungrouped and unowned in the window.
func TestAnOpenGivenUpClosesTheTabItWasMaking(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("tab.create", chromeMakes(300*time.Millisecond, browser.TabInfo{TabID: 8, WindowID: 3}))
	fake.Handle("tab.close", fakebrowser.Reply(protocol.OKResult{OK: true}))
	env := engine(t, fake)
	env.Registries.For(fake.Hello.InstanceID).SetWorkspace(registry.Workspace{ID: "w", WindowID: 3, GroupID: 11})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, env, "session:a", input(t, `{"action":"open","url":"https://example.com/","browserWorkspaceId":"w"}`), nil); !givenUp(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the deadline", err)
	}
	var p protocol.TabCloseParams
	if closedLater(t, fake, "tab.close", &p); p.TabID != 8 {
		t.Errorf("closed %+v, want tab 8", p)
	}
	if ws, ok := env.Registries.For(fake.Hello.InstanceID).Workspace("w"); !ok || ws.WindowID != 3 {
		t.Errorf("the workspace is %+v, %v; want it as it was", ws, ok)
	}
}

// givenUp says whether err is the error of a call its caller gave up on
// as want says: the context's error (the daemon words it), or the Link's
// timeout for a command that ran out of time.
func givenUp(err, want error) bool {
	return errors.Is(err, want) || want == context.DeadlineExceeded && protocol.CodeOf(err) == protocol.CodeTimeout
}

// closedLater waits for the close (verb) of what a given-up open was
// making, and decodes its params into p.
func closedLater(t *testing.T, fake *fakebrowser.Browser, verb string, p any) {
	t.Helper()
	wait, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	calls, err := fake.WaitCalls(wait, verb, 1)
	if err != nil {
		t.Fatalf("what the open was making was never closed: %v (calls %v)", err, verbs(fake))
	}
	if err := calls[0].Decode(p); err != nil {
		t.Fatal(err)
	}
}

// Given up during the load, the open answers at once, and its tab, the
// workspace's already, still goes into the workspace's group (Chrome
// takes its time here): not left ungrouped beside it.
func TestAnOpenGivenUpDuringTheLoadStillGroupsItsTab(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("window.create", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3}))
	fake.Handle("tab.waitLoad", func(ctx context.Context, _ fakebrowser.Call) (any, error) {
		<-ctx.Done() // a page that never loads
		return nil, ctx.Err()
	})
	// Chrome takes 2 s to make the group: an open that waited for it
	// would answer after that, far beyond the bound below (which leaves
	// room for a loaded machine: CI took 611 ms with a 250 ms bound).
	fake.Handle("tab.group", chromeMakes(2*time.Second, protocol.TabGroupResult{GroupID: 11}))
	env := engine(t, fake)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if _, err := Run(ctx, env, "session:a", input(t, `{"action":"open","url":"https://example.com/","browserWorkspaceId":"loading"}`), nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want cancelled", err)
	}
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("the open answered after %s; the caller gave up after 100ms", took)
	}
	reg := env.Registries.For(fake.Hello.InstanceID)
	deadline := time.Now().Add(5 * time.Second)
	for {
		ws, ok := reg.Workspace("loading")
		if ok && ws.GroupID == 11 && reg.IsOwned(7) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace %+v, %v, tab 7 owned %v; want group 11 and the tab the workspace's", ws, ok, reg.IsOwned(7))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A workspace's own page is no action's target, from any session: the
// actions that would load, read, drive or close it are refused with
// protected_page, naming the workspace and what to do, and nothing
// reaches the page (the fake answers tab.get alone; the browser state
// for a page action without tabId, whose workspace's active tab it is).
func TestActionsRefuseTheWorkspacePage(t *testing.T) {
	t.Parallel()
	page := browser.TabInfo{TabID: 6, WindowID: 2, URL: "chrome-extension://x/ui/workspace.html", GroupID: 12, Active: true, WorkspacePage: true}
	for _, raw := range []string{
		`{"action":"open","tabId":6,"url":"https://example.com/"}`,
		`{"action":"open","tabId":6,"url":"https://example.com/","browserWorkspaceId":"cyc"}`,
		`{"action":"reload","tabId":6}`,
		`{"action":"activate","tabId":6}`,
		`{"action":"click","tabId":6,"x":1,"y":1}`,
		`{"action":"type","tabId":6,"selector":"#q","value":"x"}`,
		`{"action":"extract","tabId":6}`,
		`{"action":"screenshot","browserWorkspaceId":"cyc"}`,
		`{"action":"close","tabId":6}`,
	} {
		fake := fakebrowser.New()
		tabs(fake, page)
		fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{LastFocusedWindowID: 2, Windows: []protocol.WindowInfo{{WindowID: 2, Tabs: []browser.TabInfo{page}}}}))
		env := engine(t, fake)
		env.Registries.For(fake.Hello.InstanceID).SetWorkspace(registry.Workspace{ID: "cyc", WindowID: 2, GroupID: 12})
		_, err := Run(context.Background(), env, "session:intruder", input(t, raw), nil)
		if protocol.CodeOf(err) != protocol.CodeProtectedPage || !strings.Contains(err.Error(), `closeWorkspace: true and browserWorkspaceId: "cyc"`) {
			t.Errorf("%s: %v; want protected_page naming workspace cyc and closeWorkspace", raw, err)
		}
		for _, v := range verbs(fake) {
			if v != "tab.get" && v != "browser.state" {
				t.Errorf("%s: the refused page got %s", raw, v)
			}
		}
	}
}
