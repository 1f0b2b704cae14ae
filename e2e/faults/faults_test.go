//go:build unix

package faults

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func page(path string) string { return pages.URL + path }

// untilRunning waits until the extension reports verb among the commands
// it is running: the command is in flight beyond the daemon.
func untilRunning(t *testing.T, verb string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		st := runNow(t, map[string]any{"action": "status"})
		if running, _ := st.Result["extensionRunning"].([]any); slices.Contains(running, any(verb)) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the extension never ran %s", verb)
}

// targetOf is the CDP target of the page at url.
func targetOf(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts, err := bridge.CDP.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ts {
		if x.Type == "page" && x.URL == url {
			return x.TargetID
		}
	}
	t.Fatalf("no page target at %s among %v", url, ts)
	return ""
}

// cdp sends a browser-level CDP command over the test's own connection.
func cdp(t *testing.T, method string, params map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := bridge.CDP.Call(ctx, "", method, params, nil); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

func wantCode(t *testing.T, o outcome, code string) {
	t.Helper()
	if o.code() != code {
		t.Fatalf("%v: got %s, want error %s", o.In, o.summary(), code)
	}
}

// The native host dies (killed) while the extension loads a page for a
// command: the command fails at once with extension_not_connected; Chrome
// starts a new host when the extension reconnects, and a command sent
// meanwhile waits for it and works.
func TestNativeHostKilledMidCommand(t *testing.T) {
	before := take(t)
	ws := "fault-host"
	f := start(t, map[string]any{"action": "open", "url": page("/slow/5000"), "browserWorkspaceId": ws, "timeoutMs": 20000})
	untilRunning(t, "tab.waitLoad")
	hosts := hostPIDs()
	f.strike()
	for _, p := range hosts {
		syscall.Kill(p, syscall.SIGKILL)
	}
	o := f.wait(t).once(t)
	wantCode(t, o, protocol.CodeExtensionNotConnected)
	after := runNow(t, map[string]any{"action": "open", "url": page("/page/After"), "browserWorkspaceId": ws}).must(t)
	if after["title"] != "After" {
		t.Fatalf("after the host died: %v", after)
	}
	if now := hostPIDs(); len(now) != 1 || slices.Equal(now, hosts) {
		t.Fatalf("hosts %v → %v: want one new host", hosts, now)
	}
	closeWorkspace(t, ws)
	report(t, "native host killed mid-command", o, before.leaks(t, leakCheck{}))
}

// The daemon dies (SIGKILL, as in a crash) mid-command: the client says
// so with one coded error; the next command starts a new daemon, which
// the host redials and the extension's hello reaches within 3 s, and the
// tab the lost command opened is still the bridge's (the registry is on
// disk), so closing the workspace takes it too.
func TestDaemonKilledMidCommand(t *testing.T) {
	before := take(t)
	ws := "fault-daemon"
	f := start(t, map[string]any{"action": "open", "url": page("/slow/5000"), "browserWorkspaceId": ws, "timeoutMs": 20000})
	untilRunning(t, "tab.waitLoad")
	f.strike()
	syscall.Kill(before.DaemonPID, syscall.SIGKILL)
	killed := time.Now()
	o := f.wait(t).once(t)
	wantCode(t, o, protocol.CodeInternal)
	if !strings.Contains(o.Err.Message, "daemon went away") {
		t.Errorf("the error does not say what happened: %s", o.summary())
	}
	// Sent while the extension is not connected to the new daemon yet:
	// it waits for the reconnect instead of failing.
	again := runNow(t, map[string]any{"action": "open", "url": page("/page/Again"), "browserWorkspaceId": ws}).must(t)
	if again["title"] != "Again" {
		t.Fatalf("after the restart: %v", again)
	}
	st := runNow(t, map[string]any{"action": "status"}).must(t)
	at, err := time.Parse(time.RFC3339Nano, st["extension"].(map[string]any)["connectedAt"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if d := at.Sub(killed); d > 3*time.Second {
		t.Errorf("the extension reconnected %s after the daemon died; want under 3 s", d)
	} else {
		t.Logf("the extension reconnected %s after the daemon died", d.Round(time.Millisecond))
	}
	res := runNow(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws}).must(t)
	if n := len(res["closedTabs"].([]any)); n != 2 {
		t.Errorf("closeWorkspace closed %d tabs, want the lost command's and the next one's: %v", n, res)
	}
	report(t, "daemon killed mid-command, started again", o, before.leaks(t, leakCheck{newDaemon: true}))
}

// The user closes the tab while a command waits on it: the command ends
// with tab_not_found at once, not at its deadline.
func TestTabClosedWhileCommandRuns(t *testing.T) {
	before := take(t)
	ws := "fault-tab"
	tab := runNow(t, map[string]any{"action": "open", "url": page("/page/Doomed"), "browserWorkspaceId": ws}).must(t)
	f := start(t, map[string]any{"action": "wait", "tabId": num(t, tab, "tabId"), "selector": "#never", "timeoutMs": 15000})
	time.Sleep(time.Second)
	closed := time.Now()
	f.strike()
	cdp(t, "Target.closeTarget", map[string]any{"targetId": targetOf(t, page("/page/Doomed"))})
	o := f.wait(t).once(t)
	wantCode(t, o, protocol.CodeTabNotFound)
	if d := time.Since(closed); d > 3*time.Second {
		t.Errorf("the wait ended %s after its tab closed", d)
	}
	// And while its page loads.
	f = start(t, map[string]any{"action": "open", "url": page("/slow/5000"), "browserWorkspaceId": ws, "timeoutMs": 20000})
	untilRunning(t, "tab.waitLoad")
	f.strike()
	cdp(t, "Target.closeTarget", map[string]any{"targetId": targetOf(t, page("/slow/5000"))})
	o2 := f.wait(t).once(t)
	wantCode(t, o2, protocol.CodeTabNotFound)
	closeWorkspace(t, ws)
	leaked := before.leaks(t, leakCheck{})
	report(t, "tab closed during wait", o, leaked)
	report(t, "tab closed during open's load", o2, leaked)
}

// The page navigates away in the middle of a click (on mousedown) and of
// a type (on focus): each ends once, with a result that says where the
// tab went or one coded error.
func TestPageNavigatesAwayDuringClickAndType(t *testing.T) {
	before := take(t)
	ws := "fault-nav"
	form := runNow(t, map[string]any{"action": "open", "url": page("/form"), "browserWorkspaceId": ws}).must(t)
	tab := num(t, form, "tabId")
	click := runNow(t, map[string]any{"action": "click", "tabId": tab, "selector": "#go", "timeoutMs": 10000}).once(t)
	if click.Err == nil && click.Result["navigated"] != true {
		t.Errorf("the click's result does not say the page navigated: %v", click.Result)
	}
	runNow(t, map[string]any{"action": "open", "url": page("/form"), "tabId": tab}).must(t)
	typed := runNow(t, map[string]any{"action": "type", "tabId": tab, "selector": "#name", "value": "hello", "timeoutMs": 10000}).once(t)
	if typed.Err == nil && typed.Result["navigated"] != true {
		t.Errorf("the type's result does not say the page navigated: %v", typed.Result)
	}
	closeWorkspace(t, ws)
	leaked := before.leaks(t, leakCheck{})
	report(t, "page navigates away during click", click, leaked)
	report(t, "page navigates away during type", typed, leaked)
}

// stopServiceWorker stops the extension's service worker through the
// test's own debugging connection, as Chrome stops an idle or crashed
// worker, and waits until it is gone.
func stopServiceWorker(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sw, ok, err := bridge.ServiceWorker(ctx)
	if err != nil || !ok {
		t.Fatalf("no service worker to stop: %v", err)
	}
	cdp(t, "Target.closeTarget", map[string]any{"targetId": sw.TargetID})
	for ctx.Err() == nil {
		if _, ok, _ := bridge.ServiceWorker(ctx); !ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the service worker did not stop")
}

// The extension's service worker stops while it runs a command (with a
// debugger attached to a tab from an earlier one): the command fails at
// once with extension_not_connected. A command sent while the worker is
// stopped waits; the next browser event wakes the worker (here the user
// opens a tab; the 30 s alarm is the safety net), it reconnects, and the
// command goes through. The old worker's debugger session does not
// outlive it.
func TestServiceWorkerStopped(t *testing.T) {
	before := take(t)
	ws := "fault-worker"
	shot := runNow(t, map[string]any{"action": "open", "url": page("/page/Shot"), "browserWorkspaceId": ws}).must(t)
	runNow(t, map[string]any{"action": "screenshot", "tabId": num(t, shot, "tabId")}).must(t)
	if len(attached(t)) == 0 {
		t.Fatal("the screenshot left no debugger attached for the worker to leave behind")
	}
	f := start(t, map[string]any{"action": "open", "url": page("/slow/5000"), "browserWorkspaceId": ws, "timeoutMs": 20000})
	untilRunning(t, "tab.waitLoad")
	f.strike()
	stopServiceWorker(t)
	o := f.wait(t).once(t)
	wantCode(t, o, protocol.CodeExtensionNotConnected)

	waiting := start(t, map[string]any{"action": "open", "url": page("/page/Woken"), "browserWorkspaceId": ws, "timeoutMs": 20000})
	time.Sleep(time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var user struct {
		TargetID string `json:"targetId"`
	}
	waiting.strike() // here: the event that wakes the worker
	if err := bridge.CDP.Call(ctx, "", "Target.createTarget", map[string]any{"url": page("/page/User")}, &user); err != nil {
		t.Fatal(err)
	}
	woken := waiting.wait(t).once(t)
	if woken.Err != nil || woken.Result["title"] != "Woken" {
		t.Fatalf("the command sent while the worker was stopped: %s", woken.summary())
	}
	cdp(t, "Target.closeTarget", map[string]any{"targetId": user.TargetID})
	// The screenshot's tab is still open: its old debugger session must
	// be gone before the workspace closes (which would take it along).
	untilDetached(t)
	closeWorkspace(t, ws)
	leaked := before.leaks(t, leakCheck{})
	report(t, "service worker stopped mid-command", o, leaked)
	report(t, "command sent while the worker is stopped", woken, leaked)
}

// Chrome quits while a command runs and is started again with the same
// profile: the command fails with extension_not_connected; the restarted
// browser's extension connects again, the tabs of the earlier run are no
// longer the bridge's (Chrome reuses tab IDs), and commands work.
func TestBrowserQuitAndStartedAgain(t *testing.T) {
	before := take(t)
	ws := "fault-restart"
	runNow(t, map[string]any{"action": "open", "url": page("/page/Before"), "browserWorkspaceId": ws}).must(t)
	f := start(t, map[string]any{"action": "open", "url": page("/slow/8000"), "browserWorkspaceId": ws, "timeoutMs": 20000})
	untilRunning(t, "tab.waitLoad")
	f.strike()
	bridge.StopBrowser()
	o := f.wait(t).once(t)
	wantCode(t, o, protocol.CodeExtensionNotConnected)
	if err := bridge.StartBrowser(); err != nil {
		t.Fatal(err)
	}
	st := runNow(t, map[string]any{"action": "status"}).must(t)
	if ws := st["workspaces"].([]any); len(ws) != 0 {
		t.Errorf("the workspaces of the earlier run are still there: %v", ws)
	}
	for _, w := range st["windows"].([]any) {
		for _, tab := range w.(map[string]any)["tabs"].([]any) {
			if tab.(map[string]any)["owned"] == true {
				t.Errorf("a tab of the new run is marked as the bridge's: %v", tab)
			}
		}
	}
	again := runNow(t, map[string]any{"action": "open", "url": page("/page/Again"), "browserWorkspaceId": ws}).must(t)
	if again["title"] != "Again" {
		t.Fatalf("after the restart: %v", again)
	}
	closeWorkspace(t, ws)
	report(t, "Chrome quit mid-command, started again", o, before.leaks(t, leakCheck{}))
}

// untilDetached waits until no debugger is attached to any page: the
// extension detaches after 5 s without use.
func untilDetached(t *testing.T) {
	t.Helper()
	var now []string
	for deadline := time.Now().Add(8 * time.Second); time.Now().Before(deadline); {
		if now = attached(t); len(now) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("a debugger stays attached to %v", now)
}

// A page stuck in an endless script loop: every command on it ends at
// its deadline with a coded error (or sooner), the rest of the browser
// goes on working meanwhile, and the stuck tab can still be closed.
func TestEndlessScriptLoop(t *testing.T) {
	before := take(t)
	ws := "fault-loop"
	loop := runNow(t, map[string]any{"action": "open", "url": other + "/loop", "browserWorkspaceId": ws}).must(t)
	tab := num(t, loop, "tabId")
	time.Sleep(500 * time.Millisecond) // the loop starts 200 ms after the load
	var outs []outcome
	for _, in := range []map[string]any{
		{"action": "extract", "tabId": tab, "timeoutMs": 4000},
		{"action": "click", "tabId": tab, "text": "Stuck", "timeoutMs": 4000},
		{"action": "screenshot", "tabId": tab, "timeoutMs": 4000},
	} {
		f := start(t, in)
		// Meanwhile another tab works as usual.
		runNow(t, map[string]any{"action": "open", "url": page("/page/Fine"), "browserWorkspaceId": ws, "timeoutMs": 4000}).must(t)
		o := f.wait(t).once(t)
		t.Logf("%s: %s in %s", in["action"], o.summary(), o.Took)
		outs = append(outs, o)
	}
	closeWorkspace(t, ws)
	leaked := before.leaks(t, leakCheck{})
	for _, o := range outs {
		report(t, "page in an endless loop: "+o.In["action"].(string), o, leaked)
	}
}

// A page that opens alert() after alert() for ever: the bridge answers
// them, and each command ends once, before its deadline.
func TestAlertLoop(t *testing.T) {
	before := take(t)
	ws := "fault-alerts"
	a := runNow(t, map[string]any{"action": "open", "url": other + "/alerts", "browserWorkspaceId": ws}).must(t)
	tab := num(t, a, "tabId")
	var outs []outcome
	for _, in := range []map[string]any{
		{"action": "click", "tabId": tab, "selector": "#a", "timeoutMs": 8000},
		{"action": "extract", "tabId": tab, "timeoutMs": 4000},
		{"action": "screenshot", "tabId": tab, "timeoutMs": 4000},
		{"action": "click", "tabId": tab, "selector": "#a", "timeoutMs": 4000},
	} {
		o := runNow(t, in).once(t)
		t.Logf("%s: %s in %s %s", in["action"], o.summary(), o.Took, o.Stdout)
		outs = append(outs, o)
	}
	closeWorkspace(t, ws)
	leaked := before.leaks(t, leakCheck{})
	for _, o := range outs {
		report(t, "alert() in a loop: "+o.In["action"].(string), o, leaked)
	}
}

// Another debugger is attached to the tab, as DevTools is (here the
// test's own CDP session). Chrome lets both in: the bridge's commands
// work beside it and its idle detach leaves the other session alone.
// Once that debugger pauses the page (DevTools at a breakpoint), a
// command on it ends at its deadline with an error that names the cause,
// and status (so doctor) lists the tab.
func TestAnotherDebuggerOnTheTab(t *testing.T) {
	before := take(t)
	ws := "fault-devtools"
	o := runNow(t, map[string]any{"action": "open", "url": page("/form"), "browserWorkspaceId": ws}).must(t)
	tab := num(t, o, "tabId")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := bridge.CDP.Attach(ctx, targetOf(t, page("/form")))
	if err != nil {
		t.Fatal(err)
	}
	st := runNow(t, map[string]any{"action": "status"}).must(t)
	if d, _ := st["debuggedTabs"].([]any); len(d) != 1 || int(d[0].(float64)) != tab {
		t.Errorf("status does not list the debugged tab %d: %v", tab, st["debuggedTabs"])
	}
	beside := runNow(t, map[string]any{"action": "screenshot", "tabId": tab}).once(t)
	if beside.Err != nil {
		t.Fatalf("a screenshot beside another debugger: %s", beside.summary())
	}
	runNow(t, map[string]any{"action": "extract", "tabId": tab}).must(t)
	// The bridge detaches after 5 s idle; the other session stays.
	time.Sleep(5500 * time.Millisecond)
	var title string
	if err := bridge.CDP.Eval(ctx, session, "document.title", &title); err != nil || title != "Form" {
		t.Fatalf("the other debugger's session after the bridge detached: %q, %v", title, err)
	}
	// Paused at a breakpoint.
	if err := bridge.CDP.Call(ctx, session, "Debugger.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := bridge.CDP.Call(ctx, session, "Debugger.pause", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The pause takes effect with the next script the page runs: the
	// bridge's own.
	paused := runNow(t, map[string]any{"action": "extract", "tabId": tab, "timeoutMs": 3000}).once(t)
	wantCode(t, paused, protocol.CodeTimeout)
	if !strings.Contains(paused.Err.Message, "another debugger") {
		t.Errorf("the error does not name the other debugger: %s", paused.Err.Message)
	}
	clicked := runNow(t, map[string]any{"action": "click", "tabId": tab, "selector": "#go", "timeoutMs": 3000}).once(t)
	wantCode(t, clicked, protocol.CodeTimeout)
	if !strings.Contains(clicked.Err.Message, "another debugger") {
		t.Errorf("the error does not name the other debugger: %s", clicked.Err.Message)
	}
	doctor := bridge.Run(t, "doctor")
	if !strings.Contains(string(doctor.Stdout), "another debugger") {
		t.Errorf("doctor does not mention the other debugger:\n%s", doctor.Stdout)
	}
	if err := bridge.CDP.Call(ctx, session, "Debugger.resume", nil, nil); err != nil {
		t.Error(err)
	}
	bridge.CDP.Detach(ctx, session)
	closeWorkspace(t, ws)
	leaked := before.leaks(t, leakCheck{})
	report(t, "another debugger attached to the tab", beside, leaked)
	report(t, "another debugger paused the page: extract", paused, leaked)
	report(t, "another debugger paused the page: click", clicked, leaked)
}
