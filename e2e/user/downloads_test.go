package user

import (
	"context"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// A download that a click of the bridge's in the user's own tab (one the
// bridge did not open) starts only after the click has returned — the
// server holds back even its headers — is held to the cap too: the extension watches what that tab starts in the seconds after
// the action, with nobody polling. (A user's tab, so here, where the test
// opens tabs of its own through DevTools.)
func TestDownloadInAUsersTabHeldToTheCap(t *testing.T) {
	const capBytes = 200000
	l := paths.ForHome(bridge.Home)
	s, err := settings.Load(l)
	if err != nil {
		t.Fatal(err)
	}
	old := s.DownloadMaxBytes
	s.DownloadMaxBytes = capBytes
	if err := settings.Save(l, s); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.DownloadMaxBytes = old
		settings.Save(l, s)
	})
	untilDownloadCap(t, capBytes)
	release := make(chan struct{})
	site, sent := browsertest.StallingFiles(t, release, 2<<20)
	tab := usersTab(t, site+"/")
	r := bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "text": "Late"})
	if list, _ := r["downloads"].([]any); len(list) != 0 {
		t.Fatalf("the download began before the click returned: %v", r)
	}
	close(release)
	select {
	case n := <-sent["/late.bin"]:
		if n >= 2<<20 {
			t.Errorf("the browser took all %d bytes (the cap is %d)", n, capBytes)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server never finished")
	}
	left := browsertest.LeftInDownloads(bridge.Home, "late")
	if len(left) > 0 {
		t.Errorf("past the cap, still in the browser's download folder: %v", left)
	}
}

// untilDownloadCap waits until the extension holds capBytes as its cap on
// one download (the daemon sees settings.json change within 200 ms and
// sends it: on a loaded machine, later than a fixed pause allowed for).
// It asks the service worker through the test's DevTools connection.
func untilDownloadCap(t *testing.T, capBytes int64) {
	t.Helper()
	d := devtools(t)
	ctx := ctxFor(t, 15*time.Second)
	sw, err := d.WaitTarget(ctx, "service_worker", bridge.ExtensionURL(""))
	if err != nil {
		t.Fatal(err)
	}
	session, err := d.Attach(ctx, sw.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Call(context.Background(), "", "Target.detachFromTarget", map[string]any{"sessionId": session}, nil)
	var got struct {
		Cap struct {
			MaxBytes int64 `json:"maxBytes"`
		} `json:"downloadCap"`
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := d.Eval(ctx, session, `chrome.storage.session.get("downloadCap")`, &got)
		if err == nil && got.Cap.MaxBytes == capBytes {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the extension's cap on a download is %d (%v), not the settings' %d, 10 s after they changed", got.Cap.MaxBytes, err, capBytes)
		}
	}
}
