package actions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Actionability: trusted input waits, within the call's
// deadline, until its target exists, is visible, enabled, on top at a
// point inside its own boxes, and stable — and is checked once more with
// the mouse already on it, just before the press (recheck). What it
// waited for and how long is in the result (waitedMs, waitedFor).

// actionWait bounds these waits when the call gives no timeoutMs: an
// element that has not appeared, or a cover that has not gone, after this
// long is reported rather than waited on for the whole 60 s deadline (a
// call that wants longer says so with timeoutMs).
const actionWait = 5 * time.Second

// actionReserve is left of the deadline to press and report.
const actionReserve = 500 * time.Millisecond

// blockKind says why input would not reach an element now.
type blockKind string

const (
	notVisible blockKind = "not visible"
	clipped    blockKind = "outside the visible part of the page"
	covered    blockKind = "covered"
	noPointer  blockKind = "letting pointer events through (pointer-events: none)"
	disabled   blockKind = "disabled"
	moving     blockKind = "moving"
	gone       blockKind = "gone from the page"
	changing   blockKind = "between two documents"
)

// blocker is why input would not reach an element ("" kind: it would).
type blocker struct {
	kind blockKind
	by   string // what covers it
}

func (b blocker) String() string {
	if b.kind == covered && b.by != "" {
		return "covered by " + b.by
	}
	return string(b.kind)
}

// fail is the error when el was still blocked at the end of w's wait;
// nothing was pressed.
func (b blocker) fail(el Element, w *waiter) error {
	what := describeEl(el)
	waited := w.said()
	switch b.kind {
	case covered:
		by := b.by
		if by == "" {
			by = "another element"
		}
		return protocol.Errorf(protocol.CodeElementObscured, "%s is covered by %s%s; nothing was pressed. Close or wait for what covers it (a dialog, banner or overlay), or scroll it away, then try again (or raise timeoutMs)", what, by, waited)
	case noPointer:
		return protocol.Errorf(protocol.CodeElementObscured, "%s takes no pointer events (pointer-events: none on it or around it), so a click would go to what is under it%s; nothing was pressed. Wait for the page to enable it, or use inputMode \"dom\" if a DOM click is what the page expects", what, waited)
	case clipped:
		return protocol.Errorf(protocol.CodeElementObscured, "%s is outside the visible part of the page (a container clips it and does not scroll to it)%s; nothing was pressed. Scroll its container, or pick another element", what, waited)
	case notVisible:
		return protocol.Errorf(protocol.CodeElementNotFound, "%s is not visible (hidden, zero-sized or covered by aria-hidden)%s; wait for it or pick another element", what, waited)
	case disabled:
		return protocol.Errorf(protocol.CodeTimeout, "%s is disabled%s; nothing was pressed. Do first what enables it (fill in the form), or raise timeoutMs", what, waited)
	case moving:
		return protocol.Errorf(protocol.CodeTimeout, "%s kept moving%s; nothing was pressed. Wait for the page to settle, or raise timeoutMs", what, waited)
	case gone:
		return protocol.Errorf(protocol.CodeElementNotFound, "%s is gone from the page (it was removed or replaced); locate it again", what)
	}
	return protocol.Errorf(protocol.CodeTimeout, "%s did not become ready for input (%s)%s; try again", what, b, waited)
}

// describeEl names an element in messages: `button "Pay now"`.
func describeEl(el Element) string {
	tag := firstNonEmpty(el.Role, el.Tag)
	if tag == "" {
		return fmt.Sprintf("the point (%.0f, %.0f)", el.X, el.Y)
	}
	if n := firstNonEmpty(el.Name, el.Text); n != "" {
		return fmt.Sprintf("%s %q", tag, n)
	}
	return tag
}

// waiter paces the looks of one actionability wait and keeps what it
// waited for.
type waiter struct {
	start, until time.Time
	looks        int
	reason       string
	reported     time.Time
}

