package actions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/extract"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Readiness of a page for reading (docs/design.md#readiness). A page is ready to
// read once its top document has loaded, no input came for settledFor (a
// click, a key, a DOM action's input event), no top-frame navigation is
// pending and no request that brings the page content (a document,
// script, style or fetch/XHR of the top frame, or a frame's document) is
// in flight, and none started or ended for settledFor, and then:
//   - in the bridge's own tabs, where the recorder counts from the
//     document's start what the page has scheduled (page/record-main.js):
//     nothing short is pending — no timer of up to a second that has not
//     run, no animation frame asked for and not drawn, no fetch/XHR in
//     flight, no script it inserted still loading — and the DOM has not
//     changed for settledFor.
//     A page that never stops (an interval of up to a second, a frame
//     asked for in every frame for loopFor, or work pending without a
//     break for busyFor: a clock, an animation, a poll) falls back to the
//     seed's rule: its DOM unchanged for quietFor, and no timer of its
//     due and not yet run — a quiet that lasts only because the page's
//     timers run late (a hidden tab's, which Chrome runs at most once a
//     second; a busy machine's) is not the page's;
//   - elsewhere (a tab the bridge did not open, a page that refuses
//     scripts), where nothing says what is scheduled: loaded afterLoad ago
//     at least, to see whether it goes on changing by itself, and its DOM
//     unchanged for settledFor — quietFor when the page changed by itself
//     in the last 2 s (a change after the load event that no input and no
//     response came just before: a ticker, a feed, a timer), the seed's
//     rule for pages that keep changing.
//
// The requests' part holds a read for netHold at most (a page that polls
// without end), and without the extension's record of requests (and no
// counts) the DOM part is quietFor; both give the seed's rule. All within
// readyWindow, which stretches up to readyStretch while the document is
// still loading; a page that never gets there is read anyway, with a
// warning.
//
// So a settled page reads at once, a freshly opened static one as soon as
// its DOM has been quiet for settledFor, a page that renders from its own
// timers (a framework's tick, a debounce, a lazy widget's fetch) once they
// have run, a page right after an action as soon as what the action set
// off has stopped, and the data a click asked for (an SPA's fetch) is
// waited for even when the DOM had long been quiet. What it cannot see: a
// timer longer than a second, work the page schedules in ways not counted
// (a message channel, a worker, a WebSocket's push), in other tabs a timer
// that changes the page later with no request in flight (a debounce over
// settledFor, a render that starts more than afterLoad after the load
// event), requests of child
// frames' own content (ads never stop loading), and requests begun before
// Chrome restarted the extension's worker. waitFor is the explicit
// condition for those.
const (
	quietFor     = 800 * time.Millisecond
	settledFor   = 100 * time.Millisecond
	afterLoad    = 200 * time.Millisecond
	busyFor      = 2 * time.Second
	loopFor      = 300 * time.Millisecond
	selfWindow   = 2 * time.Second
	netHold      = 3 * time.Second
	readyWindow  = 8 * time.Second
	readyStretch = 30 * time.Second
	pollEvery    = 100 * time.Millisecond
	pendingPoll  = 25 * time.Millisecond
	lateHold     = 1200 * time.Millisecond
)

var (
	quietScript   = script("quietState", "page/quiet.js")
	extractScript = script("extract", "page/extract.js")
)

// quietRegistered remembers, per browser, the extension connection (by
// the time of its hello) for which the quiet-DOM content script is known
// to be registered.
var quietRegistered struct {
	sync.Mutex
	at map[string]time.Time
}

// Hello is what the engine does when an extension connects (the daemon
// calls it on each hello): it registers the quiet-DOM content script
// at once, so that every page loaded from then on knows its last DOM
// change from the start and the first read of it need not wait. A bridge
// that is off or paused registers nothing; its first read does, once it
// is back on.
func Hello(ctx context.Context, env *Env, b Browser) {
	if (env.Off != nil && env.Off() != nil) || (env.Paused != nil && env.Paused() != nil) {
		return
	}
	newRun(ctx, env, b, "", &tool.Input{}, nil).settling().ensureQuietScript()
}

