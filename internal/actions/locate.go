package actions

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Element is what a locator found: the element as results name it
// (tool.Element), and what the engine keeps of it to act on it.
type Element struct {
	tool.Element
	X float64 // the point to act on, in top-level viewport coordinates
	Y float64

	localRef string // the frame's own ref ("e12")
	rank     int    // clickRank of a text match (page/locate.js)
	disabled bool   // a disabled control, or marked aria-disabled
	// blocked says why input would not reach the element now ("" when it
	// would), as measured with the point; see ready.
	blocked blocker
	// aim is the point measured and how to check it again just before
	// the press (nil: nothing was measured).
	aim *aim
	// loc is the locator that found it, to find it again when the page
	// replaces it while the input waits.
	loc *tool.Locator
	// waited is what the waits for it took: locating it, measuring it,
	// moving onto it (see actionable.go); observe reports it.
	waited inputWait
}

type pageMatch = tool.Match

type locateResult struct {
	Count      int         `json:"count"`
	Matches    []pageMatch `json:"matches"`
	Candidates []pageMatch `json:"candidates"`
	// Note is said when nothing matched (sensitive fields left out).
	Note string `json:"note"`
	// Point is the top frame's point of the match it would pick, measured
	// in the same round trip when asked.
	Point *pagePoint `json:"point"`
}

// pageCover is what page/locate.js found on top instead of an element.
type pageCover struct {
	Tag  string `json:"tag"`
	Text string `json:"text"`
	Name string `json:"name"`
}

// String names the cover for a person: `div#overlay "Loading…"`.
func (c *pageCover) String() string {
	if c == nil {
		return ""
	}
	s := c.Tag
	if t := firstNonEmpty(c.Text, c.Name); t != "" {
		s = strings.TrimSpace(fmt.Sprintf("%s %q", s, t))
	}
	return s
}

type pagePt struct{ X, Y float64 }

// pagePoint is what page/locate.js point() measures.
type pagePoint struct {
	Index      int        `json:"index"`
	X          float64    `json:"x"`
	Y          float64    `json:"y"`
	Points     []pagePt   `json:"points"`
	ObscuredBy *pageCover `json:"obscuredBy"`
	Through    bool       `json:"through"` // pointer events pass through it
	Visible    bool       `json:"visible"`
	Enabled    bool       `json:"enabled"`
	InViewport bool       `json:"inViewport"`
	Box        Rect       `json:"box"`
	At         float64    `json:"at"`
	Settled    bool       `json:"settled"`
	Element    pageMatch  `json:"element"`
}

var (
	locateScript  = script("locate", "page/locate.js")
	pointScript   = script("point", "page/locate.js")
	recheckScript = script("recheck", "page/locate.js")
	atPointScript = script("atPoint", "page/locate.js")
	hitsAtScript  = script("hitsAt", "page/locate.js")
)

