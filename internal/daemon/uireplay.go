package daemon

import (
	"encoding/base64"
	"encoding/json"
	"errors"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/replay"
)

// stripWidth is the width of a thumbnail on the workspace page's strip,
// in px: a few KB each, so a page of them fits a native-messaging frame.
const stripWidth = 160

// uiReplay answers the workspace page (extension/ui/workspace.js): the
// timeline of the bridge's workspace whose window the page is in, from
// reg, the registry of the asking browser, so it is only ever one of the
// bridge's own workspaces. The pictures are the ones kept, which were
// never taken of a denied page.
func (r *recorder) uiReplay(reg *registry.Registry, frame []byte) (protocol.UIReplay, error) {
	var req protocol.UIReplayAsk
	if err := json.Unmarshal(frame, &req); err != nil {
		return protocol.UIReplay{}, protocol.Errorf(protocol.CodeInvalidArgument, "ui.replay takes {windowId, from, before} or {windowId, seq}: %v", err)
	}
	out := protocol.UIReplay{Steps: []protocol.UIReplayStep{}}
	for _, w := range reg.Workspaces() {
		if w.WindowID == req.WindowID && req.WindowID != 0 {
			out.Workspace = w.ID
		}
	}
	if out.Workspace == "" {
		return out, nil // not a workspace's window (or not yet): nothing to show
	}
	t, err := r.store.Read(out.Workspace)
	if errors.Is(err, replay.ErrNoTimeline) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	var picked []replay.Entry
	for _, e := range t.Entries {
		switch {
		case req.Seq != nil:
			if e.Seq == *req.Seq {
				picked = append(picked, e)
			}
		case e.Seq >= req.From && (req.Before <= 0 || e.Seq < req.Before):
			picked = append(picked, e)
		}
	}
	if len(picked) > protocol.UIReplaySteps {
		picked = picked[len(picked)-protocol.UIReplaySteps:]
	}
	if len(picked) > 0 && req.Seq == nil {
		out.More = t.Entries[0].Seq < picked[0].Seq
	}
	for _, e := range picked {
		s := protocol.UIReplayStep{Seq: e.Seq, Time: e.Time, Action: e.Action, Target: e.Target,
			Outcome: e.Outcome(), URL: e.URL, Title: e.Title}
		if img := r.store.Image(e); img != nil {
			if req.Seq != nil {
				s.Image = dataURL(img)
			} else {
				s.Thumb = dataURL(replay.Thumbnail(img, stripWidth))
			}
		}
		out.Steps = append(out.Steps, s)
	}
	return out, nil
}

// dataURL is a JPEG as a data: URL the page can show.
func dataURL(jpeg []byte) string {
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpeg)
}