// ensureQuietScript registers page/quiet.js as a content script (once per
// extension connection), so documents loaded from now on record their DOM
// changes from the start and a quiet page reads without waiting. Failing
// to register is not fatal: the wait then observes from its own start.
func (r settling) ensureQuietScript() {
	info := r.info()
	at := info.ConnectedAt
	quietRegistered.Lock()
	done := !at.IsZero() && quietRegistered.at[info.Browser].Equal(at)
	quietRegistered.Unlock()
	if done {
		return
	}
	if err := r.b.ReadinessEnable(r.ctx); err != nil {
		return
	}
	quietRegistered.Lock()
	if quietRegistered.at == nil {
		quietRegistered.at = map[string]time.Time{}
	}
	quietRegistered.at[info.Browser] = at
	quietRegistered.Unlock()
}

type quietState struct {
	// Scheduled is absent where the page's scheduled work is not counted.
	Scheduled    *scheduled `json:"scheduled"`
	ReadyState   string     `json:"readyState"`
	QuietMs      float64    `json:"quietMs"`
	SelfQuietMs  *float64   `json:"selfQuietMs"`
	SinceLoadMs  *float64   `json:"sinceLoadMs"`
	InputQuietMs float64    `json:"inputQuietMs"`
	ObservedMs   float64    `json:"observedMs"`
	FromStart    bool       `json:"fromStart"`
	URL          string     `json:"url"`
}

// scheduled is what a page has scheduled (page/record.js scheduled): the
// page's own counts, so they may make its read wait or hurry, within the
// rules' bounds, and no more.
type scheduled struct {
	Timers    int     `json:"timers"`    // timers of up to a second that have not run
	Overdue   int     `json:"overdue"`   // of those, the ones due (up to a second ago)
	Intervals int     `json:"intervals"` // intervals of up to a second
	Frames    int     `json:"frames"`    // animation frames asked for
	Requests  int     `json:"requests"`  // fetch and XHR calls in flight
	Scripts   int     `json:"scripts"`   // inserted scripts not yet loaded
	BusyMs    float64 `json:"busyMs"`    // since something has been pending without a break
	LoopMs    float64 `json:"loopMs"`    // since the page has asked for a frame in every frame
	// DueMs is how long until the first pending timer is due, when the
	// page counted every one (absent otherwise).
	DueMs *float64 `json:"dueMs"`
}

// due is how long until the page's next counted work is due: the first
// pending timer's time when timers are all that is pending, else 0 (look
// again soon).
func (s scheduled) due() time.Duration {
	if s.DueMs == nil || s.Frames > 0 || s.Requests > 0 || s.Scripts > 0 {
		return 0
	}
	return pageMs(*s.DueMs)
}

// pending says whether something short is pending.
func (s scheduled) pending() bool {
	return s.Timers > 0 || s.Frames > 0 || s.Requests > 0 || s.Scripts > 0
}

// late says whether a timer of the page is due and has not run.
func (s scheduled) late() bool { return s.Overdue > 0 }

// endless says whether the page looks as if it never stops.
func (s scheduled) endless() bool {
	return s.Intervals > 0 || pageMs(s.BusyMs) >= busyFor || pageMs(s.LoopMs) >= loopFor
}

// pageMs is a page's figure of milliseconds as a duration (a negative or odd
// one as 0).
func pageMs(v float64) time.Duration {
	if !(v > 0) {
		return 0
	}
	return time.Duration(min(v, 1e9) * float64(time.Millisecond))
}

// until is the moment a wait must give up so that the action still has
// reserve left to answer within its deadline.
func (r reach) until(reserve time.Duration) time.Time {
	if dl, ok := r.ctx.Deadline(); ok {
		return dl.Add(-reserve)
	}
	return time.Now().Add(tool.DefaultDeadline - reserve)
}

// sleep waits d, or less when the call is cancelled.
func (r reach) sleep(d time.Duration) error {
	if d <= 0 {
		return r.ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.ctx.Done():
		return r.ctx.Err()
	case <-t.C:
		return nil
	}
}