// find looks once for the element of loc in the tab, searching every
// frame (or the one of frameId / of the ref). For click, hover and press
// (prefer), several text matches rank what can be clicked first. With
// scroll it also scrolls the element into view and measures where input
// would reach it (see measure).
func (r *locator) find(tabID int, loc tool.Locator, scroll bool) (Element, error) {
	if loc.X != nil {
		return r.locatePoint(tabID, loc)
	}
	args, where, err := r.locateArgs(loc, scroll)
	if err != nil {
		return Element{}, err
	}
	res, err := r.runPage(tabID, where, locateScript, args)
	if err != nil {
		return Element{}, err
	}
	// Flatten the frames' matches: the top frame first, then the others
	// in the order Chrome lists them.
	var all []Element
	var candidates, refused []string
	var note string
	total := 0
	var topPoint *pagePoint
	for _, fr := range res {
		if fr.Error != "" {
			if fr.Code == protocol.CodeInvalidArgument || (fr.Code == protocol.CodeBlockedByPolicy && where.frameID != nil) {
				return Element{}, protocol.Errorf(fr.Code, "%s", fr.Error)
			}
			if fr.Code == protocol.CodeBlockedByPolicy {
				refused = append(refused, fmt.Sprintf("frame %d was not searched (%s)", fr.FrameID, strings.TrimPrefix(fr.Error, "not read: ")))
			}
			continue // a frame we could not script (e.g. about:blank of an ad)
		}
		var lr locateResult
		if err := json.Unmarshal(fr.Value, &lr); err != nil {
			continue
		}
		total += max(lr.Count, len(lr.Matches))
		if lr.Note != "" {
			note = lr.Note
		}
		if fr.FrameID == 0 && lr.Point != nil && lr.Point.Index < len(lr.Matches) {
			p := *lr.Point
			p.Element.Ref = lr.Matches[p.Index].Ref
			topPoint = &p
		}
		for _, m := range lr.Matches {
			all = append(all, elementOf(m, fr.FrameID))
		}
		for _, c := range lr.Candidates {
			candidates = append(candidates, fmt.Sprintf("%s %q (ref %s)", firstNonEmpty(c.Role, c.Tag), firstNonEmpty(c.Name, c.Text), tool.FrameRef(fr.FrameID, c.Ref)))
		}
	}
	if len(all) == 0 {
		msg := fmt.Sprintf("no element matches %s", loc.Describe())
		if note != "" {
			msg += " (" + note + ")"
		}
		if len(candidates) > 0 {
			msg += "; closest: " + strings.Join(candidates[:min(3, len(candidates))], ", ")
		}
		if len(refused) > 0 {
			msg += "; " + strings.Join(refused, "; ")
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
		el = pick(all)
	}
	el.Matches = total
	if !scroll {
		return el, nil
	}
	if topPoint != nil && el.FrameID == 0 && el.localRef == topPoint.Element.Ref {
		return el.withPoint(*topPoint), nil
	}
	return r.measure(tabID, el)
}

// locateArgs is page/locate.js locate's arguments for loc, and the frames
// to run it in: every frame, or the one of frameId or of the ref.
func (r *locator) locateArgs(loc tool.Locator, scroll bool) (locateQuery, frames, error) {
	args := locateQuery{Selector: loc.Selector, Text: loc.Text, Role: loc.Role, Name: loc.Name,
		Label: loc.Label, Placeholder: loc.Placeholder, Exact: loc.Exact, Suggest: true,
		Point: scroll && loc.Nth == nil, Prefer: prefersClickable(r.action), Mark: r.mark.note()}
	where := frames{all: true}
	if loc.FrameID != nil {
		where = frames{frameID: loc.FrameID}
	}
	if loc.Ref != "" {
		fid, ref, err := tool.ParseRef(loc.Ref)
		if err != nil {
			return locateQuery{}, frames{}, err
		}
		if loc.FrameID != nil && fid == 0 {
			fid = *loc.FrameID
		}
		args.Ref = ref
		where = frames{frameID: &fid}
	}
	return args, where, nil
}

// element is the match as an Element of frame frameID.
func elementOf(m pageMatch, frameID int) Element {
	rect := m.Rect
	return Element{Element: tool.Element{FrameID: frameID, Ref: tool.FrameRef(frameID, m.Ref), Tag: m.Tag,
		Role: m.Role, Name: m.Name, Text: m.Text, Visible: m.Visible, Rect: &rect}, localRef: m.Ref, rank: m.Rank, disabled: !m.Enabled}
}

// prefersClickable: the text matches of action rank what can be clicked
// first (click, hover and press).
func prefersClickable(action string) bool {
	switch action {
	case "click", "hover", "press":
		return true
	}
	return false
}

// pick is the element an ambiguous locator means: the first visible one,
// of the highest rank (ranks are set for text matches of click, hover and
// press, zero otherwise); the first one when none is visible.
func pick(all []Element) Element {
	best := -1
	for i, e := range all {
		if e.Visible && (best < 0 || e.rank > all[best].rank) {
			best = i
		}
	}
	if best < 0 {
		return all[0]
	}
	return all[best]
}

// withPoint fills in what page/locate.js point() measured of the element
// in its own frame: the point in that frame's viewport, and whether input
// would reach the element now.
func (el Element) withPoint(p pagePoint) Element {
	el.X, el.Y = p.X, p.Y
	el.Visible = p.Element.Visible
	rect := p.Element.Rect
	el.Rect = &rect
	el.ObscuredBy = ""
	switch {
	case !p.Visible:
		el.blocked = blocker{kind: notVisible}
	case !p.InViewport:
		el.blocked = blocker{kind: clipped}
	case len(p.Points) == 0 && p.Through:
		el.blocked = blocker{kind: noPointer}
	case len(p.Points) == 0:
		el.blocked = blocker{kind: covered, by: p.ObscuredBy.String()}
		el.ObscuredBy = el.blocked.by
	case !p.Enabled:
		el.blocked = blocker{kind: disabled}
	default:
		el.blocked = blocker{}
	}
	box := p.Box
	el.aim = &aim{levels: []aimLevel{{frameID: el.FrameID, ref: el.localRef, x: p.X, y: p.Y}},
		box: &box, since: p.At, settled: p.Settled, points: p.Points}
	return el
}

// measure scrolls el into view and measures, once, where input would
// reach it (page/locate.js point): in its own frame, then, for an element
// in a child frame, through the frames above it to the top page's
// viewport (frameMap), where an <iframe> on the way may be covered too.
func (r *locator) measure(tabID int, el Element) (Element, error) {
	var p pagePoint
	fid := el.FrameID
	if err := r.runPageTop(tabID, &fid, pointScript, refArgs{Ref: el.localRef}, &p); err != nil {
		return Element{}, err
	}
	el = el.withPoint(p)
	if el.FrameID == 0 || el.blocked.kind == notVisible {
		return el, nil
	}
	chain, err := r.frameMap(tabID, el.FrameID, p.X, p.Y)
	if err != nil {
		return Element{}, err
	}
	pts := el.aim.points
	if len(pts) == 0 {
		pts = []pagePt{{el.aim.levels[0].x, el.aim.levels[0].y}}
	}
	if chain.cover != nil && el.blocked.kind == "" {
		el.blocked = blocker{kind: covered, by: chain.cover.String()}
		el.ObscuredBy = el.blocked.by
	}
	// The first of the element's points that no frame above covers: each
	// <iframe> on the way must be on top at its point in its parent.
	best, cover := r.uncovered(tabID, chain, pts)
	if best < 0 {
		best = 0
		if el.blocked.kind == "" && cover != nil {
			el.blocked = blocker{kind: covered, by: cover.String()}
			el.ObscuredBy = el.blocked.by
		}
	}
	local := aimLevel{frameID: el.FrameID, ref: el.localRef, x: pts[best].X, y: pts[best].Y}
	el.X, el.Y = chain.toTop.apply(local.x, local.y)
	el.aim.levels = chain.levels(el.X, el.Y, local)
	return el, nil
}

// uncovered returns the index of the first of pts (points of a child
// frame's viewport) where every <iframe> from the top page down to that
// frame is on top, asking the frames at once; -1 and what covers the first
// point when there is none. A frame that cannot be asked does not count
// against a point (the check before the press asks again).
func (r *locator) uncovered(tabID int, c frameChain, pts []pagePt) (int, *pageCover) {
	type hit struct {
		OK    bool       `json:"ok"`
		Cover *pageCover `json:"cover"`
	}
	answers := make([][]hit, len(c.links))
	var wg sync.WaitGroup
	for i, l := range c.links {
		// The points in the frame that holds this <iframe>.
		parentToTop := identity
		if i > 0 {
			parentToTop = c.links[i-1].childToTop
		}
		inv, ok := parentToTop.inverse()
		if !ok {
			continue
		}
		var at []xy
		for _, p := range pts {
			x, y := inv.apply(c.toTop.apply(p.X, p.Y))
			at = append(at, xy{X: x, Y: y})
		}
		fid := l.parent
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.runPageTop(tabID, &fid, hitsAtScript, hitsArgs{Ref: l.iframeRef, Points: at}, &answers[i])
		}()
	}
	wg.Wait()
	var first *pageCover
	for j := range pts {
		ok := true
		for _, a := range answers {
			if j < len(a) && !a[j].OK {
				ok = false
				if j == 0 && first == nil {
					first = a[j].Cover
				}
				break
			}
		}
		if ok {
			return j, nil
		}
	}
	return -1, first
}

