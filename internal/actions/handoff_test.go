package actions

import (
	"context"
	"path/filepath"
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

func TestHandoffsSet(t *testing.T) {
	var h Handoffs
	if err := h.CheckIn("", "click", 5); err != nil {
		t.Fatalf("an empty set refuses: %v", err)
	}
	end, err := h.Begin(5, "Please sign in", "session:a")
	if err != nil {
		t.Fatal(err)
	}
	err = h.Guard(context.Background(), nil, "click", browser.TabInfo{TabID: 5})
	if protocol.CodeOf(err) != protocol.CodeHandoffInProgress || !strings.Contains(err.Error(), "Please sign in") || !strings.Contains(err.Error(), "click of tab 5") {
		t.Errorf("guard while handed off: %v", err)
	}
	if err := h.CheckIn("", "click", 6); err != nil {
		t.Errorf("another tab is refused: %v", err)
	}
	if _, err := h.Begin(5, "again", "session:b"); protocol.CodeOf(err) != protocol.CodeHandoffInProgress {
		t.Errorf("a second hand-off of the tab: %v", err)
	}
	if l := h.List(); len(l) != 1 || l[0].TabID != 5 || l[0].Session != "session:a" {
		t.Errorf("list: %+v", l)
	}
	end()
	end() // twice is harmless
	if err := h.CheckIn("", "click", 5); err != nil {
		t.Errorf("after the end: %v", err)
	}
	if l := h.List(); len(l) != 0 {
		t.Errorf("list after the end: %+v", l)
	}
}

// The handler shows the hand-off in the extension, holds the tab for its
// whole wait (another action's guard fails), tells progress, and answers
// with what the extension answered.
func TestHandoffAction(t *testing.T) {
	fake := fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Typed(func(ctx context.Context, p protocol.TabGetParams) (any, error) {
		return browser.TabInfo{TabID: p.TabID, WindowID: 1, URL: "https://bank.example/login", Title: "Sign in", Status: "complete"}, nil
	}))
	shown := make(chan protocol.HandoffShowParams, 1)
	release := make(chan struct{})
	fake.Handle("handoff.show", fakebrowser.Typed(func(ctx context.Context, p protocol.HandoffShowParams) (any, error) {
		shown <- p
		<-release
		return protocol.HandoffShowResult{Outcome: protocol.HandoffDone, TabID: p.TabID, URL: "https://bank.example/home", Title: "Home"}, nil
	}))
	link := browser.NewLink()
	if err := fake.Connect(link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	reg, err := registry.Open(filepath.Join(t.TempDir(), "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Browser: link, Registries: reg}
	in, _, err := tool.Parse([]byte(`{"action":"handoff","tabId":9,"message":"Please sign in","timeoutMs":20000}`))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var told []string
	ctx, cancel := context.WithTimeout(context.Background(), in.Deadline())
	defer cancel()
	done := make(chan error, 1)
	var res any
	go func() {
		var err error
		res, err = Run(ctx, env, "session:t", in, func(s string) { mu.Lock(); told = append(told, s); mu.Unlock() })
		done <- err
	}()
	var p protocol.HandoffShowParams
	select {
	case p = <-shown:
	case <-time.After(10 * time.Second):
		t.Fatal("handoff.show was not sent")
	}
	if p.TabID != 9 || p.Message != "Please sign in" || p.TimeoutMs != 20000 {
		t.Errorf("handoff.show params %+v", p)
	}
	if err := env.Handoffs().CheckIn(link.Info().Instance, "type", 9); protocol.CodeOf(err) != protocol.CodeHandoffInProgress {
		t.Errorf("while the user has the tab: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r, ok := res.(*tool.HandoffResult); !ok || r.Outcome != "done" || r.URL != "https://bank.example/home" {
		t.Errorf("result %#v", res)
	}
	if err := env.Handoffs().CheckIn(link.Info().Instance, "type", 9); err != nil {
		t.Errorf("after the hand-off: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) == 0 || told[0] != "waiting for the user: Please sign in" {
		t.Errorf("progress %q", told)
	}
}

// Tab IDs are unique only within one browser: a hand-off of browser A's
// tab 5 leaves browser B's tab 5 alone.
func TestHandoffsKeepBrowsersApart(t *testing.T) {
	var h Handoffs
	end, err := h.BeginIn("inst-a@run", 5, "Please sign in", "session:a")
	if err != nil {
		t.Fatal(err)
	}
	defer end()
	if err := h.CheckIn("inst-b@run", "click", 5); err != nil {
		t.Errorf("browser B's tab 5 while A's is handed off: %v", err)
	}
	if err := h.CheckIn("inst-a@run", "click", 5); protocol.CodeOf(err) != protocol.CodeHandoffInProgress {
		t.Errorf("browser A's tab 5 while handed off: %v", err)
	}
}
