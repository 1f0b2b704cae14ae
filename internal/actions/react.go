package actions

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// After an input the page reacts — an autocomplete filters its options,
// a form shows an error, a framework re-renders — and an action that
// returns at once lets the next one act on the page as it was: an Enter
// right after typing into an autocomplete picks the first option, not the
// filtered one. So type watches the element's document for DOM changes
// (page/act.js watch, begun in the call that readies the field and
// counted from the input's own events) and, after the input, waits until
// the changes stop for reactQuiet — when the page changes at all — and
// for the requests the input started (the suggestions an autocomplete
// asks for: readiness.net) to come back, never longer than reactMax. The
// first look comes back with the input itself (cdpBatchLook), so a text
// field that did not react costs nothing more: the frameworks' reactions
// to an input (React, Vue, Angular, Svelte) are done by the time its
// events are. A code editor, which draws in its next animation frame, is
// judged after that frame (at most reactFrame when no frame comes).
const (
	reactGrace = 0
	reactFrame = 50 * time.Millisecond
	reactQuiet = 100 * time.Millisecond
	reactMax   = time.Second
	reactPoll  = 25 * time.Millisecond
)

// Reaction is how an action waited for the page after its input; the
// result reports it as settledMs (and a warning when the page did not
// settle within reactMax).
type Reaction struct {
	// Waited is how long the action waited after the input.
	Waited time.Duration
	// Changed: the page changed its DOM after the input.
	Changed bool
	// Settled: the page stopped changing within the bound (or never
	// started).
	Settled bool
}

// Ms is Waited in whole milliseconds, for a result's settledMs.
func (re Reaction) Ms() *int {
	ms := int(re.Waited.Round(time.Millisecond) / time.Millisecond)
	return &ms
}

// Warning says, when the page was still changing at the bound, that the
// result shows it mid-change; "" otherwise.
func (re Reaction) Warning() string {
	if re.Settled {
		return ""
	}
	return fmt.Sprintf("the page was still changing %d ms after the input; it may not have finished reacting (wait for what you expect before the next step)", re.Waited.Milliseconds())
}

var (
	watchScript    = script("watch", "page/locate.js", "page/act.js")
	reactionScript = script("reaction", "page/locate.js", "page/act.js")
)

// watchReaction starts watching frame frameID of tab tabID for the page's
// reaction to an input about to be sent, and returns the wait, to await
// right after sending it. Call it just before the input: what changes
// before it (a focus ring, a selection drawn) would count as a reaction.
// A frame that cannot be watched is not waited for.
//
// Click would use it as type does:
//
//	settle := r.settling().watchReaction(t.TabID, el.FrameID)
//	err := l.click(…)
//	re := settle.await() // then report re.Ms() as settledMs, and re.Warning()
func (r settling) watchReaction(tabID, frameID int) reactionWait {
	fid := frameID
	if err := r.runPageTop(tabID, &fid, watchScript, nil, nil); err != nil {
		return reactionWait{unwatched: true}
	}
	return r.watchedReaction(tabID, frameID)
}

// watchedReaction is the wait of a watch that a page script started
// itself, in the call that input (paste and setValue), which returned
// just now. A page that did not react is judged after its next frame.
func (r settling) watchedReaction(tabID, frameID int) reactionWait {
	return reactionWait{reach: r.reach, tabID: tabID, frameID: frameID, watched: time.Now(), frame: true}
}

// reactionToInput is the wait for the page's reaction to an input about
// to be sent, watched by a page script that counts from the input's own
// events (prepareTyping began it); ref, if set, is the element whose
// value the look that finds the page settled reads.
func (r settling) reactionToInput(tabID, frameID int, ref string) reactionWait {
	return reactionWait{reach: r.reach, tabID: tabID, frameID: frameID, watched: time.Now(), fromInput: true, ref: ref}
}

type reactionState struct {
	Watching  bool    `json:"watching"`
	Input     bool    `json:"input"`
	Mutations int     `json:"mutations"`
	QuietMs   float64 `json:"quietMs"`
	SinceMs   float64 `json:"sinceMs"`
	Settled   bool    `json:"settled"`
	// Read is the value of the element the wait was asked to read once
	// settled (page/act.js valueOf).
	Read json.RawMessage `json:"read"`
}

// reactionWait is the settle step after one input: a wait for the page's
// reaction that holds what it waits for, from the watch that began it to
// the look that finds the page settled (await).
type reactionWait struct {
	reach
	// unwatched: the frame could not be watched, and nothing is waited
	// for.
	unwatched      bool
	tabID, frameID int
	// watched is when the watch began, or with fromInput when the input
	// was sent (the page counts from the input's events then).
	watched   time.Time
	fromInput bool
	// frame: a page that did not react is judged after its next
	// animation frame (editors draw there), not at once.
	frame bool
	// ref, if set, is the element whose value the look that finds the
	// page settled reads (page/act.js valueOf).
	ref string
	// first and firstNet are the first look, when it came with the input
	// (cdpBatchLook): the reaction script's answer and the tab's activity.
	first    *protocol.PageFrameResult
	firstNet *protocol.ReadinessNet
}