// newWaiter starts a wait of a locate step that ends with the call's
// deadline (less actionReserve), or after actionWait when the input set
// no timeoutMs.
func newWaiter(r reach, timeoutMs int) *waiter {
	now := time.Now()
	until := r.until(actionReserve)
	if timeoutMs == 0 {
		until = minTime(until, now.Add(actionWait))
	}
	return &waiter{start: now, until: until, reported: now}
}

// again notes why the element is not ready yet and says whether there is
// time for another look.
func (w *waiter) again(r reach, why string) bool {
	if why != "" {
		w.reason = why
	}
	now := time.Now()
	if !now.Before(w.until) || r.ctx.Err() != nil {
		return false
	}
	if now.Sub(w.reported) >= time.Second {
		w.reported = now
		r.progress(fmt.Sprintf("waiting for the element (%s; %.0f s so far)", w.reason, now.Sub(w.start).Seconds()))
	}
	return true
}

// sleep waits before the next look: briefly at first (a panel that opens
// 300 ms after a click is found about when it shows), less often later.
func (w *waiter) sleep(r reach) error {
	w.looks++
	d := 30 * time.Millisecond
	switch {
	case w.looks > 40:
		d = 200 * time.Millisecond
	case w.looks > 10:
		d = 80 * time.Millisecond
	}
	return r.sleep(min(d, time.Until(w.until)))
}

// said is " (waited 1.5 s)" once the wait took a while, for messages.
func (w *waiter) said() string {
	if d := time.Since(w.start); d >= 100*time.Millisecond {
		return fmt.Sprintf(" (waited %.1f s)", d.Seconds())
	}
	return ""
}

// took is the wait, if there was one, as the result reports it.
func (w *waiter) took() inputWait {
	if w.looks == 0 {
		return inputWait{}
	}
	return inputWait{ms: time.Since(w.start).Milliseconds(), what: w.reason}
}

// inputWait is what the actionability waits that readied an element took
// (the element carries it: Element.waited), handed on to observe, which
// puts it in the result's Outcome: how long in all, what the first wait
// was for (waitedMs, waitedFor), and notes for its warnings.
type inputWait struct {
	ms    int64
	what  string
	notes []string
}

// plus is w, then o.
func (w inputWait) plus(o inputWait) inputWait {
	return inputWait{ms: w.ms + o.ms, what: cmp.Or(w.what, o.what), notes: append(slices.Clip(w.notes), o.notes...)}
}

// findReady finds loc's element and waits until trusted input would
// reach it: it exists and is visible and enabled and, when hit says so
// for the element found, on top at a point inside its own boxes. A
// locator that matches nothing is looked for again until the wait ends
// (a ref is not: an element gone stays gone).
func (r *locator) findReady(tabID int, loc tool.Locator, hit func(Element) bool) (Element, error) {
	w := newWaiter(r.reach, r.timeoutMs)
	// last is what the last look found, as the wait's failure: when the
	// deadline passes during a look (one look can outlast actionReserve
	// on a loaded machine), that, not a bare timeout, is the answer.
	var last func() error
	for {
		el, err := r.find(tabID, loc, true)
		if err != nil && last != nil && errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
			return Element{}, last()
		}
		switch {
		case err == nil:
			b := el.blocked
			if !hit(el) && (b.kind == covered || b.kind == clipped || b.kind == noPointer) {
				b = blocker{}
			}
			if b.kind == "" {
				loc := loc
				el.loc, el.waited = &loc, w.took()
				return el, nil
			}
			last = func() error { return b.fail(el, w) }
			if !w.again(r.reach, b.String()) {
				return Element{}, last()
			}
		case protocol.CodeOf(err) == protocol.CodeElementNotFound && loc.Ref == "":
			last = func() error { return withWaited(err, w) }
			if !w.again(r.reach, "not on the page yet") {
				return Element{}, last()
			}
		case retryable(err) && protocol.CodeOf(err) != protocol.CodeElementNotFound:
			if !w.again(r.reach, string(changing)) {
				return Element{}, err
			}
		default:
			return Element{}, err
		}
		if err := w.sleep(r.reach); err != nil {
			return Element{}, err
		}
	}
}

