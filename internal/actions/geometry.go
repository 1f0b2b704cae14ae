package actions

import (
	"encoding/json"
	"math"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Points inside frames, through the browser's own geometry. A child
// frame's viewport is the content box of its <iframe>, which CSS may
// move, scale and turn (in 3D, with perspective), itself and through its
// ancestors. The browser knows where that box ends up: DOM.getBoxModel
// gives its four corners in the top page's viewport, transforms included,
// and the map from the frame's viewport onto those corners is a
// homography (exact for 2D transforms and for a plane seen in
// perspective). The page scripts only find the <iframe> and a point where
// it is on top; nothing is added up by hand, except as a fallback when the
// browser cannot tell (see frameMap).

// mat3 is a 3×3 homography, row-major, acting on (x, y, 1).
type mat3 [9]float64

var identity = mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}

// apply maps a point.
func (m mat3) apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

// then is the map that applies m, then n.
func (m mat3) then(n mat3) mat3 {
	var o mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				o[3*i+j] += n[3*i+k] * m[3*k+j]
			}
		}
	}
	return o
}

// inverse is the map back, if there is one.
func (m mat3) inverse() (mat3, bool) {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	det := a*(e*i-f*h) - b*(d*i-f*g) + c*(d*h-e*g)
	if math.Abs(det) < 1e-12 || math.IsNaN(det) {
		return mat3{}, false
	}
	return mat3{
		(e*i - f*h) / det, (c*h - b*i) / det, (b*f - c*e) / det,
		(f*g - d*i) / det, (a*i - c*g) / det, (c*d - a*f) / det,
		(d*h - e*g) / det, (b*g - a*h) / det, (a*e - b*d) / det,
	}, true
}

func translate(dx, dy float64) mat3 { return mat3{1, 0, dx, 0, 1, dy, 0, 0, 1} }

// quadMap is the homography that takes the rectangle (0,0)–(w,h) onto
// quad, given as CDP gives it: x, y of the top-left, top-right,
// bottom-right and bottom-left corners (Heckbert's square-to-quad, scaled).
func quadMap(quad []float64, w, h float64) (mat3, bool) {
	if len(quad) != 8 || w <= 0 || h <= 0 {
		return mat3{}, false
	}
	x0, y0, x1, y1, x2, y2, x3, y3 := quad[0], quad[1], quad[2], quad[3], quad[4], quad[5], quad[6], quad[7]
	dx1, dx2, dx3 := x1-x2, x3-x2, x0-x1+x2-x3
	dy1, dy2, dy3 := y1-y2, y3-y2, y0-y1+y2-y3
	var g, hh float64
	if math.Abs(dx3) > 1e-9 || math.Abs(dy3) > 1e-9 {
		den := dx1*dy2 - dx2*dy1
		if math.Abs(den) < 1e-12 {
			return mat3{}, false
		}
		g = (dx3*dy2 - dx2*dy3) / den
		hh = (dx1*dy3 - dx3*dy1) / den
	}
	unit := mat3{
		x1 - x0 + g*x1, x3 - x0 + hh*x3, x0,
		y1 - y0 + g*y1, y3 - y0 + hh*y3, y0,
		g, hh, 1,
	}
	m := mat3{1 / w, 0, 0, 0, 1 / h, 0, 0, 0, 1}.then(unit)
	if _, ok := m.inverse(); !ok {
		return mat3{}, false // a frame turned edge-on: no point of it can be hit
	}
	return m, true
}

// frameInfo is what page/locate.js frameOffset says of the <iframe> of a
// child frame, in its parent's viewport.
type frameInfo struct {
	X, Y    float64 // the child's point, were nothing transformed
	Ref     string  `json:"ref"`
	Content struct {
		Left, Top, Width, Height float64
	} `json:"content"`
	Border struct {
		Width, Height float64
	} `json:"border"`
	Box   Rect                    `json:"box"`
	Probe *struct{ X, Y float64 } `json:"probe"`
	Cover *pageCover              `json:"cover"`
}

// boxModel is the part of CDP's DOM.getBoxModel result used here.
type boxModel struct {
	Model struct {
		Content []float64 `json:"content"`
		Width   float64   `json:"width"`
		Height  float64   `json:"height"`
	} `json:"model"`
}

