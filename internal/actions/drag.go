package actions

import (
	"context"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"math"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func init() { register("drag", drag) }

// dragSteps is how many moves a drag makes on its way: pages that sort on
// pointer events follow the pointer, and native drag and drop sends
// dragover as the pointer goes.
const dragSteps = 12

// drag presses the mouse on from's element (once a press would reach it),
// moves it in steps onto to's element or point and releases it there,
// with trusted CDP mouse events: native HTML5 drag and drop (Chromium
// turns these events into dragstart, dragover and drop; no drag
// interception is needed in Chromium 156, headless or not) and lists that
// sort on pointer or mouse events both work. The drop target is measured
// again once the drag has started, since the page may move it then.
func drag(r *run) (*tool.DragResult, error) {
	from, drop := r.in.From, r.in.To.Drop()
	switch {
	case from == nil:
		return nil, invalid("drag needs from: an object with one locator, such as {\"text\": \"Item 1\"}")
	case drop == nil && r.in.To.Edge() != "":
		return nil, invalid("to for drag is where to drop: an object with one locator or x and y, such as {\"text\": \"Done\"}; \"top\" and \"bottom\" are scroll's")
	case drop == nil:
		return nil, invalid("drag needs to: an object with one locator or x and y, such as {\"text\": \"Done\"}")
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	l := r.locator()
	if err := l.locateForInput(t, *from); err != nil {
		return nil, err
	}
	src, warnings := l.el, l.warnings
	dst, err := r.locator().findReady(t.TabID, *drop, func(Element) bool { return true })
	if err != nil {
		return nil, err
	}
	if dst.Matches > 1 && drop.Nth == nil {
		warnings = append(warnings, "to: "+matchesWarning(dst, *drop))
	}
	// The press, checked like a click's: the mouse is on the element and
	// nothing was slid under it.
	if src, err = r.locator().moveOnto(t.TabID, src, true, func(x, y float64) []protocol.CDPCommand {
		return []protocol.CDPCommand{cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mousePressed", X: x, Y: y, Button: "left", ClickCount: 1, Buttons: 1})}
	}); err != nil {
		return nil, err
	}
	w := src.waited.plus(dst.waited)
	x, y := src.X, src.Y
	// From here on the button is down: it is released whatever happens,
	// even when the call's time is up, or the page would go on dragging.
	released := false
	defer func() {
		if !released {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), 2*time.Second)
			defer cancel()
			r.b.CDPBatch(ctx, protocol.CDPBatchParams{TabID: t.TabID, Commands: []protocol.CDPCommand{
				cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mouseReleased", X: x, Y: y, Button: "left", ClickCount: 1})}})
		}
	}()
	// A first short move starts the drag (pages and Chromium wait for the
	// pointer to travel a few pixels), then a third of the way.
	var cmds []protocol.CDPCommand
	sx, sy := toward(x, y, dst.X, dst.Y, 6)
	cmds = append(cmds, dragMoves(x, y, pt{sx, sy}, 2)...)
	x, y = sx, sy
	thirdX, thirdY := x+(dst.X-x)/3, y+(dst.Y-y)/3
	cmds = append(cmds, dragMoves(x, y, pt{thirdX, thirdY}, dragSteps/3)...)
	if err := r.actor().cdpBatch(t.TabID, cmds...); err != nil {
		return nil, err
	}
	x, y = thirdX, thirdY
	if dst.localRef != "" {
		if again, err := r.locator().measure(t.TabID, dst); err == nil && again.blocked.kind != notVisible {
			dst = again
		}
	}
	// The rest of the way, a move on the target itself (native drag and
	// drop decides the drop effect on dragover), and the release.
	cmds = append(dragMoves(x, y, pt{dst.X, dst.Y}, dragSteps-dragSteps/3),
		cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mouseMoved", X: dst.X + 1, Y: dst.Y, Button: "left", Buttons: 1}),
		cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mouseMoved", X: dst.X, Y: dst.Y, Button: "left", Buttons: 1}),
		cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mouseReleased", X: dst.X, Y: dst.Y, Button: "left", ClickCount: 1}))
	released = true
	if err := r.actor().cdpBatch(t.TabID, cmds...); err != nil {
		return nil, err
	}
	res, err := r.observer().observe(t, nil, w, warnings...)
	if err != nil {
		return nil, err
	}
	return &tool.DragResult{ActResult: *res, From: resultElement(pointed(src, *from)), To: resultElement(pointed(dst, *drop))}, nil
}

type pt struct{ x, y float64 }

// toward is the point d pixels from (x, y) toward (tx, ty), or the target
// when it is nearer.
func toward(x, y, tx, ty, d float64) (float64, float64) {
	dist := math.Hypot(tx-x, ty-y)
	if dist <= d {
		return tx, ty
	}
	return x + (tx-x)*d/dist, y + (ty-y)*d/dist
}

// dragMoves are n moves with the left button held, evenly from (x, y) to
// p (the last one at p). Each names the button as well as buttons:
// Chromium starts a native drag only from moves that do.
func dragMoves(x, y float64, p pt, n int) []protocol.CDPCommand {
	n = max(n, 1)
	cmds := make([]protocol.CDPCommand, 0, n)
	for i := 1; i <= n; i++ {
		f := float64(i) / float64(n)
		cmds = append(cmds, cdpCmd("Input.dispatchMouseEvent", mouseEvent{Type: "mouseMoved", X: x + (p.x-x)*f, Y: y + (p.y-y)*f, Button: "left", Buttons: 1}))
	}
	return cmds
}
