package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// uploadPage shows what the page gets of its file input's files: name,
// size, content and lastModified, read when they are set (#out) and again
// on a click (#again), as a form read later would.
const uploadPage = `<title>Upload safety</title>
<p><input type="file" id="up" multiple> <span id="out"></span></p>
<p><button id="reread">Read again</button> <span id="again"></span></p>
<script>
async function show(id) {
  const parts = [];
  for (const f of document.getElementById("up").files) {
    try { parts.push(f.name + ":" + f.size + ":" + (await f.text()) + ":" + f.lastModified); }
    catch (e) { parts.push(f.name + ":unreadable " + e.name); }
  }
  document.getElementById(id).textContent = parts.join(",") || "none";
}
document.getElementById("up").addEventListener("change", () => show("out"));
document.getElementById("reread").addEventListener("click", () => show("again"));
</script>`

// openUploadPage opens uploadPage in a workspace of the test's own.
func openUploadPage(t *testing.T) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, uploadPage)
	}))
	t.Cleanup(srv.Close)
	ws := "upload-safety-" + t.Name()
	o := call(t, map[string]any{"action": "open", "url": srv.URL, "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, o, "tabId")
}

// stagedUploads lists the upload folders in the bridge's staging folder.
func stagedUploads(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(pathcheck.StagingFolder(paths.ForHome(bridge.Home)))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// The page gets the file's own name, bytes and modification time, from a
// private copy: swapping the original for a symlink to a key afterwards
// changes nothing the page reads, even when it reads the file again later.
func TestUploadSafetyPageReadsTheCheckedBytes(t *testing.T) {
	tab := openUploadPage(t)
	dir := t.TempDir()
	key := filepath.Join(dir, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("FAKE-PRIVATE-KEY"), 0o600)
	p := filepath.Join(dir, "Quarterly report.txt")
	os.WriteFile(p, []byte("the real report"), 0o644)
	mtime := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	os.Chtimes(p, mtime, mtime)

	r := call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#up", "paths": []string{p}})
	if fmt.Sprint(r["files"]) != "[map[name:Quarterly report.txt size:15]]" {
		t.Fatalf("upload result: %v", r)
	}
	want := fmt.Sprintf("Quarterly report.txt:15:the real report:%d", mtime.UnixMilli())
	waitText(t, tab, "#out", want)

	// The copy Chrome was given: private, in the staging folder.
	staging := pathcheck.StagingFolder(paths.ForHome(bridge.Home))
	copies, _ := filepath.Glob(filepath.Join(staging, "*", "*", "Quarterly report.txt"))
	if len(copies) == 0 {
		t.Fatalf("no staged copy in %s", staging)
	}
	for _, c := range copies {
		fi, _ := os.Stat(c)
		di, _ := os.Stat(filepath.Dir(c))
		if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Errorf("staged %s mode %v in a folder of mode %v", c, fi.Mode().Perm(), di.Mode().Perm())
		}
	}

	os.Remove(p)
	if err := os.Symlink(key, p); err != nil {
		t.Fatal(err)
	}
	call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#reread"})
	waitText(t, tab, "#again", want)
	if got := probeText(t, tab, 0, "#again"); strings.Contains(got, "FAKE-PRIVATE-KEY") {
		t.Fatalf("the page read the key: %q", got)
	}
}

// Links, secrets and files others could have put there are refused before
// anything reaches Chrome: the page sees no file, nothing is staged.
func TestUploadSafetyRefusesLinksAndPrivateFiles(t *testing.T) {
	tab := openUploadPage(t)
	dir := t.TempDir()
	put := func(rel, content string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	key := put(".ssh/id_rsa", "FAKE-PRIVATE-KEY")
	plain := put("plain.txt", "plain")
	symlink := filepath.Join(dir, "report.txt")
	os.Symlink(key, symlink)
	hardlink := filepath.Join(dir, "notes.txt")
	if err := os.Link(key, hardlink); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(dir, "shared")
	os.Mkdir(shared, 0o700)
	sharedFile := put("shared/f.txt", "x")
	os.Chmod(shared, 0o777)
	before := stagedUploads(t)

	for _, c := range []struct{ path, rule string }{
		{symlink, "symlink"},
		{hardlink, "hard links"},
		{put(".aws/credentials", "[default]"), "names secrets"},
		{put("Documents/id_ed25519", "KEY"), "names secrets"},
		{put("certs/server.key", "KEY"), "names secrets"},
		{put(".bash_history", "export TOKEN=x"), "names secrets"},
		{put(".config/chromium/Default/Login Data", "db"), "names secrets"},
		{filepath.Join(dir, ".netrc"), "names secrets"}, // missing: the same refusal
		{sharedFile, "writable by group and others"},
	} {
		r := bridge.Call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#up", "paths": []string{plain, c.path}})
		if r.Err == nil || r.Err.Code != protocol.CodeUploadPathRejected || !strings.Contains(r.Err.Message, c.rule) || !strings.Contains(r.Err.Message, c.path) {
			t.Errorf("%s: %s", c.path, r.Stdout)
		}
	}
	if got := probeText(t, tab, 0, "#out"); got != "" {
		t.Fatalf("the page saw files: %q", got)
	}
	if after := stagedUploads(t); len(after) > len(before) {
		t.Fatalf("refused uploads were staged: %v, before %v", after, before)
	}
}

// open and extract read file: URLs as Chrome does: the forms net/url reads
// differently (no slashes, backslashes, escaped dots) cannot reach a file
// the rules of upload refuse.
func TestUploadSafetyRulesHoldForOddFileURLs(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("FAKE-PRIVATE-KEY"), 0o600)
	os.MkdirAll(filepath.Join(dir, "docs"), 0o700)
	ws := "upload-safety-urls"
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	rel := strings.TrimPrefix(dir, "/")
	for _, c := range []struct{ url, rule string }{
		{"file:" + rel + "/.ssh/id_rsa", "names secrets"},
		{"file:" + dir + "/.ssh/id_rsa", "names secrets"},
		{"file://" + strings.ReplaceAll(dir, "/", `\`) + `\.ssh\id_rsa`, "names secrets"},
		{"file://" + dir + "/docs/%2e%2e/.ssh/id_rsa", "names secrets"},
		{"file://" + dir + "/%2essh/id_rsa", "names secrets"},
		{"file://" + dir + "/docs%2f..%2f.ssh%2fid_rsa", "escaped slash"},
		{"file:proc/self/environ", "pseudo-filesystem"},
		{`file:///proc\self\environ`, "pseudo-filesystem"},
	} {
		for _, action := range []string{"open", "extract"} {
			r := bridge.Call(t, map[string]any{"action": action, "url": c.url, "browserWorkspaceId": ws})
			if r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Err.Message, c.rule) {
				t.Errorf("%s %s: %s", action, c.url, r.Stdout)
			}
			if strings.Contains(string(r.Stdout), "FAKE-PRIVATE-KEY") {
				t.Fatalf("%s %s leaked the key", action, c.url)
			}
		}
	}
	st := call(t, map[string]any{"action": "status"})
	if s := fmt.Sprint(st); strings.Contains(s, "id_rsa") || strings.Contains(s, "environ") {
		t.Fatalf("a tab shows the refused file: %v", st)
	}
}
