package e2e

import (
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestUploadSetsFilesWithoutTheirContent(t *testing.T) {
	tab := openApp(t)
	dir := t.TempDir()
	a := filepath.Join(dir, "report.txt")
	b := filepath.Join(dir, "photo.bin")
	os.WriteFile(a, []byte("hello world"), 0o644)
	os.WriteFile(b, make([]byte, 3000), 0o644)
	r := call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#file", "paths": []string{a, b}})
	if fmt.Sprint(r["files"]) != "[map[name:report.txt size:11] map[name:photo.bin size:3000]]" {
		t.Fatalf("upload result: %v", r)
	}
	waitText(t, tab, "#file-out", "report.txt:11,photo.bin:3000")
}

func TestUploadRefusesBadPathsBeforeChrome(t *testing.T) {
	tab := openApp(t)
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ssh := filepath.Join(dir, ".ssh")
	os.MkdirAll(ssh, 0o700)
	key := filepath.Join(ssh, "config")
	os.WriteFile(key, []byte("x"), 0o600)
	plain := filepath.Join(dir, "plain.txt")
	os.WriteFile(plain, []byte("x"), 0o644)
	link := filepath.Join(dir, "link.txt")
	os.Symlink(plain, link)
	many := make([]string, 21)
	for i := range many {
		many[i] = plain
	}
	for _, c := range []struct {
		paths []string
		rule  string
	}{
		{[]string{key}, "names secrets"},
		{[]string{link}, "symlink"},
		// The CLI resolves a relative path against its working directory;
		// the refusal then names the absolute form. (Over MCP
		// a relative path is refused: pathcheck's rule "absolute".)
		{[]string{"relative.txt"}, filepath.Join(cwd, "relative.txt")},
		{[]string{dir}, "folder"},
		{many, "at most 20"},
	} {
		r := bridge.Call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#file", "paths": c.paths})
		if r.Err == nil || r.Err.Code != protocol.CodeUploadPathRejected || !strings.Contains(r.Err.Message, c.rule) {
			t.Errorf("%v: %s", c.paths, r.Stdout)
		}
	}
	// The check runs before anything else: even a tab that does not exist
	// gets the path refusal, not tab_not_found.
	r := bridge.Call(t, map[string]any{"action": "upload", "tabId": 2147480000, "selector": "#file", "paths": []string{key}})
	if r.Err == nil || r.Err.Code != protocol.CodeUploadPathRejected {
		t.Fatalf("path check did not come first: %s", r.Stdout)
	}
	if got := probeText(t, tab, 0, "#file-out"); got != "" {
		t.Fatalf("the page saw files: %q", got)
	}
}

// tallPage serves a page of the given height in CSS pixels.
func tallPage(t *testing.T, height int) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<title>Tall</title><body style="margin:0"><div style="height:%dpx;background:linear-gradient(red,blue)">top</div></body>`, height)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func decodeShot(t *testing.T, res map[string]any) (w, h int) {
	t.Helper()
	p, _ := res["path"].(string)
	if !strings.HasPrefix(p, paths.ForHome(bridge.Home).Screenshots()) {
		t.Fatalf("screenshot %q is outside the screenshots folder", p)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Size() != int64(res["bytes"].(float64)) {
		t.Fatalf("screenshot file mode %v size %d, result %v", fi.Mode().Perm(), fi.Size(), res)
	}
	f, _ := os.Open(p)
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil {
		t.Fatalf("not a JPEG: %v", err)
	}
	w, h = img.Bounds().Dx(), img.Bounds().Dy()
	if w != num(t, res, "width") || h != num(t, res, "height") {
		t.Fatalf("image is %dx%d, result says %v", w, h, res)
	}
	return w, h
}

func TestScreenshotModes(t *testing.T) {
	ws := "shots"
	o := call(t, map[string]any{"action": "open", "url": tallPage(t, 3000), "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	tab := num(t, o, "tabId")
	_, h := decodeShot(t, call(t, map[string]any{"action": "screenshot", "tabId": tab}))
	if h != 3000 {
		t.Fatalf("full page height %d, want 3000", h)
	}
	_, vh := decodeShot(t, call(t, map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"}))
	if vh >= 1000 || vh < 300 {
		t.Fatalf("viewport height %d", vh)
	}
	cw, ch := decodeShot(t, call(t, map[string]any{"action": "screenshot", "tabId": tab, "clip": map[string]any{"x": 10, "y": 2000, "width": 200, "height": 100}}))
	if cw != 200 || ch != 100 {
		t.Fatalf("clip is %dx%d, want 200x100", cw, ch)
	}
}

func TestScreenshotOfAVeryTallPageIsTiled(t *testing.T) {
	ws := "tall"
	o := call(t, map[string]any{"action": "open", "url": tallPage(t, 30000), "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	_, h := decodeShot(t, call(t, map[string]any{"action": "screenshot", "tabId": num(t, o, "tabId")}))
	if h != 30000 {
		t.Fatalf("height %d, want 30000", h)
	}
}

func TestScreenshotOfAProtectedPageIsRefused(t *testing.T) {
	st := call(t, map[string]any{"action": "status"})
	var chromeTab int
	for _, w := range st["windows"].([]any) {
		for _, tab := range w.(map[string]any)["tabs"].([]any) {
			tm := tab.(map[string]any)
			if strings.HasPrefix(tm["url"].(string), "chrome://") {
				chromeTab = int(tm["tabId"].(float64))
			}
		}
	}
	if chromeTab == 0 {
		t.Fatalf("no chrome:// tab to test with: %v", st)
	}
	r := bridge.Call(t, map[string]any{"action": "screenshot", "tabId": chromeTab})
	if r.Err == nil || r.Err.Code != protocol.CodeFullPageUnavailable {
		t.Fatalf("screenshot of chrome://: %s", r.Stdout)
	}
	r = bridge.Call(t, map[string]any{"action": "click", "tabId": chromeTab, "text": "Chromium"})
	if r.Err == nil || r.Err.Code != protocol.CodeProtectedPage {
		t.Fatalf("click on chrome://: %s", r.Stdout)
	}
}

// A "Choose a file" button in front of a hidden input: the bridge clicks
// it, catches the file chooser it opens and sets the files on the input
// behind it. A button that opens no chooser gets a clear error.
func TestUploadThroughAFileChooserButton(t *testing.T) {
	tab := openApp(t)
	a := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(a, []byte("twelve bytes"), 0o644)
	r := uploadOne(t, tab, "text", "Choose a file", a, "notes.txt:12")
	if el := r["element"].(map[string]any); el["tag"] != "button" {
		t.Fatalf("element: %v", el)
	}
	waitText(t, tab, "#hidden-out", "notes.txt:12")

	res := bridge.Call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#no-chooser", "paths": []string{a}})
	if res.Err == nil || res.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(res.Err.Message, "opened no file chooser") {
		t.Fatalf("a button without a chooser: %s", res.Stdout)
	}
	// Two files for a single-file input are refused before the page
	// sees any.
	res = bridge.Call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#choose", "paths": []string{a, a}})
	if res.Err == nil || res.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(res.Err.Message, "takes one file") {
		t.Fatalf("two files for one: %s", res.Stdout)
	}
	// A folder picker is not for files.
	res = bridge.Call(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#folder", "paths": []string{a}})
	if res.Err == nil || res.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(res.Err.Message, "picks a folder") {
		t.Errorf("upload to a folder picker: %s", res.Stdout)
	}
	// Nothing is left busy: the next upload works the same.
	uploadOne(t, tab, "selector", "#choose", a, "notes.txt:12")

	// Elements whose click does something else are not clicked at all.
	for sel, why := range map[string]string{"#nav": "link", "#submit": "submits a form", "#name": "not an <input type=text>",
		"#save": "says it picks files", "#delete-file": "may delete", "#zone": "other controls inside"} {
		res := bridge.Call(t, map[string]any{"action": "upload", "tabId": tab, "selector": sel, "paths": []string{a}})
		if res.Err == nil || res.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(res.Err.Message, why) {
			t.Errorf("upload to %s: %s", sel, res.Stdout)
		}
	}
	if r := call(t, map[string]any{"action": "status"}); strings.Contains(fmt.Sprint(r), "Submitted") || strings.Contains(fmt.Sprint(r), "saved") || strings.Contains(fmt.Sprint(r), "deleted") {
		t.Error("the form was submitted, or Save or Delete was clicked")
	}

	// A widget that takes the files on change and empties its input: the
	// upload worked, and says what the page got.
	r = uploadOne(t, tab, "selector", "#clearing", a, "notes.txt:12")
	if !strings.Contains(fmt.Sprint(r["warnings"]), "emptied") {
		t.Errorf("no word of the emptied input: %v", r)
	}
	waitText(t, tab, "#clearing-out", "notes.txt")
}

// uploadOne uploads path to the element the locator finds and checks
// that the result reports it as want ("name:size").
func uploadOne(t *testing.T, tab int, by, locator, path, want string) map[string]any {
	t.Helper()
	r := call(t, map[string]any{"action": "upload", "tabId": tab, by: locator, "paths": []string{path}})
	files, _ := r["files"].([]any)
	if len(files) != 1 {
		t.Fatalf("upload result: %v", r)
	}
	f, _ := files[0].(map[string]any)
	if got := fmt.Sprintf("%v:%v", f["name"], f["size"]); got != want {
		t.Fatalf("uploaded %s, want %s", got, want)
	}
	return r
}

// The input sits in a cross-origin (out-of-process) frame, which the tab's
// own debugger session does not see: the bridge reaches it through the
// frame's child session.
func TestUploadIntoCrossOriginFrame(t *testing.T) {
	tab := openApp(t)
	a := filepath.Join(t.TempDir(), "framed.txt")
	os.WriteFile(a, []byte("abc"), 0o644)
	r := uploadOne(t, tab, "selector", "#framed-file", a, "framed.txt:3")
	el := r["element"].(map[string]any)
	if num(t, el, "frameId") == 0 {
		t.Fatalf("the input is in the top frame? %v", el)
	}
	waitTextIn(t, tab, num(t, el, "frameId"), "#framed-file-out", "framed.txt:3")

	// A button in that frame that opens a chooser: interception runs in
	// the frame's own session too, so no dialog shows and the files land.
	b := filepath.Join(t.TempDir(), "chosen.txt")
	os.WriteFile(b, []byte("abcd"), 0o644)
	r = uploadOne(t, tab, "text", "Choose in frame", b, "chosen.txt:4")
	if !strings.Contains(fmt.Sprint(r["warnings"]), "emptied") {
		t.Errorf("no word of the emptied input: %v", r)
	}
	waitTextIn(t, tab, num(t, r["element"].(map[string]any), "frameId"), "#framed-file-out", "chosen.txt:4")
}

// The rules of upload hold for reading pages too: a folder listing may
// lead by a click into a folder that names secrets, and no page action
// then reads or drives that tab; file: URLs on pseudo-filesystems are
// refused outright.
func TestFileURLRulesHoldAfterNavigation(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(dir, ".ssh", "id_rsa"), []byte("FAKE-PRIVATE-KEY"), 0o600)
	ws := "file-rules"
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	o := call(t, map[string]any{"action": "open", "url": "file://" + dir + "/", "browserWorkspaceId": ws})
	tab := num(t, o, "tabId")
	call(t, map[string]any{"action": "click", "tabId": tab, "text": ".ssh/"})
	for _, a := range []map[string]any{
		{"action": "extract", "tabId": tab},
		{"action": "inspect", "tabId": tab},
		{"action": "screenshot", "tabId": tab},
		{"action": "click", "tabId": tab, "text": "id_rsa"},
	} {
		r := bridge.Call(t, a)
		if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy || !strings.Contains(r.Err.Message, "names secrets") {
			t.Errorf("%v on %s: %s", a["action"], dir+"/.ssh/", r.Stdout)
		}
		if strings.Contains(string(r.Stdout), "FAKE-PRIVATE-KEY") {
			t.Fatalf("%v leaked the key", a["action"])
		}
	}
	// A file: page that frames the key, or redirects to it: the frame is
	// left out, the redirect refused.
	framing := filepath.Join(dir, "framing.html")
	os.WriteFile(framing, []byte(`<title>Framing</title><p>outer page</p><iframe src=".ssh/id_rsa"></iframe>`), 0o644)
	redirect := filepath.Join(dir, "redirect.html")
	os.WriteFile(redirect, []byte(`<meta http-equiv="refresh" content="0; url=.ssh/id_rsa"><title>Redirect</title>`), 0o644)
	for _, a := range []map[string]any{
		{"action": "extract", "url": "file://" + framing, "browserWorkspaceId": ws},
		{"action": "inspect", "tabId": tab},
	} {
		if a["action"] == "inspect" {
			bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": "file://" + framing})
		}
		r := bridge.Call(t, a)
		if r.Err != nil || strings.Contains(string(r.Stdout), "FAKE-PRIVATE-KEY") || !strings.Contains(string(r.Stdout), "may not read") {
			t.Errorf("%v of a page framing the key: %s", a["action"], r.Stdout)
		}
	}
	// A screenshot of the framing page would show the key: refused.
	if r := bridge.Call(t, map[string]any{"action": "screenshot", "tabId": tab}); r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy {
		t.Errorf("screenshot of a page framing the key: %s", r.Stdout)
	}
	r := bridge.Call(t, map[string]any{"action": "extract", "url": "file://" + redirect, "browserWorkspaceId": ws, "timeoutMs": 20000})
	if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy || strings.Contains(string(r.Stdout), "FAKE-PRIVATE-KEY") {
		t.Errorf("extract of a page that redirects to the key: %s", r.Stdout)
	}

	r = bridge.Call(t, map[string]any{"action": "open", "url": "file:///proc/self/status", "browserWorkspaceId": ws})
	if r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Err.Message, "pseudo-filesystem") {
		t.Errorf("open of a /proc file: %s", r.Stdout)
	}
}
