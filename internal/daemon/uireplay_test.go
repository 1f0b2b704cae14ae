package daemon

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/replay"
)

// The workspace page's timeline: only for a window of one of the bridge's
// workspaces (in the asking browser's registry, a real one in a temporary
// file); the newest steps, paged, with small thumbnails; one step alone
// with its picture. No browser: the answer is the daemon's alone.
func TestUIReplayPagesTheWorkspacesTimeline(t *testing.T) {
	dir := t.TempDir()
	set, err := registry.Open(filepath.Join(dir, "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	from := browser.Info{Instance: "chrome-1"}
	set.For(from.Instance).SetWorkspace(registry.Workspace{ID: "w", WindowID: 7, GroupID: 3})
	d := &Daemon{reg: set, replays: newRecorder(replay.NewIn(filepath.Join(dir, "replays")))}
	var shot bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 480, 340))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	jpeg.Encode(&shot, img, &jpeg.Options{Quality: 70})
	for i := 0; i < 25; i++ {
		d.replays.store.Append(replay.Entry{Workspace: "w", Action: fmt.Sprint("a", i)}, shot.Bytes())
	}
	d.replays.store.Append(replay.Entry{Workspace: "other", Action: "open"}, shot.Bytes())
	ask := func(req string) protocol.UIReplay {
		t.Helper()
		r, err := d.replays.uiReplay(set.For(from.Instance), []byte(req))
		if err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		return r
	}
	seqs := func(r protocol.UIReplay) string {
		var s []string
		for _, st := range r.Steps {
			s = append(s, fmt.Sprint(st.Seq))
		}
		return strings.Join(s, " ")
	}

	r := ask(`{"windowId":7}`)
	if r.Workspace != "w" || len(r.Steps) != protocol.UIReplaySteps || r.Steps[0].Seq != 5 || r.Steps[19].Seq != 24 || !r.More {
		t.Fatalf("first page: %s, %v, more %v", r.Workspace, seqs(r), r.More)
	}
	for _, st := range r.Steps {
		if !strings.HasPrefix(st.Thumb, "data:image/jpeg;base64,") || len(st.Thumb) > 20_000 || st.Image != "" {
			t.Fatalf("step %d: thumbnail of %d characters, picture %d", st.Seq, len(st.Thumb), len(st.Image))
		}
	}
	if b, _ := json.Marshal(r); len(b) > 512<<10 {
		t.Errorf("a page of steps is %d bytes: too close to the native link's 1 MiB", len(b))
	}
	if r := ask(`{"windowId":7,"before":5}`); seqs(r) != "0 1 2 3 4" || r.More {
		t.Errorf("older page: %s, more %v", seqs(r), r.More)
	}
	if r := ask(`{"windowId":7,"from":23}`); seqs(r) != "23 24" {
		t.Errorf("steps from 23: %s", seqs(r))
	}
	if r := ask(`{"windowId":7,"from":25}`); len(r.Steps) != 0 {
		t.Errorf("no new step, got %s", seqs(r))
	}
	r = ask(`{"windowId":7,"seq":0}`)
	if seqs(r) != "0" || r.Steps[0].Action != "a0" || r.Steps[0].Image != "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(shot.Bytes()) {
		t.Errorf("step 0 alone: %s, picture of %d characters", seqs(r), len(r.Steps[0].Image))
	}
	// Another window, another browser's window 7, bad input: nothing.
	for _, c := range []struct {
		from browser.Info
		req  string
	}{{from, `{"windowId":8}`}, {browser.Info{Instance: "edge-2"}, `{"windowId":7}`}, {from, `{}`}} {
		if r, err := d.replays.uiReplay(set.For(c.from.Instance), []byte(c.req)); err != nil || r.Workspace != "" || len(r.Steps) != 0 {
			t.Errorf("%s from %s: %+v, %v; want nothing", c.req, c.from.Instance, r, err)
		}
	}
	if _, err := d.replays.uiReplay(set.For(from.Instance), []byte(`{"windowId":"7"}`)); err == nil {
		t.Error("a malformed request was answered")
	}
}

