package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// waitMessage is the progress message of a call made without a deadline
// on l while nothing is connected.
func waitMessage(t *testing.T, l *browser.Link) string {
	t.Helper()
	progress := make(chan string, 1)
	ctx, cancel := context.WithCancel(browser.WithProgress(context.Background(), func(s string) { progress <- s }))
	defer cancel()
	go l.Verbs().BridgePing(ctx)
	select {
	case msg := <-progress:
		return msg
	case <-time.After(5 * time.Second):
		t.Fatal("no progress while waiting for the extension")
		return ""
	}
}

// An extension that was connected a moment ago is reconnecting (its
// backoff, a stopped service worker's 30 s alarm): a command waits for it
// longer than for one that never came, then goes through.
func TestCallWaitsLongerForAnExtensionThatIsReconnecting(t *testing.T) {
	t.Parallel()
	if msg := waitMessage(t, browser.NewLink()); !strings.Contains(msg, "waiting up to 10s") {
		t.Errorf("with no extension ever connected: %q, want DeliveryWait", msg)
	}
	l := browser.NewLink()
	fake := fakebrowser.New()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	fake.Drop()
	for l.WaitConnected(context.Background(), 0) {
		time.Sleep(time.Millisecond)
	}
	if msg := waitMessage(t, l); !strings.Contains(msg, "waiting up to 35s") {
		t.Errorf("just after a drop: %q, want ReconnectWait", msg)
	}
	done := make(chan error, 1)
	go func() { done <- l.Verbs().BridgePing(context.Background()) }()
	time.Sleep(20 * time.Millisecond)
	again := fakebrowser.New()
	t.Cleanup(again.Drop)
	if err := again.Connect(l); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting call, once the extension is back: %v", err)
	}
	// Out of time before it comes back: the error says it was there.
	again.Drop()
	for l.WaitConnected(context.Background(), 0) {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	err := l.Verbs().BridgePing(ctx)
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	if !strings.Contains(err.Error(), "disconnected") || !strings.Contains(err.Error(), "Chrome is still open") {
		t.Errorf("the error does not say the extension went away: %v", err)
	}
}

// A page command that runs out of time on a tab another debugger is
// attached to says that the debugger has probably paused the page; on
// any other tab it says the page may be frozen.
func TestTimeoutNamesAnotherDebugger(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("page.run", func(ctx context.Context, c fakebrowser.Call) (any, error) {
		<-ctx.Done() // a paused page answers nobody
		return nil, ctx.Err()
	})
	fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{LastFocusedWindowID: -1, Windows: []protocol.WindowInfo{}, DebuggedTabs: []int{7}}))
	l := connected(t, fake)
	for _, tt := range []struct {
		tab  int
		want string
	}{{7, "another debugger (DevTools or another extension) is attached to it"}, {8, "frozen (a script that never ends)"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		start := time.Now()
		err := l.Call(ctx, "page.run", protocol.PageRunParams{TabID: tt.tab}, nil)
		cancel()
		wantCode(t, err, protocol.CodeTimeout)
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("tab %d: %v, want it to say %q", tt.tab, err, tt.want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("tab %d: the timeout came %s after a 30 ms deadline", tt.tab, d)
		}
	}
}
