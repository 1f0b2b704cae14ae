package actions

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// askEnv is an Env over the fake browser whose tab 9 shows
// https://shop.example/, with the mode on when on is; ask.show answers
// outcome, holding the tab meanwhile (held says whether it was).
func askEnv(t *testing.T, on bool, outcome string) (env *Env, fake *fakebrowser.Browser, held *atomic.Bool) {
	t.Helper()
	fake = fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Typed(func(ctx context.Context, p protocol.TabGetParams) (any, error) {
		return browser.TabInfo{TabID: p.TabID, WindowID: 1, URL: "https://shop.example/", Title: "Shop", Status: "complete", Active: true}, nil
	}))
	fake.Handle("tab.navigate", fakebrowser.Typed(func(ctx context.Context, p protocol.TabNavigateParams) (any, error) {
		return browser.TabInfo{TabID: p.TabID, WindowID: 1, URL: p.URL, Status: "complete"}, nil
	}))
	held = &atomic.Bool{}
	fake.Handle("ask.show", fakebrowser.Typed(func(ctx context.Context, p protocol.AskShowParams) (any, error) {
		held.Store(protocol.CodeOf(env.Handoffs().CheckIn(env.Browser.Info().Instance, "extract", p.TabID)) == protocol.CodeHandoffInProgress)
		return protocol.AskShowResult{Outcome: outcome, Overlay: true}, nil
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
	env = &Env{Browser: link, Registries: reg}
	env.SetAskBeforeIrreversible(func() bool { return on })
	return env, fake, held
}

func runOpen(t *testing.T, env *Env, url string) error {
	t.Helper()
	in, _, err := tool.Parse([]byte(`{"action":"open","tabId":9,"url":"` + url + `","timeoutMs":20000}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), in.Deadline())
	defer cancel()
	_, err = Run(ctx, env, "session:t", in, nil)
	return err
}

// With the mode on, open into another site asks over the tab, which is
// held meanwhile; Decline fails with declined_by_user and nothing loads;
// Allow loads it; the same site and the mode off do not ask.
func TestAskBeforeLoad(t *testing.T) {
	env, fake, held := askEnv(t, true, protocol.AskDeclined)
	err := runOpen(t, env, "https://other.example/x")
	if protocol.CodeOf(err) != protocol.CodeDeclinedByUser || !strings.Contains(err.Error(), "leave shop.example for other.example") {
		t.Fatalf("declined: %v", err)
	}
	if n := len(fake.Calls("tab.navigate")); n != 0 {
		t.Errorf("declined, and the tab navigated %d times", n)
	}
	calls := fake.Calls("ask.show")
	var p protocol.AskShowParams
	if len(calls) != 1 || calls[0].Decode(&p) != nil || p.TabID != 9 || p.Kind != protocol.AskNavigation || p.TimeoutMs < 10000 || p.TimeoutMs > 20000 {
		t.Errorf("ask.show: %d calls, %+v", len(calls), p)
	}
	if !held.Load() {
		t.Error("the tab was not held while the user was asked")
	}
	if err := env.Handoffs().CheckIn(env.Browser.Info().Instance, "extract", 9); err != nil {
		t.Errorf("still held after the answer: %v", err)
	}
	if err := runOpen(t, env, "https://www.shop.example/next"); err != nil {
		t.Errorf("the same site: %v", err)
	}
	if n := len(fake.Calls("ask.show")); n != 1 {
		t.Errorf("the same site asked")
	}

	env, fake, _ = askEnv(t, true, protocol.AskAllowed)
	if err := runOpen(t, env, "https://other.example/x"); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	if len(fake.Calls("ask.show")) != 1 || len(fake.Calls("tab.navigate")) != 1 {
		t.Errorf("allowed: %d questions, %d navigations", len(fake.Calls("ask.show")), len(fake.Calls("tab.navigate")))
	}

	env, fake, _ = askEnv(t, true, protocol.AskTimeout)
	if err := runOpen(t, env, "https://other.example/x"); protocol.CodeOf(err) != protocol.CodeDeclinedByUser || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("no answer: %v", err)
	}

	env, fake, _ = askEnv(t, false, protocol.AskDeclined)
	if err := runOpen(t, env, "https://other.example/x"); err != nil {
		t.Fatalf("mode off: %v", err)
	}
	if len(fake.Calls("ask.show")) != 0 {
		t.Error("the mode is off, and it asked")
	}
}

// A call whose deadline leaves the user no time is refused before
// anything is asked.
func TestAskNeedsTime(t *testing.T) {
	env, fake, _ := askEnv(t, true, protocol.AskAllowed)
	in, _, err := tool.Parse([]byte(`{"action":"open","tabId":9,"url":"https://other.example/","timeoutMs":1500}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err = Run(ctx, env, "session:t", in, nil)
	if protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), "timeoutMs") {
		t.Errorf("a short deadline: %v", err)
	}
	if len(fake.Calls("ask.show")) != 0 {
		t.Error("asked with no time to answer")
	}
}
