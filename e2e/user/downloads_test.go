package user

import (
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// A download that a click of the bridge's in the user's own tab (one the
// bridge did not open) starts only after the click has returned — the
// server holds back even its headers — is held to the cap too (issue 26
// F9): the extension watches what that tab starts in the seconds after
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
	time.Sleep(500 * time.Millisecond) // the daemon gives the extension the cap within 200 ms
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
