package actions

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("inspect", inspect) }

var inspectScript = script("inspect", "page/inspect.js")

// maxInspectPerFrame bounds the elements one frame reports.
const maxInspectPerFrame = 2000

// control is one interactive element as inspect reports it, compactly
// (about 100 characters): what tells it apart, a short selector when one
// finds it, and Rect as [x, y, width, height] in the top frame's viewport
// (CSS pixels). Refs of child frames name their frame (f3e12), so later
// actions need no separate frameId; FrameID is left out for the top
// frame.
type control = tool.Control

type inspectFrame struct {
	URL      string        `json:"url"`
	Title    string        `json:"title"`
	Elements []control     `json:"elements"`
	Total    int           `json:"total"`
	Frames   []childFrame  `json:"frames"`
	Viewport frameViewport `json:"viewport"`
}

// frameViewport is a frame's viewport in CSS pixels.
type frameViewport = tool.Viewport

// childFrame is a frame element as its parent document sees it.
type childFrame struct {
	FrameID int     `json:"frameId"` // -1: the browser would not say
	Src     string  `json:"src"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Visible bool    `json:"visible"`
}

// resolveFrameIDs names the frame of each child frame element whose ID the
// page could not give (Chrome offers content scripts no
// runtime.getFrameId): among the browser's frames with that parent, the
// one with the element's URL and content size, else its URL, else its
// size, else the first left in creation order.
func resolveFrameIDs(byParent map[int][]*childFrame, known []protocol.Frame, viewport map[int][2]float64) {
	used := map[int]bool{}
	for _, refs := range byParent {
		for _, c := range refs {
			if c.FrameID >= 0 {
				used[c.FrameID] = true
			}
		}
	}
	sort.Slice(known, func(i, j int) bool { return known[i].FrameID < known[j].FrameID })
	for parent, refs := range byParent {
		for _, c := range refs {
			if c.FrameID >= 0 {
				continue
			}
			best, score := -1, -1
			for _, k := range known {
				if k.ParentFrameID != parent || used[k.FrameID] {
					continue
				}
				s := 0
				if k.URL == c.Src {
					s += 2
				}
				if v, ok := viewport[k.FrameID]; ok && abs(v[0]-c.Width) <= 1 && abs(v[1]-c.Height) <= 1 {
					s++
				}
				if s > score {
					best, score = k.FrameID, s
				}
			}
			if best >= 0 {
				c.FrameID = best
				used[best] = true
			}
		}
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// inspect lists the interactive elements of every frame of the tab, cut
// to the maxChars budget with the same continuation as extract.
func inspect(r *run) (*tool.InspectResult, error) {
	maxChars, offset, err := r.in.Budget()
	if err != nil {
		return nil, err
	}
	tab, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	key := readKey{browser: r.browserInstance(), tabID: tab.TabID, kind: "inspect"}
	var warnings []string
	if offset > 0 {
		if v, ok := r.env.reads.get(key, tab.URL); ok {
			return shapeInspect(tab, v.([]control), offset, maxChars, nil), nil
		}
		warnings = append(warnings, "the earlier inspect of this tab has expired or the page has changed, so it was read again")
	}
	res, err := r.runPage(tab.TabID, frames{all: true}, inspectScript, maxArgs{Max: maxInspectPerFrame})
	if err != nil {
		return nil, err
	}
	res, dropped, err := r.dropRefusedFrames(tab.TabID, res)
	if err != nil {
		return nil, err
	}
	for id, why := range dropped {
		warnings = append(warnings, fmt.Sprintf("frame %d was left out: %s", id, why))
	}
	var frames []protocol.Frame
	if len(res) > 1 {
		if frames, err = r.tabFrames(tab.TabID); err != nil {
			warnings = append(warnings, fmt.Sprintf("the tab's frames could not be listed (%v): rects of elements in frames are relative to their frame", err))
		}
	}
	list, w := mergeInspect(res, frames)
	warnings = append(warnings, w...)
	r.env.reads.put(key, tab.URL, list)
	out := shapeInspect(tab, list, offset, maxChars, warnings)
	if offset == 0 {
		for _, fr := range res {
			var f inspectFrame
			if fr.FrameID == 0 && json.Unmarshal(fr.Value, &f) == nil && f.Viewport.Width > 0 {
				out.Viewport = &f.Viewport
			}
		}
	}
	return out, nil
}

// no is false, for the pointers of control's flags.
var no = false

// mergeInspect puts the frames' elements in one list, top frame first,
// with rects moved into the top frame's viewport through each frame's
// position in its parent.
func mergeInspect(res []protocol.PageFrameResult, known []protocol.Frame) ([]control, []string) {
	var warnings []string
	byID := map[int]*inspectFrame{}
	var ids []int
	for _, fr := range res {
		if fr.Error != "" {
			continue // a frame we may not script; extract's frames[] says why
		}
		var f inspectFrame
		if err := json.Unmarshal(fr.Value, &f); err != nil {
			continue
		}
		byID[fr.FrameID] = &f
		ids = append(ids, fr.FrameID)
	}
	sort.Ints(ids)
	byParent := map[int][]*childFrame{}
	viewport := map[int][2]float64{}
	for _, id := range ids {
		f := byID[id]
		viewport[id] = [2]float64{f.Viewport.Width, f.Viewport.Height}
		for i := range f.Frames {
			byParent[id] = append(byParent[id], &f.Frames[i])
		}
	}
	resolveFrameIDs(byParent, known, viewport)
	type pos struct {
		x, y    float64
		visible bool
	}
	offsets := map[int]pos{0: {0, 0, true}}
	// Parents come before children in frame ID order, except for frames
	// created late; a few passes settle any order.
	for pass := 0; pass < 4; pass++ {
		for _, id := range ids {
			p, ok := offsets[id]
			if !ok {
				continue
			}
			for _, c := range byID[id].Frames {
				if c.FrameID > 0 {
					offsets[c.FrameID] = pos{p.x + c.X, p.y + c.Y, p.visible && c.Visible}
				}
			}
		}
	}
	var out []control
	for _, id := range ids {
		f := byID[id]
		p, placed := offsets[id]
		if !placed && len(f.Elements) > 0 {
			warnings = append(warnings, fmt.Sprintf("frame %d could not be placed in the page: its rects are relative to its own viewport", id))
		}
		if f.Total > len(f.Elements) {
			warnings = append(warnings, fmt.Sprintf("frame %d has %d interactive elements; the first %d are listed", id, f.Total, len(f.Elements)))
		}
		for _, c := range f.Elements {
			c.FrameID = id
			c.Ref = tool.FrameRef(id, c.Ref)
			c.Rect[0] += p.x
			c.Rect[1] += p.y
			if placed && !p.visible {
				c.Visible = &no
			}
			out = append(out, c)
		}
	}
	return out, warnings
}

// shapeInspect cuts the list to the budget; an element is never split.
func shapeInspect(tab browser.TabInfo, list []control, offset, maxChars int, warnings []string) *tool.InspectResult {
	res := &tool.InspectResult{Page: pageOf(tab), Elements: []control{}, Count: len(list), Offset: offset, Outcome: tool.Outcome{Warnings: warnings}}
	meta, _ := json.Marshal(res)
	budget := max(maxChars-len(meta)-200, maxChars/2)
	at, used, next := 0, 0, 0
	for _, c := range list {
		b, _ := json.Marshal(c)
		cost := len(b) + 1
		if at+cost > offset && next == 0 {
			if used+cost > budget && used > 0 {
				next = max(at, offset)
			} else {
				res.Elements = append(res.Elements, c)
				used += cost
			}
		}
		at += cost
	}
	res.TotalChars = at
	if next > 0 {
		res.NextOffset = &next
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d of %d elements listed; call inspect with tabId %d and offset %d for the rest", len(res.Elements), len(list), tab.TabID, next))
	}
	return res
}
