package actions

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Element is what a locator found.
type Element struct {
	FrameID int     `json:"frameId"`
	Ref     string  `json:"ref,omitempty"`
	Tag     string  `json:"tag,omitempty"`
	Role    string  `json:"role,omitempty"`
	Name    string  `json:"name,omitempty"`
	Text    string  `json:"text,omitempty"`
	Visible bool    `json:"visible"`
	Matches int     `json:"matches,omitempty"` // how many elements matched
	Rect    *Rect   `json:"rect,omitempty"`
	X       float64 `json:"-"` // the point to act on, in top-level viewport coordinates
	Y       float64 `json:"-"`
	// ObscuredBy names what covers the point, when something does.
	ObscuredBy string `json:"obscuredBy,omitempty"`

	localRef string // the frame's own ref ("e12")
}

// Rect is a box in CSS pixels.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

type pageMatch struct {
	Ref     string `json:"ref"`
	Tag     string `json:"tag"`
	Role    string `json:"role"`
	Name    string `json:"name"`
	Text    string `json:"text"`
	Visible bool   `json:"visible"`
	Rect    Rect   `json:"rect"`
}

type locateResult struct {
	Count      int         `json:"count"`
	Matches    []pageMatch `json:"matches"`
	Candidates []pageMatch `json:"candidates"`
	// Point is the top frame's point of its first visible match, measured
	// in the same round trip when asked.
	Point *pagePoint `json:"point"`
}