// uiTestDaemon is a daemon whose registry has workspace "w" in window 7
// of browser chrome-1, with no step yet.
func uiTestDaemon(t *testing.T) (*Daemon, *registry.Registry) {
	t.Helper()
	dir := t.TempDir()
	set, err := registry.Open(filepath.Join(dir, "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	set.For("chrome-1").SetWorkspace(registry.Workspace{ID: "w", WindowID: 7, GroupID: 3})
	return &Daemon{reg: set, replays: newRecorder(replay.NewIn(filepath.Join(dir, "replays")))}, set.For("chrome-1")
}

// The paging contract the workspace page relies on (workspace.js): an
// answer holds the newest steps of the range asked for, and More says
// whether steps of that range older than its first were left out. The
// page appends an answer with More false (it continues from the last step
// shown) and replaces its strip with one with More true, "Older" then
// reaching the rest: no step is ever skipped, however many ran while the
// page was out of view.
func TestUIReplayPagingSkipsNoStep(t *testing.T) {
	d, reg := uiTestDaemon(t)
	add := func(n int) {
		for i := 0; i < n; i++ {
			if _, err := d.replays.store.Append(replay.Entry{Workspace: "w", Action: "click"}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	ask := func(req string) protocol.UIReplay {
		t.Helper()
		r, err := d.replays.uiReplay(reg, []byte(req))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// The page, as workspace.js does it.
	var strip []int
	olderShown := false
	refresh := func() {
		last := -1
		if len(strip) > 0 {
			last = strip[len(strip)-1]
		}
		r := ask(fmt.Sprintf(`{"windowId":7,"from":%d}`, last+1))
		var fresh []int
		for _, s := range r.Steps {
			if s.Seq > last {
				fresh = append(fresh, s.Seq)
			}
		}
		if len(fresh) == 0 {
			return
		}
		if len(strip) == 0 || r.More {
			strip, olderShown = fresh, r.More
		} else {
			strip = append(strip, fresh...)
		}
	}
	older := func() {
		first := strip[0]
		r := ask(fmt.Sprintf(`{"windowId":7,"before":%d}`, first))
		olderShown = r.More
		var earlier []int
		for _, s := range r.Steps {
			if s.Seq < first {
				earlier = append(earlier, s.Seq)
			}
		}
		strip = append(earlier, strip...)
	}
	contiguous := func(from, to int) bool {
		if len(strip) != to-from+1 {
			return false
		}
		for i, s := range strip {
			if s != from+i {
				return false
			}
		}
		return true
	}

	add(3)
	refresh()
	if !contiguous(0, 2) || olderShown {
		t.Fatalf("first look: %v, older %v", strip, olderShown)
	}
	add(2)
	if r := ask(`{"windowId":7,"from":3}`); r.More || len(r.Steps) != 2 {
		t.Errorf("an answer that continues from the last step shown says more: %+v", r)
	}
	refresh()
	if !contiguous(0, 4) || olderShown {
		t.Fatalf("after two steps: %v, older %v", strip, olderShown)
	}
	// 45 steps while the page is out of view: more than an answer holds.
	add(45)
	refresh()
	if !contiguous(30, 49) || !olderShown {
		t.Fatalf("after 45 steps out of view: %v, older %v; want the newest 20 and Older", strip, olderShown)
	}
	for i := 0; olderShown && i < 10; i++ {
		older()
	}
	if !contiguous(0, 49) || olderShown {
		t.Fatalf("after Older: %v, older %v; want every step", strip, olderShown)
	}
	add(1)
	refresh()
	if !contiguous(0, 50) {
		t.Fatalf("a new step after Older: %v", strip)
	}
}

// An answer of the strip stays well within the native link's 1 MiB
// however long its steps' texts (an index written before they were cut
// holds lines up to 64 KiB): past a byte budget it stops, keeping the
// newest, and says more remain.
func TestUIReplayKeepsToItsByteBudget(t *testing.T) {
	d, reg := uiTestDaemon(t)
	var index strings.Builder
	for i := 0; i < 25; i++ {
		line, _ := json.Marshal(replay.Entry{Seq: i, Workspace: "w", Action: "open",
			URL: "https://example.com/" + strings.Repeat("u", 30<<10), Title: strings.Repeat("t", 30<<10)})
		index.Write(append(line, '\n'))
	}
	dir := filepath.Join(d.replays.store.Dir, hex.EncodeToString([]byte("w")))
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(filepath.Join(dir, "index.jsonl"), []byte(index.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, req := range []string{`{"windowId":7}`, `{"windowId":7,"from":3}`, `{"windowId":7,"before":25}`} {
		r, err := d.replays.uiReplay(reg, []byte(req))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		if len(b) > uiReplayBudget+100<<10 {
			t.Errorf("%s: an answer of %d bytes, over the budget of %d", req, len(b), uiReplayBudget)
		}
		if len(r.Steps) == 0 || r.Steps[len(r.Steps)-1].Seq != 24 || !r.More {
			t.Errorf("%s: %d steps, more %v; want the newest, and more", req, len(r.Steps), r.More)
		}
		for i := 1; i < len(r.Steps); i++ {
			if r.Steps[i].Seq != r.Steps[i-1].Seq+1 {
				t.Errorf("%s: steps not in order: %d then %d", req, r.Steps[i-1].Seq, r.Steps[i].Seq)
			}
		}
	}
}
