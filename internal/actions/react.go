package actions

import (
	"fmt"
	"time"
)

// After an input the page reacts — an autocomplete filters its options,
// a form shows an error, a framework re-renders — and an action that
// returns at once lets the next one act on the page as it was: an Enter
// right after typing into an autocomplete picks the first option, not the
// filtered one. So type (and click) watch the element's document for DOM
// changes from just before the input (page/act.js watch) and, after it,
// wait until the changes stop for reactQuiet — only when the page
// changes at all within reactGrace, and never longer than reactMax. A
// page that does not react costs reactGrace.
const (
	reactGrace = 50 * time.Millisecond
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
// reaction to an input about to be sent, and returns the wait to call
// right after sending it. Call it just before the input: what changes
// before it (a focus ring, a selection drawn) would count as a reaction.
// A frame that cannot be watched is not waited for.
//
// Click uses it as type does:
//
//	settle := r.watchReaction(t.TabID, el.FrameID)
//	err := r.mouseClick(…)
//	re := settle() // then report re.Ms() as settledMs, and re.Warning()
func (r *run) watchReaction(tabID, frameID int) func() Reaction {
	fid := frameID
	if err := r.runPageTop(tabID, &fid, watchScript, nil, nil); err != nil {
		return func() Reaction { return Reaction{Settled: true} }
	}
	return r.watchedReaction(tabID, frameID, time.Now())
}

// watchedReaction is the wait of a watch that a page script started
// itself (paste and setValue watch from within the call that inputs);
// watched is when that call returned.
func (r *run) watchedReaction(tabID, frameID int, watched time.Time) func() Reaction {
	return func() Reaction { return r.awaitReaction(tabID, frameID, watched) }
}

type reactionState struct {
	Watching  bool    `json:"watching"`
	Mutations int     `json:"mutations"`
	QuietMs   float64 `json:"quietMs"`
	SinceMs   float64 `json:"sinceMs"`
	Settled   bool    `json:"settled"`
}

// awaitReaction polls the watch that began at (about) watched until the
// page settles, within reactMax and the call's deadline. The page decides
// with the bounds it is given (the watch ends there once settled): no
// change for reactGrace after the input, or none for reactQuiet after the
// last.
func (r *run) awaitReaction(tabID, frameID int, watched time.Time) Reaction {
	inputDone := time.Now()
	limit := inputDone.Add(reactMax)
	if dl, ok := r.ctx.Deadline(); ok {
		limit = minTime(limit, dl.Add(-500*time.Millisecond))
	}
	// The page counts from its watch; the input came after it.
	grace := inputDone.Sub(watched) + reactGrace
	args := map[string]any{"graceMs": grace.Milliseconds(), "quietMs": reactQuiet.Milliseconds()}
	fid := frameID
	var re Reaction
	for {
		var st reactionState
		err := r.runPageTop(tabID, &fid, reactionScript, args, &st)
		now := time.Now()
		re.Waited = now.Sub(inputDone)
		if err != nil || !st.Watching {
			// The document that watched is gone (the input navigated) or
			// never watched: nothing to wait for here.
			re.Settled = true
			return re
		}
		re.Changed = st.Mutations > 0
		if st.Settled {
			re.Settled = true
			return re
		}
		if !now.Before(limit) {
			// Stop watching: a page that keeps changing must not be
			// observed for nothing.
			r.runPageTop(tabID, &fid, reactionScript, map[string]any{"done": true}, nil)
			return re
		}
		wait := reactPoll
		if re.Changed {
			wait = max(min(reactQuiet-time.Duration(st.QuietMs)*time.Millisecond, reactQuiet), 10*time.Millisecond)
		}
		if r.sleep(min(wait, limit.Sub(now))) != nil {
			return re
		}
	}
}