// pagePoint is what page/locate.js point() measures.
type pagePoint struct {
	Index      int     `json:"index"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	ObscuredBy *struct {
		Tag  string `json:"tag"`
		Text string `json:"text"`
	} `json:"obscuredBy"`
	Element pageMatch `json:"element"`
}

var locateScript = script("locate", "page/locate.js")

// find finds the element of loc in the tab, searching every frame
// (or the one of frameId / of the ref). With scroll it also scrolls the
// element into view and computes the point to act on in top-level
// viewport coordinates, translating through frame offsets.
func (r *run) find(tabID int, loc tool.Locator, scroll bool) (Element, error) {
	if loc.X != nil {
		return r.locatePoint(tabID, loc)
	}
	args := map[string]any{"selector": loc.Selector, "text": loc.Text, "role": loc.Role, "name": loc.Name,
		"label": loc.Label, "placeholder": loc.Placeholder, "exact": loc.Exact, "suggest": true,
		"point": scroll && loc.Nth == nil}
	where := frames{all: true}
	if loc.FrameID != nil {
		where = frames{frameID: loc.FrameID}
	}
	if loc.Ref != "" {
		fid, ref, err := tool.ParseRef(loc.Ref)
		if err != nil {
			return Element{}, err
		}
		if loc.FrameID != nil && fid == 0 {
			fid = *loc.FrameID
		}
		args["ref"] = ref
		where = frames{frameID: &fid}
	}
	res, err := r.runPage(tabID, where, locateScript, args)
	if err != nil {
		return Element{}, err
	}
	// Flatten the frames' matches: the top frame first, then the others
	// in the order Chrome lists them.
	var all []Element
	var candidates []string
	total := 0
	var topPoint *pagePoint
	for _, fr := range res {
		if fr.Error != "" {
			if fr.Code == protocol.CodeInvalidArgument {
				return Element{}, protocol.Errorf(fr.Code, "%s", fr.Error)
			}
			continue // a frame we could not script (e.g. about:blank of an ad)
		}
		var lr locateResult
		if err := json.Unmarshal(fr.Value, &lr); err != nil {
			continue
		}
		total += max(lr.Count, len(lr.Matches))
		if fr.FrameID == 0 && lr.Point != nil && lr.Point.Index < len(lr.Matches) {
			p := *lr.Point
			p.Element.Ref = lr.Matches[p.Index].Ref
			topPoint = &p
		}
		for _, m := range lr.Matches {
			rect := m.Rect
			all = append(all, Element{FrameID: fr.FrameID, Ref: tool.FrameRef(fr.FrameID, m.Ref), localRef: m.Ref, Tag: m.Tag,
				Role: m.Role, Name: m.Name, Text: m.Text, Visible: m.Visible, Rect: &rect})
		}
		for _, c := range lr.Candidates {
			candidates = append(candidates, fmt.Sprintf("%s %q (ref %s)", firstNonEmpty(c.Role, c.Tag), firstNonEmpty(c.Name, c.Text), tool.FrameRef(fr.FrameID, c.Ref)))
		}
	}
	if len(all) == 0 {
		msg := fmt.Sprintf("no element matches %s", loc.Describe())
		if len(candidates) > 0 {
			msg += "; closest: " + strings.Join(candidates[:min(3, len(candidates))], ", ")
		}
		return Element{}, protocol.Errorf(protocol.CodeElementNotFound, "%s. Check the page with inspect or extract, or wait for it", msg)
	}
	var el Element
	switch {
	case loc.Nth != nil:
		if *loc.Nth >= len(all) {
			if total > len(all) {
				return Element{}, protocol.Errorf(protocol.CodeElementNotFound, "nth %d is past the first %d of the %d elements that match %s; narrow the locator (a frameId or a more specific selector)", *loc.Nth, len(all), total, loc.Describe())
			}
			return Element{}, protocol.Errorf(protocol.CodeElementNotFound, "nth %d is out of range: %d elements match %s", *loc.Nth, len(all), loc.Describe())
		}
		el = all[*loc.Nth]
	default:
		el = all[0]
		for _, e := range all {
			if e.Visible {
				el = e
				break
			}
		}
	}
	el.Matches = total
	if !scroll {
		return el, nil
	}
	if topPoint != nil && el.FrameID == 0 && el.localRef == topPoint.Element.Ref {
		return el.withPoint(*topPoint), nil
	}
	return r.pointOf(tabID, el)
}

// withPoint fills in the point measured by page/locate.js.
func (el Element) withPoint(p pagePoint) Element {
	el.X, el.Y = p.X, p.Y
	if p.ObscuredBy != nil {
		el.ObscuredBy = strings.TrimSpace(p.ObscuredBy.Tag + " " + p.ObscuredBy.Text)
	}
	rect := p.Element.Rect
	el.Rect = &rect
	return el
}

// pointOf scrolls el into view and finds its point in top-level viewport
// coordinates.
func (r *run) pointOf(tabID int, el Element) (Element, error) {
	var p pagePoint
	fid := el.FrameID
	if err := r.runPageTop(tabID, &fid, script("point", "page/locate.js"), map[string]any{"ref": el.localRef}, &p); err != nil {
		return Element{}, err
	}
	if !p.Element.Visible {
		return Element{}, protocol.Errorf(protocol.CodeElementNotFound, "%s %q is not visible (hidden, zero-sized or covered by aria-hidden); wait for it or pick another element", el.Tag, firstNonEmpty(el.Name, el.Text))
	}
	el = el.withPoint(p)
	if el.FrameID == 0 {
		return el, nil
	}
	x, y, err := r.toTopLevel(tabID, el.FrameID, p.X, p.Y)
	if err != nil {
		return Element{}, err
	}
	el.X, el.Y = x, y
	return el, nil
}

// tabFrames lists the frames of a tab (webNavigation.getAllFrames).
func (r *run) tabFrames(tabID int) ([]protocol.Frame, error) {
	return r.b.TabFrames(r.ctx, protocol.TabFramesParams{TabID: tabID})
}

// toTopLevel translates a point in frame frameID's viewport to the top
// frame's viewport, one parent at a time (see the handshake in
// page/locate.js).
func (r *run) toTopLevel(tabID, frameID int, x, y float64) (float64, float64, error) {
	frames, err := r.tabFrames(tabID)
	if err != nil {
		return 0, 0, err
	}
	parent := map[int]int{}
	for _, f := range frames {
		parent[f.FrameID] = f.ParentFrameID
	}
	for cur := frameID; cur != 0; {
		p, ok := parent[cur]
		if !ok || p < 0 {
			return 0, 0, protocol.Errorf(protocol.CodeElementNotFound, "frame %d is gone from the page", cur)
		}
		token := randomToken()
		// The parent must have its message listener before the child posts.
		if err := r.runPageTop(tabID, &p, script("ready", "page/locate.js"), nil, nil); err != nil {
			return 0, 0, err
		}
		c := cur
		if err := r.runPageTop(tabID, &c, script("announce", "page/locate.js"), map[string]any{"token": token}, nil); err != nil {
			return 0, 0, err
		}
		var pt struct{ X, Y float64 }
		if err := r.runPageTop(tabID, &p, script("frameOffset", "page/locate.js"), map[string]any{"token": token, "x": x, "y": y}, &pt); err != nil {
			return 0, 0, err
		}
		x, y, cur = pt.X, pt.Y, p
	}
	return x, y, nil
}

// locatePoint handles an x, y locator.
func (r *run) locatePoint(tabID int, loc tool.Locator) (Element, error) {
	x, y := *loc.X, *loc.Y
	if loc.Coordinates == "document" {
		var p struct{ X, Y float64 }
		if err := r.runPageTop(tabID, loc.FrameID, script("docPoint", "page/locate.js"), map[string]any{"x": x, "y": y}, &p); err != nil {
			return Element{}, err
		}
		x, y = p.X, p.Y
	}
	return Element{X: x, Y: y, Visible: true, Matches: 1}, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
