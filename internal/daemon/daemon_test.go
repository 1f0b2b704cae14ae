package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/daemon"
	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// start runs a daemon in a fresh state folder until the test ends.
func start(t *testing.T) paths.Layout {
	t.Helper()
	return startWith(t, nil)
}

// startWith is start, with prepare (when not nil) given the daemon before
// it runs.
func startWith(t *testing.T, prepare func(*daemon.Daemon)) paths.Layout {
	t.Helper()
	dir := t.TempDir()
	// sockaddr_un holds about 104 bytes; a long test name in a long
	// TMPDIR would push the socket into paths' shared fallback.
	if len(filepath.Join(dir, "run", "daemon.sock")) > 100 {
		var err error
		if dir, err = os.MkdirTemp("/tmp", "bbd"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	layout := paths.ForHome(dir)
	d, err := daemon.New(layout, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("daemon: %v", err)
		}
	})
	// Run makes the secret under its lock, and the socket file appears at
	// bind, a moment before the daemon listens: wait for a handshake to
	// go through.
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, err := secret.Load(layout.Secret())
		if err != nil && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
			continue
		}
		c, _, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: s})
		if err == nil {
			c.Close()
			return layout
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not answer within 5 s: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
}

// dial connects to the daemon as role with the install's secret.
func dial(t *testing.T, layout paths.Layout, role string) *ipc.Conn {
	t.Helper()
	s, err := secret.Load(layout.Secret())
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: role, Secret: s, Session: "session:test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// host plugs fake into the daemon as a native host does, and waits for the
// daemon's reconciliation (a browser.state after the hello), so that the
// test's own calls come after it.
func host(t *testing.T, layout paths.Layout, fake *fakebrowser.Browser) {
	t.Helper()
	c := dial(t, layout, protocol.RoleHost)
	go fake.Serve(c)
	if _, err := fake.WaitCalls(waitCtx(t), "browser.state", 1); err != nil {
		t.Fatal(err)
	}
}

// connect is a client of the daemon.
func connect(t *testing.T, layout paths.Layout) *client.Client {
	t.Helper()
	c, err := client.Connect(context.Background(), layout, "session:test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := protocol.CodeOf(err); got != code {
		t.Fatalf("error %v (code %q), want code %q", err, got, code)
	}
}

func TestSecretHandshake(t *testing.T) {
	t.Parallel()
	layout := start(t)
	good, err := secret.Load(layout.Secret())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		secret string
		ok     bool
	}{
		{"right secret", good, true},
		{"wrong secret", strings.Repeat("0", len(good)), false},
		{"no secret", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, role := range []string{protocol.RoleClient, protocol.RoleHost} {
				c, ok, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: role, Secret: tt.secret})
				if !tt.ok {
					if err == nil {
						c.Close()
						t.Fatalf("%s: the daemon accepted %s", role, tt.name)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", role, err)
				}
				c.Close()
				if ok.DaemonPID != os.Getpid() || ok.Type != protocol.TypeAuthOK {
					t.Errorf("%s: handshake answer %+v", role, ok)
				}
			}
		})
	}
}

func TestStatusThroughTheHost(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{
		LastFocusedWindowID: 1,
		Windows:             []browser.WindowInfo{{WindowID: 1, Focused: true, Tabs: []browser.TabInfo{{TabID: 4, Active: true, Title: "Mine"}}}},
	}))
	host(t, layout, fake)
	raw, err := connect(t, layout).Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Connected bool
		Extension browser.Info
		ActiveTab struct {
			TabID int
			Title string
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Connected || got.Extension.Instance != fake.Hello.InstanceID || got.ActiveTab.TabID != 4 || got.ActiveTab.Title != "Mine" {
		t.Errorf("status %s", raw)
	}
}

func TestOpenRunsTheVerbsOfAnAction(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	tab := browser.TabInfo{TabID: 5, WindowID: 2, URL: "https://example.com/", Title: "Example", GroupID: -1, Status: "complete"}
	fake.Handle("window.create", fakebrowser.Reply(tab))
	fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 9}))
	fake.Handle("tab.waitLoad", fakebrowser.Typed(func(ctx context.Context, p protocol.TabWaitLoadParams) (any, error) {
		loaded := true
		t := tab
		t.GroupID, t.Loaded = 9, &loaded
		return t, nil
	}))
	host(t, layout, fake)
	raw, err := connect(t, layout).Call(context.Background(), map[string]any{"action": "open", "url": "https://example.com/"}, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		TabID, WindowID int
		GroupID         *int
		Owned           bool
	}
	json.Unmarshal(raw, &got)
	if got.TabID != 5 || got.WindowID != 2 || got.GroupID == nil || *got.GroupID != 9 || !got.Owned {
		t.Errorf("open %s", raw)
	}
	var p protocol.WindowCreateParams
	fake.Calls("window.create")[0].Decode(&p)
	if p.URL != "https://example.com/" || p.Focused || p.Width == 0 {
		t.Errorf("window.create got %+v: want the URL in an unfocused window of the workspace size", p)
	}
}