// pointOf measures where input would reach el (see measure), waiting
// within the call's deadline until it would: visible, enabled, and on top
// at a point inside its own boxes. Type uses it for the click that focuses
// a field in a child frame.
func (r *locator) pointOf(tabID int, el Element) (Element, error) {
	w := newWaiter(r.reach, r.timeoutMs)
	for {
		p, err := r.measure(tabID, el)
		switch {
		case err == nil && p.blocked.kind == "":
			p.waited = el.waited.plus(w.took())
			return p, nil
		case err == nil:
			if !w.again(r.reach, p.blocked.String()) {
				return Element{}, p.blocked.fail(el, w)
			}
		case protocol.CodeOf(err) == protocol.CodeElementNotFound || !retryable(err):
			return Element{}, err
		default:
			if !w.again(r.reach, "the page was between two documents") {
				return Element{}, err
			}
		}
		if err := w.sleep(r.reach); err != nil {
			return Element{}, err
		}
	}
}

// frameChain maps a child frame's viewport to the top page's.
type frameChain struct {
	// toTop maps a point of the frame's viewport to the top page's.
	toTop mat3
	// links are the frames from the top down to the frame: each with the
	// <iframe> that shows the next one and the map of the next one's
	// viewport to the top page's.
	links []chainLink
	// cover is what covers an <iframe> on the way, if anything does.
	cover *pageCover
}

