package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// The helpers the real-browser suites share (e2e/ask, e2e/user, e2e/read
// wrap them under their own short names).

// MustFail runs input and fails the test unless it fails with code; it
// returns the error's message.
func (e Env) MustFail(t testing.TB, input map[string]any, code string) string {
	t.Helper()
	r := e.Call(t, input)
	if r.Exit == 0 || r.Err == nil {
		t.Fatalf("call %v succeeded, want error %s: %s", input, code, r.Stdout)
	}
	if r.Err.Code != code {
		t.Fatalf("call %v: error %s %q, want %s", input, r.Err.Code, r.Err.Message, code)
	}
	return r.Err.Message
}

// Workspace names a workspace of the test's own, closed at its end.
func (e Env) Workspace(t testing.TB, id string) string {
	t.Helper()
	t.Cleanup(func() {
		e.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": id})
	})
	return id
}

// OpenIn opens url in workspace ws and returns its tabId.
func (e Env) OpenIn(t testing.TB, ws, url string) int {
	t.Helper()
	return Num(t, e.MustCall(t, map[string]any{"action": "open", "url": url, "browserWorkspaceId": ws}), "tabId")
}

// ExtensionURL is a page of the bridge's extension.
func (b *Bridge) ExtensionURL(path string) string {
	return "chrome-extension://" + b.Launch.ExtensionID + "/" + path
}

// SharedDevTools is the test binary's one DevTools connection to a bridge
// started with StartWithDevTools, made at its first use.
func (b *Bridge) SharedDevTools(t testing.TB) *DevTools {
	t.Helper()
	b.devOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b.dev, b.devErr = b.DevTools(ctx)
	})
	if b.devErr != nil {
		t.Fatal(b.devErr)
	}
	return b.dev
}

// LogState logs what the bridge is doing, for a test that found a call
// stuck: the daemon's status (its goroutines, and the commands in flight
// in the extension), the audit trail's last calls (each with its outcome
// and how long it took: a call the daemon answered is there) and the
// daemon log's tail. Each look is bounded: a stuck daemon must not stall
// the report.
func (e Env) LogState(t testing.TB) {
	t.Helper()
	run := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := e.Command(ctx, args...).Output()
		if err != nil {
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				return fmt.Sprintf("%s (%v: %s)", out, err, exit.Stderr)
			}
			return fmt.Sprintf("%s (%v)", out, err)
		}
		return string(out)
	}
	status := run("call", `{"action":"status","timeoutMs":5000}`)
	var st struct {
		Daemon           any   `json:"daemon"`
		ExtensionRunning []any `json:"extensionRunning"`
		DebuggedTabs     []any `json:"debuggedTabs"`
	}
	if json.Unmarshal([]byte(status), &st) == nil {
		t.Logf("state: daemon %v; in flight in the extension %v; tabs other debuggers are on %v", st.Daemon, st.ExtensionRunning, st.DebuggedTabs)
	} else {
		t.Logf("state: status said %.2000s", status)
	}
	t.Logf("state: the audit trail's last calls:\n%s", run("log", "-n", "15"))
	if b, err := os.ReadFile(paths.ForHome(e.Home).DaemonLog()); err == nil {
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		t.Logf("state: the daemon log's last lines:\n%s", strings.Join(lines[max(0, len(lines)-30):], "\n"))
	} else {
		t.Logf("state: no daemon log: %v", err)
	}
}

// Ctx bounds one test's waits to d; it is cancelled when the test ends.
func Ctx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Num is the number at key of a JSON result; the test fails without one.
func Num(t testing.TB, m map[string]any, key string) int {
	t.Helper()
	v, ok := m[key].(float64)
	if !ok {
		t.Fatalf("result has no number %q: %v", key, m)
	}
	return int(v)
}

// Str is the string at key of a JSON result ("" without one).
func Str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// OverlayHolderJS is a JavaScript expression that is, in a page, the
// element holding the bridge's hand-off or question box over it
// (extension/ui/overlay.js names it bb-handoff-… anew each time), or
// undefined.
const OverlayHolderJS = `[...document.querySelectorAll("*")].find((e) => e.localName.startsWith("bb-handoff-"))`

// WaitPage waits up to 15 s for expr to be true in session's page, and
// fails the test with the page's text when it is not.
func (d *DevTools) WaitPage(t testing.TB, session, expr string) {
	t.Helper()
	if err := d.WaitEval(Ctx(t, 15*time.Second), session, expr); err != nil {
		var text string
		d.Eval(Ctx(t, 5*time.Second), session, "document.body.innerText", &text)
		t.Fatalf("%v\nthe page says:\n%s", err, text)
	}
}

// Shot saves a PNG of session's page under the test's temp dir, or under
// $BROWSER_BRIDGE_TEST_SHOTS when set (to look at it afterwards). width,
// when not 0, renders the page that wide and as tall as its content (as
// a popup or side panel shows the extension's page); the page's own size
// comes back afterwards.
func (d *DevTools) Shot(t testing.TB, session, name string, width int) {
	t.Helper()
	ctx := Ctx(t, 20*time.Second)
	if width > 0 {
		metrics := func(h int) {
			d.Call(ctx, session, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil)
		}
		metrics(600)
		var h int
		d.Eval(ctx, session, "document.documentElement.scrollHeight", &h)
		metrics(min(max(h, 200), 1600))
		defer d.Call(ctx, session, "Emulation.clearDeviceMetricsOverride", nil, nil)
	}
	png, err := d.Screenshot(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("BROWSER_BRIDGE_TEST_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

// JSString is s as a JavaScript string literal.
func JSString(s string) string {
	return "\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + "\""
}

// StatusTabs is every tab a status result lists, window by window, each
// with its window's ID added as windowId.
func StatusTabs(status map[string]any) []map[string]any {
	var out []map[string]any
	ws, _ := status["windows"].([]any)
	for _, w := range ws {
		wm, _ := w.(map[string]any)
		tabs, _ := wm["tabs"].([]any)
		for _, tab := range tabs {
			if tm, ok := tab.(map[string]any); ok {
				tm["windowId"] = wm["windowId"]
				out = append(out, tm)
			}
		}
	}
	return out
}

// Pages serves each of pages (path → HTML) as text/html, and 404 for any
// other path: the fixture server of a suite whose pages fit in its source.
func Pages(pages map[string]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
}

// TabIDs is the set of tabs a status result lists.
func TabIDs(t testing.TB, status map[string]any) map[int]bool {
	t.Helper()
	ids := map[int]bool{}
	for _, tm := range StatusTabs(status) {
		ids[Num(t, tm, "tabId")] = true
	}
	return ids
}

// WaitNoStrays polls status until it lists no stray tab, or fails the
// test after within. A stray is a tab not in before that nothing of the
// bridge's would ever close: not owned, and not the workspace page of a
// workspace's window. What an action the caller gave up on made in
// Chrome after that is closed as it comes, hence the wait.
func WaitNoStrays(t testing.TB, status func() map[string]any, before map[int]bool, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st := status()
		home := map[int]bool{}
		wss, _ := st["workspaces"].([]any)
		for _, w := range wss {
			home[Num(t, w.(map[string]any), "windowId")] = true
		}
		var strays []map[string]any
		for _, tm := range StatusTabs(st) {
			if !before[Num(t, tm, "tabId")] && tm["owned"] != true && (tm["workspacePage"] != true || !home[Num(t, tm, "windowId")]) {
				strays = append(strays, tm)
			}
		}
		if len(strays) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("tabs the bridge cannot close are left: %v (workspaces %v)", strays, st["workspaces"])
		}
		time.Sleep(200 * time.Millisecond)
	}
}