func TestCallDeadlineCancelsTheCommand(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	fake.DelayNth("browser.state", 2, time.Hour) // the first was the daemon's own
	start := time.Now()
	_, err := connect(t, layout).Call(context.Background(), map[string]any{"action": "status", "timeoutMs": 200}, 200*time.Millisecond, nil)
	wantCode(t, err, protocol.CodeTimeout)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a call with a 200 ms deadline took %s", d)
	}
	cancels, err := fake.WaitCalls(waitCtx(t), "command.cancel", 1)
	if err != nil {
		t.Fatal(err)
	}
	var p protocol.CommandCancelParams
	cancels[0].Decode(&p)
	if want := fake.Calls("browser.state")[1].ID; p.CommandID != want {
		t.Errorf("the extension was told to cancel %q, want %q", p.CommandID, want)
	}
}

func TestClientCancelCancelsTheCommand(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	fake.DelayNth("browser.state", 2, time.Hour)
	c := dial(t, layout, protocol.RoleClient)
	c.SendJSON(protocol.Call{ID: "c1", Type: protocol.TypeCall, Input: json.RawMessage(`{"action":"status"}`)})
	calls, err := fake.WaitCalls(waitCtx(t), "browser.state", 2)
	if err != nil {
		t.Fatal(err)
	}
	c.SendJSON(protocol.Call{ID: "c1", Type: protocol.TypeCancel})
	var reply protocol.Reply
	if err := c.RecvJSON(&reply); err != nil {
		t.Fatal(err)
	}
	if reply.ID != "c1" || reply.Error == nil || reply.Error.Code != protocol.CodeTimeout || !strings.Contains(reply.Error.Message, "cancelled by the caller") {
		t.Errorf("reply %+v, want a timeout saying the caller cancelled", reply)
	}
	cancels, err := fake.WaitCalls(waitCtx(t), "command.cancel", 1)
	if err != nil {
		t.Fatal(err)
	}
	var p protocol.CommandCancelParams
	cancels[0].Decode(&p)
	if p.CommandID != calls[1].ID {
		t.Errorf("the extension was told to cancel %q, want %q", p.CommandID, calls[1].ID)
	}
}

func TestNoExtensionFailsWithProgress(t *testing.T) {
	t.Parallel()
	layout := start(t)
	var progress []string
	_, err := connect(t, layout).Call(context.Background(), map[string]any{"action": "open", "url": "https://example.com/", "timeoutMs": 600}, 600*time.Millisecond,
		func(msg string) { progress = append(progress, msg) })
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	if len(progress) == 0 || !strings.Contains(progress[0], "for the browser extension to connect") {
		t.Errorf("progress %q, want the wait for the extension", progress)
	}
}

func TestBridgeOffRefusesAllButStatus(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	if err := settings.Save(layout, settings.Settings{Disabled: true}); err != nil {
		t.Fatal(err)
	}
	c := connect(t, layout)
	_, err := c.Call(context.Background(), map[string]any{"action": "open", "url": "https://example.com/"}, 5*time.Second, nil)
	wantCode(t, err, protocol.CodeBridgeDisabled)
	raw, err := c.Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Disabled string }
	json.Unmarshal(raw, &st)
	if !strings.Contains(st.Disabled, "browser-bridge enable") {
		t.Errorf("status %s does not say the bridge is off and how to turn it on", raw)
	}
	// Only the daemon's own business at the hello (the registry's
	// reconciliation, the site rules and the download cap, the quiet-DOM
	// content script, all possibly before the bridge went off) reached the
	// extension: no action.
	for _, call := range fake.Calls("") {
		switch call.Verb {
		case "browser.state", "policy.set", "downloads.limit", "readiness.enable":
		default:
			t.Errorf("the extension got %s while the bridge was off", call.Verb)
		}
	}
}

func TestHostDropFailsTheCall(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	host(t, layout, fake)
	fake.DropNth("browser.state", 2)
	_, err := connect(t, layout).Call(context.Background(), map[string]any{"action": "status"}, 5*time.Second, nil)
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Error("the call waited for its deadline")
	}
}

// TestClientCannotTakeTheUsersName connects clients under the names the
// log gives the person at the browser and the extension, and under names
// that read as those or as another through an invisible character, and
// checks that their calls are refused with invalid_argument and none is
// logged (a program holding the secret must not write lines that read as
// the user's), while a name of its own is filed as given.
func TestClientCannotTakeTheUsersName(t *testing.T) {
	t.Parallel()
	layout := start(t)
	host(t, layout, fakebrowser.New())
	call := func(name string) error {
		c, err := client.Connect(waitCtx(t), layout, name)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.Call(context.Background(), map[string]any{"action": "status"}, 10*time.Second, nil)
		return err
	}
	for _, name := range []string{"user", " User", "session:user", "extension", "us\u200ber", "\u202eresu"} {
		err := call(name)
		if protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), "another name") {
			t.Errorf("a client named %q: %v, want invalid_argument saying to use another name", name, err)
		}
	}
	if err := call("users"); err != nil {
		t.Fatal(err)
	}
	var got []audit.Entry
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && len(got) < 1; time.Sleep(20 * time.Millisecond) {
		got, _ = audit.Read(layout, audit.Filter{})
	}
	if len(got) != 1 || got[0].Session != "users" {
		t.Errorf("the trail holds %+v, want only the call of \"users\"", got)
	}
}
