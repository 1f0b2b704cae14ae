package fakebrowser_test

import (
	"context"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func connect(t *testing.T) (*fakebrowser.Browser, browser.Verbs) {
	t.Helper()
	fake := fakebrowser.New()
	l := browser.NewLink()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	return fake, l.Verbs()
}

func TestDefaultsAnswerWhatADaemonAsksFirst(t *testing.T) {
	t.Parallel()
	_, v := connect(t)
	s, err := v.BrowserState(context.Background())
	if err != nil || len(s.Windows) != 0 || s.LastFocusedWindowID != -1 {
		t.Errorf("BrowserState = %+v, %v; want an empty browser", s, err)
	}
	if err := v.BridgePing(context.Background()); err != nil {
		t.Error(err)
	}
	if _, err := v.TabGet(context.Background(), protocol.TabGetParams{TabID: 1}); protocol.CodeOf(err) != protocol.CodeUnknownVerb {
		t.Errorf("a verb without a handler: %v, want unknown_verb", err)
	}
}

func TestFailEveryCall(t *testing.T) {
	t.Parallel()
	fake, v := connect(t)
	fake.FailNth("bridge.ping", 0, protocol.CodeBlockedByPolicy, "no")
	fake.FailNth("bridge.ping", 2, protocol.CodeTimeout, "the second")
	for i, want := range []string{protocol.CodeBlockedByPolicy, protocol.CodeTimeout, protocol.CodeBlockedByPolicy} {
		if err := v.BridgePing(context.Background()); protocol.CodeOf(err) != want {
			t.Errorf("call %d: %v, want %s (the Nth fault wins over every call's)", i+1, err, want)
		}
	}
}

func TestDelay(t *testing.T) {
	t.Parallel()
	fake, v := connect(t)
	fake.DelayNth("bridge.ping", 1, 50*time.Millisecond)
	start := time.Now()
	if err := v.BridgePing(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("the delayed call took %s", d)
	}
	// A cancel ends the delay: the extension stops what it waits for.
	fake.DelayNth("bridge.ping", 2, time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := v.BridgePing(ctx); protocol.CodeOf(err) != protocol.CodeTimeout {
		t.Errorf("error %v, want timeout", err)
	}
	wait, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if _, err := fake.WaitCalls(wait, "command.cancel", 1); err != nil {
		t.Fatal(err)
	}
}