// ownerMap asks the browser where the content box of the <iframe>
// described by info is, and returns the map from that frame's viewport to
// the top page's. probe is a top-level point where that <iframe> is on top
// in its parent: DOM.getNodeForLocation hit-tests it and gives the node
// there and its frame — the <iframe> itself when its content is out of
// process, else a node inside the content (or deeper, inside a frame of
// the content), whose frame, walked up the frame tree to the child of the
// <iframe>'s document, DOM.getFrameOwner turns into the <iframe>; then
// DOM.getBoxModel gives its corners. parentFrame is the CDP frame ID of
// the document that holds the <iframe>. It returns the CDP frame ID of the
// child when its content shares the top page's process ("" otherwise: the
// tab's session cannot look into it), for the next level down. ok is
// false when the browser's answer does not fit (a node of another
// document, an element of another size): the caller falls back.
func (r *locator) ownerMap(tabID int, probeX, probeY float64, info frameInfo, parentFrame string, tree cdpFrames) (m mat3, childFrame string, ok bool) {
	var hit struct {
		BackendNodeID int    `json:"backendNodeId"`
		FrameID       string `json:"frameId"`
	}
	if err := r.cdpCall(tabID, "DOM.getNodeForLocation", nodeForLocation{X: math.Round(probeX), Y: math.Round(probeY)}, &hit); err != nil || hit.BackendNodeID == 0 {
		return mat3{}, "", false
	}
	owner := hit.BackendNodeID
	if hit.FrameID != parentFrame {
		child := tree.childOf(parentFrame, hit.FrameID)
		if child == "" {
			return mat3{}, "", false
		}
		var o struct {
			BackendNodeID int `json:"backendNodeId"`
		}
		if err := r.cdpCall(tabID, "DOM.getFrameOwner", frameOwner{FrameID: child}, &o); err != nil || o.BackendNodeID == 0 {
			return mat3{}, "", false
		}
		owner, childFrame = o.BackendNodeID, child
	}
	var bm boxModel
	if err := r.cdpCall(tabID, "DOM.getBoxModel", boxModelOf{BackendNodeID: owner}, &bm); err != nil {
		return mat3{}, "", false
	}
	if math.Abs(bm.Model.Width-info.Border.Width) > 1 || math.Abs(bm.Model.Height-info.Border.Height) > 1 {
		return mat3{}, "", false
	}
	m, ok = quadMap(bm.Model.Content, info.Content.Width, info.Content.Height)
	return m, childFrame, ok
}

// cdpFrames is the tab's frame tree as CDP names the frames: the top
// frame's ID and each frame's parent.
type cdpFrames struct {
	top    string
	parent map[string]string
}

// childOf walks up from frame id to the frame whose parent is ancestor,
// or returns "" when id is not below ancestor.
func (f cdpFrames) childOf(ancestor, id string) string {
	for n := 0; id != "" && n < 64; n++ {
		p, ok := f.parent[id]
		if !ok {
			return ""
		}
		if p == ancestor {
			return id
		}
		id = p
	}
	return ""
}

// frameTree reads the tab's frame tree (Page.getFrameTree).
func (r *locator) frameTree(tabID int) (cdpFrames, error) {
	var res struct {
		FrameTree json.RawMessage `json:"frameTree"`
	}
	if err := r.cdpCall(tabID, "Page.getFrameTree", nil, &res); err != nil {
		return cdpFrames{}, err
	}
	f := cdpFrames{parent: map[string]string{}}
	var walk func(raw json.RawMessage, parent string, depth int)
	walk = func(raw json.RawMessage, parent string, depth int) {
		var n struct {
			Frame struct {
				ID string `json:"id"`
			} `json:"frame"`
			ChildFrames []json.RawMessage `json:"childFrames"`
		}
		if depth > 64 || json.Unmarshal(raw, &n) != nil {
			return
		}
		if parent == "" {
			f.top = n.Frame.ID
		} else {
			f.parent[n.Frame.ID] = parent
		}
		for _, c := range n.ChildFrames {
			walk(c, n.Frame.ID, depth+1)
		}
	}
	walk(res.FrameTree, "", 0)
	return f, nil
}

// cdpCall sends one CDP command to the tab and decodes its result.
func (r reach) cdpCall(tabID int, method string, params, out any) error {
	if params == nil {
		params = noArgs{}
	}
	res, err := r.b.CDPBatch(r.ctx, protocol.CDPBatchParams{TabID: tabID, Commands: []protocol.CDPCommand{cdpCmd(method, params)}})
	if err != nil {
		return err
	}
	if res.Dialog != nil {
		if err := r.answers().answerDialog(tabID, res.Dialog); err != nil {
			return err
		}
		return protocol.Errorf(protocol.CodeTimeout, "a dialog interrupted %s", method)
	}
	if len(res.Results) == 0 || out == nil {
		return nil
	}
	return json.Unmarshal(res.Results[0], out)
}