// args are the args of the page's reaction script for w, inputDone being
// when the input's call returned.
func (w reactionWait) args(inputDone time.Time) reactionArgs {
	// A watch begun in a call of its own counts from its start, before
	// the input; one begun with fromInput counts from the input's events.
	grace := inputDone.Sub(w.watched) + reactGrace
	if w.fromInput {
		grace = reactGrace
	}
	return reactionArgs{GraceMs: grace.Milliseconds(), QuietMs: reactQuiet.Milliseconds(), Frame: w.frame, FrameMs: reactFrame.Milliseconds(), Read: w.ref}
}

// await polls the watch that began at (about) w.watched until the page
// settles, within reactMax and the call's deadline. The page decides with
// the bounds it is given (the watch ends there once settled): no change
// for reactGrace after the input (and, with w.frame, by its next frame),
// or none for reactQuiet after the last; requests the input started hold
// it too.
func (w reactionWait) await() Reaction {
	re, _ := w.awaitReading()
	return re
}

// awaitReading is await, and returns with the reaction the value of w.ref
// as the look that found the page settled read it (nil when it could not
// be read): the read-back costs no round trip of its own.
func (w reactionWait) awaitReading() (Reaction, json.RawMessage) {
	if w.unwatched {
		return Reaction{Settled: true}, nil
	}
	r := w.reach
	tabID, frameID, watched, fromInput, ref := w.tabID, w.frameID, w.watched, w.fromInput, w.ref
	inputDone := time.Now()
	limit := inputDone.Add(reactMax)
	if dl, ok := r.ctx.Deadline(); ok {
		limit = minTime(limit, dl.Add(-500*time.Millisecond))
	}
	args := w.args(inputDone)
	fid := frameID
	var re Reaction
	for {
		var st reactionState
		var net protocol.ReadinessNet
		var netErr error
		var err error
		if w.first != nil {
			// The look that came with the input.
			err = json.Unmarshal(w.first.Value, &st)
			if w.firstNet != nil {
				net = *w.firstNet
			} else {
				netErr = errNoNet
			}
			w.first = nil
		} else {
			err = both(func() error {
				return r.runPageTop(tabID, &fid, reactionScript, args, &st)
			}, func() error {
				net, netErr = r.b.ReadinessNet(r.ctx, tabID)
				return nil
			})
		}
		now := time.Now()
		re.Waited = now.Sub(inputDone)
		if err != nil || !st.Watching {
			// The document that watched is gone (the input navigated) or
			// never watched: nothing to wait for here.
			re.Settled = true
			return re, nil
		}
		re.Changed = st.Mutations > 0
		// The page's own clock says how long after the input it was looked
		// at: a look that came with the input (a batch) answered when this
		// side's clock had barely started, however long the batch took on
		// a busy machine.
		re.Waited = max(re.Waited, time.Duration(st.SinceMs)*time.Millisecond)
		// A request begun since the input and still out holds the wait:
		// its answer is what the page will show.
		since := now.Sub(watched)
		if !fromInput {
			since += 20 * time.Millisecond // the input came in the call that began the watch
		}
		asked := netErr == nil && net.Watching && requestSince(net, since)
		if st.Settled && !asked {
			re.Settled = true
			return re, st.Read
		}
		if !now.Before(limit) {
			// Stop watching: a page that keeps changing must not be
			// observed for nothing.
			var last reactionState
			r.runPageTop(tabID, &fid, reactionScript, reactionArgs{Done: true, Read: ref}, &last)
			return re, last.Read
		}
		if st.Settled {
			// The page had settled, but a request it made is out: watch
			// again for what its answer changes.
			args.GraceMs = 0
			if err := r.runPageTop(tabID, &fid, watchScript, nil, nil); err != nil {
				re.Settled = true
				return re, st.Read
			}
		}
		wait := reactPoll
		if re.Changed {
			wait = max(min(reactQuiet-time.Duration(st.QuietMs)*time.Millisecond, reactQuiet), 10*time.Millisecond)
		}
		if r.sleep(min(wait, limit.Sub(now))) != nil {
			return re, nil
		}
	}
}

// errNoNet marks a look that came without the tab's activity.
var errNoNet = errors.New("no record of the tab's requests")

// requestSince says whether a request that brings content started less
// than since ago (after the input was sent) and is still in flight.
func requestSince(n protocol.ReadinessNet, since time.Duration) bool {
	for _, age := range n.InflightMs {
		if time.Duration(age)*time.Millisecond <= since {
			return true
		}
	}
	return false
}
