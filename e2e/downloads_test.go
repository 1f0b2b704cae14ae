package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// downloadSite serves a page of things to download: a report served as an
// attachment, notes a script saves from a blob, a file over the size cap,
// one that takes seconds to arrive, and (/later) a page that downloads by
// itself a moment after it loads.
func downloadSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/report.csv":
			w.Header().Set("Content-Type", "text/csv")
			w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
			fmt.Fprint(w, "id,total\n1,42\n")
		case "/big.bin":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="big.bin"`)
			w.Header().Set("Content-Length", "300000")
			w.Write(make([]byte, 300000))
		case "/slow.bin":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="slow.bin"`)
			w.Header().Set("Content-Length", "4000")
			for i := 0; i < 4; i++ {
				w.Write(make([]byte, 1000))
				w.(http.Flusher).Flush()
				time.Sleep(1500 * time.Millisecond)
			}
		case "/other.csv":
			w.Header().Set("Content-Disposition", `attachment; filename="other.csv"`)
			fmt.Fprint(w, "not the bridge's\n")
		case "/later":
			fmt.Fprint(w, `<title>Later</title><p>downloads by itself</p><script>setTimeout(() => { location.href = "/other.csv"; }, 800)</script>`)
		default:
			fmt.Fprint(w, `<!doctype html><title>Downloads</title>
<p><a href="/report.csv">Get the report</a></p>
<p><button id="notes">Save notes</button></p>
<p><a href="/big.bin">Big file</a> <a href="/slow.bin">Slow file</a></p>
<script>
  document.getElementById("notes").addEventListener("click", () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob(["remember the milk\n"], { type: "text/plain" }));
    a.download = "notes.txt";
    document.body.append(a);
    a.click();
  });
</script>`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A click that starts a download says so in its result; the file is moved
// into the bridge's own folder (0700, the file 0600) and no longer where
// the browser saved it; the downloads action lists what the bridge's
// clicks downloaded, and nothing else.
func TestClickDownloadsIntoTheBridgesFolder(t *testing.T) {
	site := downloadSite(t)
	// A cap the big file is over.
	setDownloadCap(t, 100000)
	ws := "downloads"
	o := call(t, map[string]any{"action": "open", "url": site + "/", "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	tab := num(t, o, "tabId")
	folder := filepath.Join(bridge.Home, "cache", "downloads")

	// A link to a file served as an attachment.
	r := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Get the report"})
	d := oneDownload(t, r)
	if d["name"] != "report.csv" || d["state"] != "done" || d["savedBy"] != "bridge" || num(t, d, "bytes") != 14 ||
		num(t, d, "tabId") != tab || !strings.HasPrefix(fmt.Sprint(d["mime"]), "text/csv") {
		t.Errorf("the report: %v", d)
	}
	path := fmt.Sprint(d["path"])
	if filepath.Dir(path) != folder {
		t.Errorf("the report is at %s, not in the bridge's folder %s", path, folder)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "id,total\n1,42\n" {
		t.Errorf("the report's bytes: %q, %v", got, err)
	}
	private(t, folder, 0o700)
	private(t, path, 0o600)
	if _, err := os.Stat(filepath.Join(bridge.Home, "user", "Downloads", "report.csv")); err == nil {
		t.Errorf("the browser's copy is still in its download folder")
	}

	// A page that saves a blob itself (<a download>).
	r = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Save notes"})
	if d := oneDownload(t, r); d["name"] != "notes.txt" || d["savedBy"] != "bridge" || num(t, d, "bytes") != 18 {
		t.Errorf("the notes: %v", d)
	}

	// Over the cap: cancelled, or left where the browser saved it when it
	// was complete before the bridge could cancel it — never moved.
	r = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Big file"})
	if d := oneDownload(t, r); d["savedBy"] == "bridge" || !strings.Contains(fmt.Sprint(d["error"], d["note"]), "cap of 100000 bytes") {
		t.Errorf("a file over the cap: %v", d)
	}

	// Slow: in progress when the click returns; done and moved when
	// downloads is asked later.
	r = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Slow file"})
	if d := oneDownload(t, r); d["state"] != "in_progress" || d["name"] != "slow.bin" {
		t.Errorf("a slow file: %v", d)
	}

	// A page of the bridge's that downloads by itself, without an action
	// on its tab: not the bridge's to report or move.
	call(t, map[string]any{"action": "open", "url": site + "/later", "browserWorkspaceId": ws})
	deadline := time.Now().Add(15 * time.Second)
	var list []any
	for {
		res := call(t, map[string]any{"action": "downloads"})
		list, _ = res["downloads"].([]any)
		slow := map[string]any{}
		for _, e := range list {
			if m := e.(map[string]any); m["name"] == "slow.bin" {
				slow = m
			}
		}
		if slow["state"] == "done" {
			if slow["savedBy"] != "bridge" || num(t, slow, "bytes") != 4000 {
				t.Errorf("the slow file, done: %v", slow)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slow file never finished: %v", list)
		}
		time.Sleep(500 * time.Millisecond)
	}
	names := map[string]bool{}
	for _, e := range list {
		names[fmt.Sprint(e.(map[string]any)["name"])] = true
	}
	for _, want := range []string{"report.csv", "notes.txt", "slow.bin"} {
		if !names[want] {
			t.Errorf("downloads does not list %s: %v", want, list)
		}
	}
	if names["other.csv"] {
		t.Errorf("downloads lists a download no action of the bridge started: %v", list)
	}
}

// setDownloadCap sets downloadMaxBytes in the settings for the test's
// life. The daemon reads its settings on use and gives the extension the
// cap within a fifth of a second of the change (watchPolicy); the wait
// below covers that.
func setDownloadCap(t *testing.T, n int) {
	t.Helper()
	settingsFile := filepath.Join(bridge.Home, "settings.json")
	old, _ := os.ReadFile(settingsFile)
	var s map[string]any
	if json.Unmarshal(old, &s) != nil || s == nil {
		s = map[string]any{}
	}
	s["downloadMaxBytes"] = n
	b, _ := json.Marshal(s)
	if err := os.WriteFile(settingsFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if old == nil {
			os.Remove(settingsFile)
		} else {
			os.WriteFile(settingsFile, old, 0o600)
		}
	})
	time.Sleep(500 * time.Millisecond)
}

func oneDownload(t *testing.T, r map[string]any) map[string]any {
	t.Helper()
	list, _ := r["downloads"].([]any)
	if len(list) != 1 {
		t.Fatalf("the click's result lists %d downloads, want 1: %v", len(list), r)
	}
	return list[0].(map[string]any)
}

func private(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	if fi.Mode().Perm() != want {
		t.Errorf("%s has mode %o, want %o", path, fi.Mode().Perm(), want)
	}
}

// The cap holds for a download nobody is waiting on: a
// server stalls past the click's wait, then sends more than the cap. The
// extension watches the bridge's downloads to their end and stops each
// at the cap — one still arriving is cancelled, one that arrived whole
// before it could be is removed — so neither stays in the browser's
// download folder, and downloads reports both as failed at the cap.
func TestDownloadOverTheCapWithNobodyWaiting(t *testing.T) {
	const capBytes = 200000
	// The bytes come once both clicks have returned: no action waits.
	release := make(chan struct{})
	site, sent := browsertest.StallingFiles(t, release, 2<<20)
	setDownloadCap(t, capBytes)
	ws := "downloads-stalled"
	o := call(t, map[string]any{"action": "open", "url": site + "/", "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	tab := num(t, o, "tabId")
	for _, name := range []string{"Trickle", "Burst"} {
		r := call(t, map[string]any{"action": "click", "tabId": tab, "text": name})
		if d := oneDownload(t, r); d["state"] != "in_progress" {
			t.Fatalf("%s: the click's download is not waiting for its bytes: %v", name, d)
		}
	}
	close(release)
	for _, path := range []string{"/trickle.bin", "/burst.bin"} {
		select {
		case n := <-sent[path]:
			if path == "/trickle.bin" && n >= 2<<20 {
				t.Errorf("%s: the browser took all %d bytes (the cap is %d)", path, n, capBytes)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the server never finished", path)
		}
	}
	// Nothing of either file stays in the browser's download folder.
	left := browsertest.LeftInDownloads(bridge.Home, "trickle", "burst")
	if len(left) > 0 {
		t.Errorf("past the cap, still in the browser's download folder: %v", left)
	}
	res := call(t, map[string]any{"action": "downloads"})
	list, _ := res["downloads"].([]any)
	seen := 0
	for _, e := range list {
		d := e.(map[string]any)
		if d["name"] != "trickle.bin" && d["name"] != "burst.bin" {
			continue
		}
		seen++
		if d["state"] != "failed" || d["savedBy"] == "bridge" || !strings.Contains(fmt.Sprint(d["error"]), fmt.Sprintf("cap of %d bytes", capBytes)) {
			t.Errorf("%s past the cap: %v", d["name"], d)
		}
	}
	if seen != 2 {
		t.Errorf("downloads lists %d of the 2 files: %v", seen, list)
	}
}