// activity is one look at a tab: its top document's DOM and input, and
// (when the extension can see them) its requests and navigation.
type activity struct {
	loaded    bool
	sinceLoad time.Duration // since the load event
	dom       time.Duration // since the last DOM change
	// changing: the page changed by itself in the last selfWindow
	changing bool
	input    time.Duration // since the last input
	// net is false when the extension reports no requests (an extension
	// without readiness.net, or without the webRequest permission): then
	// only the DOM rule holds.
	net        bool
	netQuiet   time.Duration // since a request last started or ended
	young      int           // requests in flight that started under netHold ago
	navigating bool          // a top-frame navigation younger than netHold is pending
	// (a request or navigation older than that is left out: a long poll,
	// a download)

	// counted is true when the page's scheduled work is known (the
	// bridge's own tabs); then pending says something short is, and
	// endless that the page looks as if it never stops.
	counted bool
	pending bool
	endless bool
	late    bool // a timer is due and has not run
	// due: how long until what is pending is due, when the page knows
	// (only timers pending); 0 when it does not.
	due time.Duration
}

// ready says whether a is ready to read (see the rules above), and if not,
// how long at least until it may be.
func (a activity) ready() (bool, time.Duration) {
	if !a.loaded {
		return false, pollEvery
	}
	if !a.counted && a.sinceLoad < afterLoad {
		return false, clampWait(afterLoad - a.sinceLoad)
	}
	if a.input < settledFor {
		return false, clampWait(settledFor - a.input)
	}
	need := settledFor
	switch {
	case a.counted && a.endless:
		if a.late {
			// The timer runs as soon as the page's thread gets to it,
			// and may change the page: the quiet so far is not the
			// page's own.
			return false, pendingPoll
		}
		need = quietFor // the seed's rule
	case a.counted:
		if a.pending {
			// A timer due later need not be looked for before it runs
			// (a 900 ms timer: 4 looks, not 36; 5 ms for it to have run);
			// an overdue one (a throttled tab) or other work, soon.
			return false, max(pendingPoll, clampWait(a.due+5*time.Millisecond))
		}
	case !a.net || a.changing:
		need = quietFor // the seed's rule
	}
	if a.net {
		if a.navigating || a.young > 0 {
			return false, 25 * time.Millisecond
		}
		if a.netQuiet < settledFor {
			return false, clampWait(settledFor - a.netQuiet)
		}
	}
	if a.dom < need {
		return false, clampWait(need - a.dom)
	}
	return true, 0
}

// clampWait bounds the pause between two looks at a tab.
func clampWait(d time.Duration) time.Duration {
	return min(max(d, 10*time.Millisecond), 250*time.Millisecond)
}

// look reads the tab's activity: the page's quiet state and the
// extension's record of its requests, side by side.
func (r settling) look(tabID int) (activity, error) {
	var st quietState
	var n protocol.ReadinessNet
	var netErr error
	err := both(func() error {
		return r.runPageTop(tabID, nil, quietScript, nil, &st)
	}, func() error {
		n, netErr = r.b.ReadinessNet(r.ctx, tabID)
		return nil
	})
	if err != nil {
		return activity{}, err
	}
	a := st.activity()
	// A worker that Chrome restarted knows nothing of requests begun
	// before (n.WatchedMs says since when it watches); the native port
	// keeps the worker alive, so that is rare, and not worth the DOM
	// rule's wait on every read in the first seconds of a browser.
	if netErr == nil && n.Watching {
		a.net = true
		a.netQuiet = time.Duration(n.QuietMs) * time.Millisecond
		for _, age := range n.InflightMs {
			if time.Duration(age)*time.Millisecond < netHold {
				a.young++
			}
		}
		a.navigating = n.NavigatingMs != nil && time.Duration(*n.NavigatingMs)*time.Millisecond < netHold
	}
	return a, nil
}