// withWaited adds how long a wait took to its final error.
func withWaited(err error, w *waiter) error {
	var pe *protocol.Error
	if s := w.said(); s != "" && errors.As(err, &pe) {
		return protocol.Errorf(pe.Code, "%s%s", pe.Message, s)
	}
	return err
}

// moveOnto moves the mouse onto el and, in the same round trip, checks
// with the mouse there that input would still reach it (see recheckFrames)
// before it sends then(x, y) — the press — at the point. When the check
// fails nothing more is sent: it waits and measures again, within the
// call's deadline, and moves again. needHit false (hover) asks only that
// the element holds still. It returns the element as last measured, with
// this wait added to el's (Element.waited). A
// point locator is not measured again: when the page put something else
// under the point, that is the answer.
func (r *locator) moveOnto(tabID int, el Element, needHit bool, then func(x, y float64) []protocol.CDPCommand) (Element, error) {
	w := newWaiter(r.reach, r.timeoutMs)
	prior := el.waited
	unsteady := 0
	for {
		cmds := []protocol.CDPCommand{mouseMove(el.X, el.Y)}
		if then != nil {
			cmds = append(cmds, then(el.X, el.Y)...)
		}
		if el.aim == nil {
			el.waited = prior.plus(w.took())
			return el, r.actor().cdpBatch(tabID, cmds...)
		}
		// An element that never holds still (a pulsing button) but is on
		// top where the mouse is, look after look, is pressed there.
		ignoreMoved := unsteady >= 5
		check := &protocol.BatchCheck{Before: 1, Files: recheckScript.files, Fn: recheckScript.fn, Frames: el.aim.recheckFrames(needHit, ignoreMoved)}
		c, err := r.actor().cdpChecked(tabID, check, nil, cmds)
		answers, sent := c.answers, c.sent
		var b blocker
		switch {
		case err != nil && (!retryable(err) || r.ctx.Err() != nil):
			return Element{}, err
		case err != nil:
			b = blocker{kind: changing}
		case sent:
			took := w.took()
			if ignoreMoved {
				took.notes = append(took.notes, "the element kept moving (an animation); it was pressed while under the pointer")
			}
			el.waited = prior.plus(took)
			return el, nil
		default:
			b = blockerOf(answers, needHit, ignoreMoved)
		}
		if b.kind == moving {
			unsteady++
		} else {
			unsteady = 0
		}
		if el.localRef == "" {
			// A point: what is under it changed once the mouse came.
			return Element{}, protocol.Errorf(protocol.CodeElementObscured, "the page put %s under the point (%.0f, %.0f) when the mouse moved there; nothing was pressed. Look at the page again (screenshot or inspect) before acting", firstNonEmpty(b.by, "another element"), el.X, el.Y)
		}
		if !w.again(r.reach, b.String()) {
			return Element{}, b.fail(el, w)
		}
		if err := w.sleep(r.reach); err != nil {
			return Element{}, err
		}
		if el, err = r.remeasure(tabID, el, needHit, w); err != nil {
			return Element{}, err
		}
	}
}

// lookAfter, given to cdpChecked, is a look at what the commands did in
// the same round trip: the page script script in frame frameID right
// after them (cdp.batch's then), with the tab's activity and the tab.
type lookAfter struct {
	script  pageScript
	frameID int
	args    any
}

// checkedBatch is what cdpChecked saw: the check's answers (frames at
// refused file: URLs blanked, as every page script's), whether the
// commands from check.Before on were sent, and what the look after them
// saw (nothing when a dialog or the check stopped them, or when it was
// not asked for).
type checkedBatch struct {
	answers []protocol.PageFrameResult
	sent    bool
	seen    batchLook
	// stale and before answer the params' ExpectURL (see cdpCheckedWith).
	stale  bool
	before *protocol.TabInfo
}