type chainLink struct {
	parent, child int // extension frame IDs
	iframeRef     string
	childToTop    mat3
}

// levels are the points to check before pressing, for the top-level
// point (x, y) of an element whose own frame's point is local: in each
// frame from the top down, the point in that frame and what must be on
// top there (the next <iframe>, then the element).
func (c frameChain) levels(x, y float64, local aimLevel) []aimLevel {
	out := make([]aimLevel, 0, len(c.links)+1)
	parentToTop := identity
	for _, l := range c.links {
		px, py := x, y
		if inv, ok := parentToTop.inverse(); ok {
			px, py = inv.apply(x, y)
		}
		out = append(out, aimLevel{frameID: l.parent, ref: l.iframeRef, x: px, y: py})
		parentToTop = l.childToTop
	}
	return append(out, local)
}

// frameMap finds, from frame frameID up to the top, each <iframe> in its
// parent (the handshake of page/locate.js), then from the top down asks
// the browser where each one's content box is (ownerMap). A level the
// browser cannot tell (an <iframe> inside an out-of-process frame, which
// the tab's debugger session does not look into) falls back to adding the
// <iframe>'s offset, which misses that level's transforms.
//
// x, y is the point in frame frameID that has to be visible: each parent
// scrolls its <iframe> so that the point shows.
func (r *locator) frameMap(tabID, frameID int, x, y float64) (frameChain, error) {
	frames, err := r.tabFrames(tabID)
	if err != nil {
		return frameChain{}, err
	}
	parent := map[int]int{}
	for _, f := range frames {
		parent[f.FrameID] = f.ParentFrameID
	}
	type up struct {
		child, parent int
		info          frameInfo
	}
	var ups []up // bottom-up
	for cur := frameID; cur != 0; {
		p, ok := parent[cur]
		if !ok || p < 0 {
			return frameChain{}, protocol.Errorf(protocol.CodeElementNotFound, "frame %d is gone from the page", cur)
		}
		info, err := r.iframeOf(tabID, cur, p, x, y)
		if err != nil {
			return frameChain{}, err
		}
		ups = append(ups, up{cur, p, info})
		x, y, cur = info.X, info.Y, p
	}
	var c frameChain
	m := identity // the current parent's viewport → the top's
	parentCDP, asked := "", false
	var tree cdpFrames
	for i := len(ups) - 1; i >= 0; i-- {
		u := ups[i]
		if u.info.Probe == nil && c.cover == nil {
			c.cover = u.info.Cover
			if c.cover == nil {
				c.cover = &pageCover{Tag: "iframe", Text: "outside the visible part of its page"}
			}
		}
		byHand := translate(u.info.Box.X+u.info.Content.Left, u.info.Box.Y+u.info.Content.Top).then(m)
		next, exact := byHand, false
		if u.info.Probe != nil {
			if !asked {
				asked = true
				if t, err := r.frameTree(tabID); err == nil {
					tree, parentCDP = t, t.top
				}
			}
			if parentCDP != "" {
				px, py := m.apply(u.info.Probe.X, u.info.Probe.Y)
				var child string
				if next, child, exact = r.ownerMap(tabID, px, py, u.info, parentCDP, tree); exact {
					parentCDP = child
				}
			}
		}
		if !exact {
			next, parentCDP = byHand, ""
		}
		c.links = append(c.links, chainLink{parent: u.parent, child: u.child, iframeRef: u.info.Ref, childToTop: next})
		m = next
	}
	c.toTop = m
	return c, nil
}