// activity is the page's part of a look at the tab: what page/quiet.js
// said of it.
func (st quietState) activity() activity {
	a := activity{loaded: st.ReadyState == "complete", dom: pageMs(st.QuietMs), input: pageMs(st.InputQuietMs), sinceLoad: afterLoad}
	if st.SinceLoadMs != nil {
		a.sinceLoad = pageMs(*st.SinceLoadMs)
	}
	a.changing = st.SelfQuietMs != nil && pageMs(*st.SelfQuietMs) < selfWindow
	if s := st.Scheduled; s != nil {
		a.counted, a.pending, a.endless, a.late, a.due = true, s.pending(), s.endless(), s.late(), s.due()
	}
	return a
}

// settle waits until the tab is ready to read (see the rules above).
// Running out of time is not an error: it returns a warning and the
// caller reads what the page shows then. Errors are for a tab that is
// gone or may not be read.
func (r settling) settle(tabID int, reserve time.Duration) ([]string, error) {
	start := time.Now()
	hard := r.until(reserve)
	var loadedAt time.Time
	reported := start
	// endless: the page has shown, in this wait, that it never stops; it
	// keeps the seed's rule to the end of the wait, so that a moment when
	// a loaded machine draws no frame (the loop looks broken for 100 ms)
	// is not taken for the page settling.
	endless := false
	// lateSince: since when the page's timers have been overdue without a
	// break. An overdue timer holds the read for lateHold at most: a
	// hidden tab's timers run once a second, and a page that chains
	// 0 ms timers there is overdue nearly all the time.
	var lateSince time.Time
	for {
		a, err := r.look(tabID)
		if err != nil {
			if !retryable(err) || r.ctx.Err() != nil {
				return nil, err
			}
			// Between two documents (a navigation) a frame cannot be
			// scripted for a moment: treat it as still loading.
			a = activity{}
		}
		now := time.Now()
		switch {
		case err != nil: // a look that failed says nothing of the document
		case !a.loaded:
			endless = false // a new document is judged on its own
		case a.counted:
			endless = endless || a.endless
			a.endless = endless
		}
		switch {
		case !a.late:
			lateSince = time.Time{}
		case lateSince.IsZero():
			lateSince = now
		case now.Sub(lateSince) >= lateHold:
			a.late = false
		}
		if now.Sub(start) >= netHold {
			// Requests and a navigation hold a read for netHold at
			// most: a page that polls without end (or a navigation that
			// never commits) falls back to the DOM rule.
			a.net = false
		}
		if a.loaded && loadedAt.IsZero() {
			loadedAt = now
		}
		if !a.loaded {
			loadedAt = time.Time{}
		}
		ok, wait := a.ready()
		if ok {
			return nil, nil
		}
		// The window: readyWindow, stretched while loading up to
		// readyStretch; a page that finishes loading late still gets one
		// quiet period to settle.
		limit := start.Add(readyWindow)
		if !a.loaded {
			limit = start.Add(readyStretch)
		} else if late := loadedAt.Add(quietFor + 2*pollEvery); late.After(limit) {
			limit = minTime(late, start.Add(readyStretch))
		}
		limit = minTime(limit, hard)
		if !now.Before(limit) {
			took := now.Sub(start).Round(100 * time.Millisecond)
			switch {
			case !a.loaded:
				return []string{fmt.Sprintf("the page was still loading after %s; this is what it showed then", took)}, nil
			case a.net && a.navigating:
				return []string{fmt.Sprintf("the page was still going to another address after %s; this is what it showed then", took)}, nil
			case a.net && a.young > 0 && a.dom >= quietFor:
				return []string{fmt.Sprintf("the page was still waiting for %d network requests after %s; this is what it showed then", a.young, took)}, nil
			case a.counted && a.pending && (!a.endless || a.late) && a.dom >= settledFor:
				return []string{fmt.Sprintf("the page still had work scheduled (a timer, a frame or a request) after %s; this is what it showed then", took)}, nil
			}
			return []string{fmt.Sprintf("the page kept changing for %s (it never stayed unchanged for %d ms); this is what it showed then", took, quietFor.Milliseconds())}, nil
		}
		if now.Sub(reported) >= time.Second {
			reported = now
			what := "finish loading"
			if a.loaded {
				what = "stop changing"
			}
			r.progress(fmt.Sprintf("waiting for the page to %s (%.0f s so far)", what, now.Sub(start).Seconds()))
		}
		if err := r.sleep(min(wait, limit.Sub(now))); err != nil {
			return nil, err
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// pageFrame is one frame's answer from page/extract.js. Tree is a JSON
// string that holds the tree's JSON (Chrome's converter of script results
// would cut a deeper structure at 100 levels); extract.DecodeTree takes it
// as it is.
type pageFrame struct {
	URL       string             `json:"url"`
	Title     string             `json:"title"`
	Tree      json.RawMessage    `json:"tree"`
	Frames    []extract.FrameRef `json:"frames"`
	Truncated bool               `json:"truncated"`
	// HiddenRuns counts the elements whose text was left out because it
	// was hidden from people in ways a page hides text from people only
	// (page/extract.js hidden); PartialEditors the code editors that show
	// part of their text.
	HiddenRuns     int `json:"hiddenRuns"`
	PartialEditors int `json:"partialEditors"`
	Viewport       struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"viewport"`
}

// readPage runs page/extract.js in every frame of the tab and collects
// what each frame gave, with the browser's list of the tab's frames.
func (r settling) readPage(tabID int) (extract.Page, error) {
	res, err := r.runPage(tabID, frames{all: true}, extractScript, noArgs{})
	if err != nil && retryable(err) {
		// A frame went away while the script ran (a late navigation or a
		// frame replaced by the page): read again once.
		if err := r.sleep(250 * time.Millisecond); err != nil {
			return extract.Page{}, err
		}
		res, err = r.runPage(tabID, frames{all: true}, extractScript, noArgs{})
	}
	if err != nil {
		return extract.Page{}, err
	}
	res, dropped, err := r.dropRefusedFrames(tabID, res)
	if err != nil {
		return extract.Page{}, err
	}
	var p extract.Page
	if frames, err := r.tabFrames(tabID); err == nil {
		for _, f := range frames {
			p.Known = append(p.Known, extract.KnownFrame(f))
		}
	}
	for _, fr := range res {
		if fr.Error != "" {
			if p.Failed == nil {
				p.Failed = map[int]string{}
			}
			p.Failed[fr.FrameID] = fr.Error
			continue
		}
		var v pageFrame
		if err := json.Unmarshal(fr.Value, &v); err != nil {
			if p.Failed == nil {
				p.Failed = map[int]string{}
			}
			p.Failed[fr.FrameID] = "its answer could not be decoded"
			continue
		}
		p.Frames = append(p.Frames, extract.Frame{FrameID: fr.FrameID, URL: v.URL, Title: v.Title, Tree: v.Tree, Frames: v.Frames, Truncated: v.Truncated,
			HiddenRuns: v.HiddenRuns, PartialEditors: v.PartialEditors, Width: v.Viewport.Width, Height: v.Viewport.Height})
	}
	for id, why := range dropped {
		if p.Failed == nil {
			p.Failed = map[int]string{}
		}
		p.Failed[id] = why // reported in frames[], as other frames not read
	}
	for _, f := range p.Frames {
		if f.FrameID == 0 {
			return p, nil
		}
	}
	why := "it gave no answer"
	if msg, ok := p.Failed[0]; ok {
		why = msg
	}
	return p, protocol.Errorf(protocol.CodeProtectedPage, "the page's content could not be read (%s); the browser may not let extensions read this page", why)
}

// retryable says whether a page script failed for a passing reason (a
// document coming or going) rather than for good (a protected page, a
// closed tab, no extension).
func retryable(err error) bool {
	switch protocol.CodeOf(err) {
	case protocol.CodeProtectedPage, protocol.CodeTabNotFound, protocol.CodeExtensionNotConnected,
		protocol.CodeBridgeDisabled, protocol.CodeInvalidArgument, protocol.CodeVersionMismatch, protocol.CodeUnknownVerb, protocol.CodeTimeout,
		// The user's word: it does not change by waiting.
		protocol.CodeBlockedByPolicy, protocol.CodeHandoffInProgress, protocol.CodePausedByUser:
		return false
	}
	return true
}

// condition is something to wait for: the load event, an element, or a
// URL fragment.
type condition struct {
	load        bool
	loc         *tool.Locator
	urlContains string
}

func (c condition) describe() string {
	switch {
	case c.load:
		return "the page load"
	case c.urlContains != "":
		return fmt.Sprintf("a URL containing %q", c.urlContains)
	case c.loc != nil:
		return "an element with " + c.loc.Describe()
	}
	return "nothing"
}

// waited is what a wait found.
type waited struct {
	Tab     browser.TabInfo
	Element *Element
}

// waitFor polls the tab until c holds or until passes; then it fails with
// timeout, naming the condition. An element counts once it is visible.
func (r settling) waitFor(tabID int, c condition, until time.Time) (waited, error) {
	start := time.Now()
	reported := start
	var lastNote string
	// timedOut is the wait's own timeout, naming the condition — also when
	// the deadline passed during a look at the page (a busy machine, a
	// slow page), whose own error would say only that the page did not
	// answer.
	timedOut := func() error {
		now := time.Now()
		msg := fmt.Sprintf("%s did not appear within %s", c.describe(), now.Sub(start).Round(100*time.Millisecond))
		if c.load {
			msg = fmt.Sprintf("the page did not finish loading within %s", now.Sub(start).Round(100*time.Millisecond))
		}
		if lastNote != "" {
			msg += " (" + lastNote + ")"
		}
		return protocol.Errorf(protocol.CodeTimeout, "%s; check the condition with inspect or extract, or raise timeoutMs", msg)
	}
	late := func(err error) bool {
		return protocol.CodeOf(err) == protocol.CodeTimeout && !time.Now().Before(until.Add(-10*time.Millisecond))
	}
	for attempt := 0; ; attempt++ {
		now := time.Now()
		left := until.Sub(now)
		switch {
		case c.load:
			t, err := r.b.TabWaitLoad(r.ctx, protocol.TabWaitLoadParams{TabID: tabID, WaitMs: max(int(left/time.Millisecond), 1)})
			if late(err) {
				return waited{}, timedOut()
			}
			if err != nil {
				return waited{}, err
			}
			if t.Loaded == nil || *t.Loaded {
				return waited{Tab: t}, nil
			}
		case c.urlContains != "":
			t, err := r.tabInfo(tabID)
			if late(err) {
				return waited{}, timedOut()
			}
			if err != nil {
				return waited{}, err
			}
			if strings.Contains(t.URL, c.urlContains) {
				return waited{Tab: t}, nil
			}
			lastNote = fmt.Sprintf("the URL is %s", t.URL)
		case c.loc != nil:
			el, err := r.locator().find(tabID, *c.loc, false)
			switch {
			case err == nil && el.Visible:
				t, err := r.tabInfo(tabID)
				if err != nil {
					return waited{}, err
				}
				return waited{Tab: t, Element: &el}, nil
			case err == nil:
				lastNote = fmt.Sprintf("%d elements match, none of them visible", el.Matches)
			case protocol.CodeOf(err) == protocol.CodeElementNotFound:
				lastNote = sensitiveNoteOf(err)
			case late(err):
				return waited{}, timedOut()
			case retryable(err) && r.ctx.Err() == nil:
				// A frame between two documents; look again.
			default:
				return waited{}, err
			}
		default:
			return waited{}, invalid("nothing to wait for")
		}
		now = time.Now()
		if !now.Before(until) {
			return waited{}, timedOut()
		}
		if now.Sub(reported) >= time.Second {
			reported = now
			r.progress(fmt.Sprintf("waiting for %s (%.0f s so far)", c.describe(), now.Sub(start).Seconds()))
		}
		wait := pollEvery
		if attempt > 20 {
			wait = 250 * time.Millisecond
		}
		if err := r.sleep(min(wait, until.Sub(now))); err != nil {
			return waited{}, err
		}
	}
}