// cdpChecked sends cmds in one round trip, with check (when not nil): the
// commands from check.Before on go out only if it passes; and with after
// (when not nil), the look at what they did. A dialog that opens
// meanwhile is answered: before the check passed, nothing more was sent;
// after, the rest of the commands are sent as cdpBatch does, and the
// caller looks on its own for what it did not see.
func (r actor) cdpChecked(tabID int, check *protocol.BatchCheck, after *lookAfter, cmds []protocol.CDPCommand) (checkedBatch, error) {
	return r.cdpCheckedWith(protocol.CDPBatchParams{TabID: tabID, Commands: cmds, Check: check}, after)
}

// cdpCheckedWith is cdpChecked for params that say more (ExpectURL,
// Activate): a tab that no longer showed ExpectURL got nothing, and the
// result says stale, with the tab as it is in seen.tab.
func (r actor) cdpCheckedWith(params protocol.CDPBatchParams, after *lookAfter) (checkedBatch, error) {
	tabID, check, cmds := params.TabID, params.Check, params.Commands
	if after != nil {
		fid := after.frameID
		params.Then = &protocol.PageRunParams{TabID: tabID, Files: after.script.files, Fn: after.script.fn, Args: after.args, FrameID: &fid}
		params.Net, params.Tab = true, true
	}
	var out protocol.CDPBatchResult
	err := r.answers().unheld(tabID, func() (err error) {
		out, err = r.b.CDPBatch(r.ctx, params)
		return err
	})
	if err != nil {
		return checkedBatch{}, err
	}
	answers, err := r.refuseFrames(tabID, out.Check)
	if err != nil {
		return checkedBatch{}, err
	}
	c := checkedBatch{answers: answers, before: out.Before}
	if out.Stale {
		c.stale, c.seen.tab = true, out.Tab
		return c, nil
	}
	if out.Dialog != nil {
		if err := r.answers().answerDialog(tabID, out.Dialog); err != nil {
			return checkedBatch{}, err
		}
		if check != nil && (out.Stopped || out.Interrupted < check.Before) {
			// The commands before the check finish by themselves now;
			// nothing after it was sent.
			return c, nil
		}
		c.sent = true
		if rest := cmds[min(out.Interrupted+1, len(cmds)):]; len(rest) > 0 {
			return c, r.cdpBatch(tabID, rest...)
		}
		return c, r.answers().answerDialogsAfter(tabID)
	}
	if c.sent = !out.Stopped; !c.sent {
		return c, nil
	}
	c.seen = batchLook{net: out.Net, tab: out.Tab}
	if out.Then != nil {
		res, err := r.refuseFrames(tabID, out.Then.Frames)
		if err != nil {
			return checkedBatch{}, err
		}
		if len(res) > 0 && res[0].Error == "" {
			c.seen.look = &res[0]
		}
	}
	return c, nil
}

// remeasure measures el again after a failed recheck, waiting (within w)
// until input would reach it; an element the page replaced is located
// again by its locator.
func (r *locator) remeasure(tabID int, el Element, needHit bool, w *waiter) (Element, error) {
	for {
		p, err := r.measure(tabID, el)
		if err != nil && protocol.CodeOf(err) == protocol.CodeElementNotFound && el.loc != nil {
			if p, err = r.find(tabID, *el.loc, true); err == nil {
				p.loc = el.loc
			}
		}
		switch {
		case err == nil:
			b := p.blocked
			if !needHit && (b.kind == covered || b.kind == clipped || b.kind == noPointer) {
				b = blocker{}
			}
			if b.kind == "" {
				return p, nil
			}
			if !w.again(r.reach, b.String()) {
				return Element{}, b.fail(p, w)
			}
		case protocol.CodeOf(err) == protocol.CodeElementNotFound:
			if !w.again(r.reach, string(gone)) {
				return Element{}, withWaited(err, w)
			}
		case retryable(err):
			if !w.again(r.reach, string(changing)) {
				return Element{}, err
			}
		default:
			return Element{}, err
		}
		if err := w.sleep(r.reach); err != nil {
			return Element{}, err
		}
	}
}