// iframeOf describes, in frame parentID, the <iframe> that shows frame
// childID: the child announces a one-time token to its parent, whose
// isolated world finds the element whose window sent it (page/locate.js).
func (r *locator) iframeOf(tabID, childID, parentID int, x, y float64) (frameInfo, error) {
	token := randomToken()
	// The parent must have its message listener before the child posts.
	if err := r.runPageTop(tabID, &parentID, script("ready", "page/locate.js"), nil, nil); err != nil {
		return frameInfo{}, err
	}
	if err := r.runPageTop(tabID, &childID, script("announce", "page/locate.js"), tokenArgs{Token: token}, nil); err != nil {
		return frameInfo{}, err
	}
	var info frameInfo
	err := r.runPageTop(tabID, &parentID, script("frameOffset", "page/locate.js"), tokenArgs{Token: token, X: &x, Y: &y}, &info)
	return info, err
}

// notIntoRefusedFrame refuses a point that lands on a frame (an
// <iframe>, <frame>, <embed> or <object> of the top page) while the tab
// frames a page the bridge may not touch (Env.SiteRules): the top page
// cannot tell which frame is behind which element, so a point on any
// frame of such a page is refused rather than risk input into the
// denied one. Locators that name an element find nothing in a refused
// frame; they still work.
func (r *locator) notIntoRefusedFrame(tabID int, at *pageCover) error {
	if at == nil {
		return nil
	}
	tag, _, _ := strings.Cut(at.Tag, "#")
	switch tag {
	case "iframe", "frame", "embed", "object":
	default:
		return nil
	}
	frames, err := r.tabFrames(tabID)
	if err != nil {
		return err
	}
	for _, f := range frames {
		if f.FrameID != 0 && r.frameRefused(f.URL) != "" {
			return protocol.Errorf(protocol.CodeBlockedByPolicy, "the point is on a frame (%s), and %s; aim at an element of the page with a locator instead", tag, strings.TrimPrefix(r.frameRefused(f.URL), "not read: "))
		}
	}
	return nil
}

// notFocusedInRefusedFrame refuses keys with no locator while the focus
// is inside a frame of another origin and the tab frames a page the
// bridge may not touch (Env.SiteRules): the keys would go wherever the
// focus is, and the top page cannot see which frame holds it.
func (r *locator) notFocusedInRefusedFrame(tabID int) error {
	frames, err := r.tabFrames(tabID)
	if err != nil {
		return err
	}
	refused := ""
	for _, f := range frames {
		if why := r.frameRefused(f.URL); f.FrameID != 0 && why != "" {
			refused = strings.TrimPrefix(why, "not read: ")
			break
		}
	}
	if refused == "" {
		return nil
	}
	var f pageFacts
	top := 0
	if err := r.runPageTop(tabID, &top, irreversibleScript, irreversibleArgs{How: "enter"}, &f); err != nil {
		return err
	}
	if f.Opaque {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "the focus is inside a frame (%s), and %s; give press a locator of the page's own element to focus first", f.Tag, refused)
	}
	return nil
}

// tabFrames lists the frames of a tab (webNavigation.getAllFrames).
func (r reach) tabFrames(tabID int) ([]protocol.Frame, error) {
	return r.b.TabFrames(r.ctx, protocol.TabFramesParams{TabID: tabID})
}

// locatePoint handles an x, y locator. What is at the point is noted, so
// that the check before a press can tell when the page put something else
// there meanwhile.
func (r *locator) locatePoint(tabID int, loc tool.Locator) (Element, error) {
	x, y := *loc.X, *loc.Y
	if loc.Coordinates == "document" {
		var p struct{ X, Y float64 }
		if err := r.runPageTop(tabID, loc.FrameID, script("docPoint", "page/locate.js"), xy{X: x, Y: y}, &p); err != nil {
			return Element{}, err
		}
		x, y = p.X, p.Y
	}
	el := Element{Element: tool.Element{Visible: true, Matches: 1}, X: x, Y: y}
	var at *struct {
		Ref   string     `json:"ref"`
		Cover *pageCover `json:"cover"`
	}
	if err := r.runPageTop(tabID, nil, atPointScript, xy{X: x, Y: y}, &at); err == nil && at != nil {
		el.aim = &aim{levels: []aimLevel{{frameID: 0, ref: at.Ref, x: x, y: y}}}
		if err := r.notIntoRefusedFrame(tabID, at.Cover); err != nil {
			return Element{}, err
		}
	}
	return el, nil
}

