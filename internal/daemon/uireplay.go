package daemon

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"

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
	// Only the steps from the one asked for on are read (the page asks
	// after every step for the few since the last it shows).
	from := req.From
	if req.Seq != nil {
		from = *req.Seq
	}
	t, err := r.store.ReadFrom(out.Workspace, from)
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
	if req.Seq != nil {
		for _, e := range picked {
			out.Steps = append(out.Steps, r.uiStep(e, true))
		}
		return out, nil
	}
	// The newest steps of the range, at most UIReplaySteps and about
	// uiReplayBudget bytes; More says that older steps of the range were
	// left out. The page appends an answer without More to its strip (it
	// continues from the last step shown) and replaces the strip with
	// one with More, whose "Older" reaches the rest: no step is skipped.
	size := 0
	for i := len(picked) - 1; i >= 0; i-- {
		if len(out.Steps) == protocol.UIReplaySteps {
			out.More = true
			break
		}
		s := r.uiStep(picked[i], false)
		b, _ := json.Marshal(s)
		if len(out.Steps) > 0 && size+len(b) > uiReplayBudget {
			out.More = true
			break
		}
		size += len(b)
		out.Steps = append(out.Steps, s)
	}
	slices.Reverse(out.Steps)
	return out, nil
}

// uiReplayBudget is about the most bytes of steps one answer holds: half
// the native link's 1 MiB. A step's texts are cut at replay.MaxField,
// so 20 steps with thumbnails fit; an index written before they were
// cut may hold steps of up to 64 KiB.
const uiReplayBudget = 512 << 10

// uiStep is e as the page shows it: with its picture (alone) or its
// thumbnail (in a page of steps), when one is kept.
func (r *recorder) uiStep(e replay.Entry, alone bool) protocol.UIReplayStep {
	s := protocol.UIReplayStep{Seq: e.Seq, Time: e.Time, Action: e.Action, Target: e.Target,
		Outcome: e.Outcome(), URL: e.URL, Title: e.Title}
	if img := r.store.Image(e); img != nil {
		if alone {
			s.Image = dataURL(img)
		} else {
			s.Thumb = dataURL(replay.Thumbnail(img, stripWidth))
		}
	}
	return s
}

// dataURL is a JPEG as a data: URL the page can show.
func dataURL(jpeg []byte) string {
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpeg)
}
