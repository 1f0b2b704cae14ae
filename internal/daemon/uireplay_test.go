package daemon

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
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