// aim is where trusted input for an element goes, and what to check just
// before pressing there.
type aim struct {
	// levels are, from the top frame down to the element's, the point in
	// each frame's viewport and the ref of what must be on top there: the
	// <iframe> of the next level, then the element.
	levels []aimLevel
	// box is the element's box in its frame when measured, and since the
	// page's clock then (performance.now), to find the mouse moves that
	// came after; settled says nothing animated the element and the DOM
	// had been quiet, so the box measured again at once is enough.
	box     *Rect
	since   float64
	settled bool
	points  []pagePt // the element's points in its own frame, best first
}

type aimLevel struct {
	frameID int
	ref     string
	x, y    float64
}

// The check just before a press, made by
// cdp.batch between the mouse move and the press, in one round trip: at
// every level of the aim, the element must still be on top at its point
// and enabled, in the same place as when measured (and, on a page that was
// busy then, from one animation frame to the next), the mouse move must
// have landed on it, and every <iframe> above it must still be on top at
// its point — a page may slide something under the pointer on mousemove.
// With needHit false (hover) only stability counts: what the pointer
// opens may cover the element. ignoreMoved lets an element that never
// holds still be pressed while it is on top (see moveOnto).

// recheckFrames are the frames of the check and their arguments for
// page/locate.js recheck, one per level of the aim.
func (a *aim) recheckFrames(needHit, ignoreMoved bool) []protocol.BatchCheckFrame {
	out := make([]protocol.BatchCheckFrame, len(a.levels))
	for i, l := range a.levels {
		args := recheckArgs{Ref: l.ref, X: l.x, Y: l.y, NeedHit: needHit}
		if i == len(a.levels)-1 {
			args.Last, args.IgnoreMoved = true, ignoreMoved
			if a.box != nil {
				args.Box, args.Since, args.Settled = a.box, &a.since, a.settled
			}
		}
		out[i] = protocol.BatchCheckFrame{FrameID: l.frameID, Args: args}
	}
	return out
}

// recheckResult is what page/locate.js recheck says.
type recheckResult struct {
	OK      bool       `json:"ok"`
	Gone    bool       `json:"gone"`
	Enabled bool       `json:"enabled"`
	Hit     bool       `json:"hit"`
	Cover   *pageCover `json:"cover"`
	Moved   bool       `json:"moved"`
	Landed  *struct {
		OnIt  bool       `json:"onIt"`
		Cover *pageCover `json:"cover"`
	} `json:"landed"`
}

// blockerOf reads the answers of a failed check: why input would not
// reach the element, from the top frame down.
func blockerOf(res []protocol.PageFrameResult, needHit, ignoreMoved bool) blocker {
	for i, f := range res {
		if f.Error != "" {
			if f.Code == protocol.CodeElementNotFound {
				return blocker{kind: gone}
			}
			return blocker{kind: changing}
		}
		var c recheckResult
		if json.Unmarshal(f.Value, &c) != nil {
			return blocker{kind: changing}
		}
		last := i == len(res)-1
		switch {
		case c.OK:
			continue
		case c.Gone:
			return blocker{kind: gone}
		case needHit && !c.Hit:
			return blocker{kind: covered, by: c.Cover.String()}
		case last && c.Moved && !ignoreMoved:
			return blocker{kind: moving}
		case last && needHit && !c.Enabled:
			return blocker{kind: disabled}
		case last && needHit && c.Landed != nil && !c.Landed.OnIt:
			return blocker{kind: covered, by: c.Landed.Cover.String()}
		}
		return blocker{kind: changing}
	}
	return blocker{kind: changing}
}

// sensitiveNote is what page/locate.js says when a selector's tests of the
// value attribute were kept off sensitive fields.
const sensitiveNote = "password, one-time-code and card fields never match a selector that tests their value"

// sensitiveNoteOf is sensitiveNote when err is a not-found that says it.
func sensitiveNoteOf(err error) string {
	if err != nil && strings.Contains(err.Error(), sensitiveNote) {
		return sensitiveNote
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
