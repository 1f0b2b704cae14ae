package actions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestDownloadsAreTheBridgesOnlyWhenItsActionStartedThem(t *testing.T) {
	start := time.Now()
	w := actionWindow{instance: "i", tabID: 7, origin: "https://shop.example", start: start, end: start.Add(200 * time.Millisecond)}
	at := func(d time.Duration) string { return start.Add(d).UTC().Format(time.RFC3339Nano) }
	tests := []struct {
		name string
		it   protocol.DownloadItem
		want bool
	}{
		{"a navigation of the tab", protocol.DownloadItem{ID: 1, TabID: 7, URL: "https://cdn.example/f.zip", StartTime: at(50 * time.Millisecond)}, true},
		{"a navigation of another tab", protocol.DownloadItem{ID: 2, TabID: 8, URL: "https://shop.example/f.zip", Referrer: "https://shop.example/", StartTime: at(50 * time.Millisecond)}, false},
		{"the tab's blob", protocol.DownloadItem{ID: 3, URL: "blob:https://shop.example/0d1e", StartTime: at(10 * time.Millisecond)}, true},
		{"from the tab's page", protocol.DownloadItem{ID: 4, URL: "https://cdn.example/a.pdf", Referrer: "https://shop.example/cart", StartTime: at(0)}, true},
		{"another site's, no referrer, a tab not the bridge's", protocol.DownloadItem{ID: 5, URL: "https://other.example/a.pdf", StartTime: at(0)}, false},
		{"before the action", protocol.DownloadItem{ID: 6, TabID: 7, StartTime: at(-time.Second)}, false},
		{"late, but within the grace", protocol.DownloadItem{ID: 7, TabID: 7, StartTime: at(5 * time.Second)}, true},
		{"long after", protocol.DownloadItem{ID: 8, TabID: 7, StartTime: at(30 * time.Second)}, false},
	}
	book := &downloadBook{caught: map[string]*caughtDownload{}}
	for _, tt := range tests {
		c, fresh := book.catch(tt.it, []actionWindow{w})
		if (c != nil) != tt.want || fresh != tt.want {
			t.Errorf("%s: caught %v (fresh %v), want %v", tt.name, c != nil, fresh, tt.want)
		}
	}
	// Caught once: a later action does not claim it again.
	if _, fresh := book.catch(tests[0].it, []actionWindow{w}); fresh {
		t.Error("a download was caught twice")
	}
	// Without a referrer, a tab the bridge owns claims what began on it.
	w.owned = true
	if c, _ := book.catch(protocol.DownloadItem{ID: 9, URL: "https://other.example/a.pdf", StartTime: at(0)}, []actionWindow{w}); c == nil {
		t.Error("the bridge's own tab's download without referrer was not caught")
	}
}

func TestMoveIntoTakesOnlyTheUsersPlainFiles(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "Downloads")
	to := filepath.Join(dir, "bridge", "downloads")
	os.MkdirAll(from, 0o755)
	write := func(name, body string) string {
		p := filepath.Join(from, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write("report.csv", "a,b\n")
	got, n, err := moveInto(to, p, 1000)
	if err != nil || n != 4 || got != filepath.Join(to, "report.csv") {
		t.Fatalf("moveInto: %q %d %v", got, n, err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("the browser's copy is still there")
	}
	for path, mode := range map[string]os.FileMode{to: 0o700, got: 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v %v, want mode %o", path, fi.Mode(), err, mode)
		}
	}
	// The same name again: another file beside it.
	if got, _, err := moveInto(to, write("report.csv", "c\n"), 1000); err != nil || filepath.Base(got) != "report (1).csv" {
		t.Errorf("a second report.csv: %q %v", got, err)
	}
	// Not moved: over the cap, a hard link, a name of secrets.
	big := write("big.bin", strings.Repeat("x", 2000))
	if _, _, err := moveInto(to, big, 1000); err == nil || !strings.Contains(err.Error(), "cap") {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := os.Stat(big); err != nil {
		t.Error("a file over the cap was removed")
	}
	hard := write("hard.txt", "h")
	os.Link(hard, filepath.Join(dir, "other-name.txt"))
	if _, _, err := moveInto(to, hard, 1000); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("a file with two names: %v", err)
	}
	if _, _, err := moveInto(to, write("id_rsa", "k"), 1000); err == nil || !strings.Contains(err.Error(), "secrets") {
		t.Errorf("a key's name: %v", err)
	}
}
