package actions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestActivityReady(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	settled := activity{loaded: true, sinceLoad: ms(9000), dom: ms(5000), input: ms(5000), net: true, netQuiet: ms(5000)}
	with := func(f func(*activity)) activity { a := settled; f(&a); return a }
	tests := []struct {
		name  string
		a     activity
		ready bool
	}{
		{"settled for long", settled, true},
		{"still loading", with(func(a *activity) { a.loaded = false }), false},
		{"settled for settledFor", with(func(a *activity) { a.dom, a.input, a.netQuiet = settledFor, settledFor, settledFor }), true},
		{"DOM changed just now", with(func(a *activity) { a.dom = ms(20) }), false},
		{"a click just now, DOM quiet for long", with(func(a *activity) { a.input = ms(10) }), false},
		{"a fetch in flight after a quiet DOM", with(func(a *activity) { a.young = 1; a.netQuiet = ms(300) }), false},
		{"a navigation pending", with(func(a *activity) { a.navigating = true }), false},
		// A page that keeps changing by itself waits for quietFor.
		{"just loaded", with(func(a *activity) { a.sinceLoad, a.dom = ms(50), ms(60) }), false},
		{"loaded afterLoad ago, unchanged since", with(func(a *activity) { a.sinceLoad, a.dom = afterLoad, afterLoad }), true},
		{"changing by itself, 300 ms after a change", with(func(a *activity) { a.dom, a.changing = ms(300), true }), false},
		{"changing by itself, quietFor after its last change", with(func(a *activity) { a.dom, a.changing = quietFor, true }), true},
		{"a request just ended, DOM quiet for long", with(func(a *activity) { a.netQuiet = ms(10) }), false},
		// Without the extension's record of requests (or once it no
		// longer counts), only the DOM rule.
		{"no record, DOM quiet 500 ms", with(func(a *activity) { a.net, a.dom = false, ms(500) }), false},
		{"no record, DOM quiet quietFor", with(func(a *activity) { a.net, a.dom = false, quietFor }), true},
		{"no record, DOM quiet quietFor, a click just now", with(func(a *activity) { a.net, a.dom, a.input = false, quietFor, ms(5) }), false},
		// Where the page's scheduled work is counted (the bridge's tabs):
		// nothing short pending and settledFor of quiet, at once after the
		// load; a page that never stops, the seed's rule.
		{"counted, just loaded, quiet settledFor", with(func(a *activity) { a.counted, a.sinceLoad, a.dom = true, ms(5), settledFor }), true},
		{"counted, just loaded, DOM changed 50 ms ago", with(func(a *activity) { a.counted, a.sinceLoad, a.dom = true, ms(5), ms(50) }), false},
		{"counted, a timer pending, DOM quiet for long", with(func(a *activity) { a.counted, a.pending = true, true }), false},
		{"counted, a timer pending just after the load", with(func(a *activity) { a.counted, a.pending, a.sinceLoad = true, true, ms(5) }), false},
		{"counted, changed by itself 150 ms ago, nothing pending", with(func(a *activity) { a.counted, a.changing, a.dom = true, true, ms(150) }), true},
		{"counted, a fetch in flight that the record of requests misses", with(func(a *activity) { a.counted, a.pending, a.net = true, true, false }), false},
		{"counted, nothing pending, no record of requests, quiet settledFor", with(func(a *activity) { a.counted, a.net, a.dom = true, false, settledFor }), true},
		{"counted, a request in the record", with(func(a *activity) { a.counted, a.young = true, 1 }), false},
		{"counted, a click just now", with(func(a *activity) { a.counted, a.input = true, ms(5) }), false},
		{"endless, DOM quiet 500 ms", with(func(a *activity) { a.counted, a.endless, a.pending, a.dom = true, true, true, ms(500) }), false},
		{"endless, DOM quiet quietFor, work pending", with(func(a *activity) { a.counted, a.endless, a.pending, a.dom = true, true, true, quietFor }), true},
		// A quiet that lasts only because a timer runs late (a hidden
		// tab's, a busy machine's) is not the page's: the timer is about
		// to change it.
		{"endless, DOM quiet quietFor, a timer due and not run", with(func(a *activity) { a.counted, a.endless, a.pending, a.late, a.dom = true, true, true, true, quietFor }), false},
		{"still loading, counted", with(func(a *activity) { a.counted, a.loaded = true, false }), false},
	}
	for _, tc := range tests {
		ok, wait := tc.a.ready()
		if ok != tc.ready {
			t.Errorf("%s: ready %v, want %v", tc.name, ok, tc.ready)
		}
		if !ok && (wait < 10*time.Millisecond || wait > 250*time.Millisecond) {
			t.Errorf("%s: waits %s between looks", tc.name, wait)
		}
	}
	// A page read right after its last change waits only what is left of
	// settledFor.
	if _, wait := with(func(a *activity) { a.dom = ms(30) }).ready(); wait != settledFor-ms(30) {
		t.Errorf("30 ms after a change: waits %s, want %s", wait, settledFor-ms(30))
	}
}

func TestScheduledEndless(t *testing.T) {
	tests := []struct {
		name             string
		s                scheduled
		pending, endless bool
	}{
		{"nothing", scheduled{}, false, false},
		{"a timer", scheduled{Timers: 1, BusyMs: 300}, true, false},
		{"a frame", scheduled{Frames: 1, BusyMs: 10, LoopMs: 10}, true, false},
		{"a request", scheduled{Requests: 1, BusyMs: 1900}, true, false},
		{"a script", scheduled{Scripts: 1}, true, false},
		{"a clock's interval", scheduled{Intervals: 1}, false, true},
		{"busy without a break for busyFor", scheduled{Timers: 1, BusyMs: 2000}, true, true},
		{"a frame in every frame for loopFor", scheduled{Frames: 1, BusyMs: 300, LoopMs: 300}, true, true},
		// The page's figures are its own: odd ones count as nothing.
		{"negative figures", scheduled{Timers: -3, BusyMs: -1e12, LoopMs: -5}, false, false},
		{"a huge figure", scheduled{Timers: 1, BusyMs: 1e300}, true, true},
	}
	for _, tc := range tests {
		if p, e := tc.s.pending(), tc.s.endless(); p != tc.pending || e != tc.endless {
			t.Errorf("%s: pending %v endless %v, want %v %v", tc.name, p, e, tc.pending, tc.endless)
		}
	}
}

// FuzzQuietState feeds page/quiet.js's answer — built in the page, from
// figures the page can sway — to the rule: whatever it says, the rule
// answers, and the pause before the next look stays within its bounds.
func FuzzQuietState(f *testing.F) {
	f.Add([]byte(`{"readyState":"complete","quietMs":150,"inputQuietMs":900,"sinceLoadMs":20,"observedMs":900,"fromStart":true}`))
	f.Add([]byte(`{"readyState":"complete","quietMs":150,"inputQuietMs":900,"scheduled":{"timers":2,"intervals":0,"frames":0,"requests":1,"scripts":0,"busyMs":300,"loopMs":0}}`))
	f.Add([]byte(`{"readyState":"complete","quietMs":-1e308,"selfQuietMs":1e308,"scheduled":{"timers":-5,"busyMs":-1e308,"loopMs":1e308}}`))
	f.Add([]byte(`{"readyState":"loading","scheduled":null}`))
	f.Add([]byte(`{"readyState":"complete","quietMs":900,"scheduled":{"timers":1,"dueMs":1e308}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var st quietState
		if json.Unmarshal(b, &st) != nil {
			return
		}
		for _, net := range []bool{false, true} {
			a := st.activity()
			a.net = net
			if ok, wait := a.ready(); !ok && (wait < 10*time.Millisecond || wait > 250*time.Millisecond) {
				t.Fatalf("%s: waits %s between looks", b, wait)
			}
		}
	})
}

// The page's figures come to the rule as they were meant, and a page
// without counts keeps the rule without them.
func TestQuietStateActivity(t *testing.T) {
	var st quietState
	if err := json.Unmarshal([]byte(`{"readyState":"complete","quietMs":150,"sinceLoadMs":20,"scheduled":{"timers":1,"busyMs":50}}`), &st); err != nil {
		t.Fatal(err)
	}
	if a := st.activity(); !a.loaded || !a.counted || !a.pending || a.endless || a.dom != 150*time.Millisecond || a.sinceLoad != 20*time.Millisecond {
		t.Errorf("counted: %+v", a)
	}
	if err := json.Unmarshal([]byte(`{"readyState":"complete","quietMs":900,"scheduled":{"timers":1,"overdue":1,"busyMs":2500}}`), &st); err != nil {
		t.Fatal(err)
	}
	if a := st.activity(); !a.endless || !a.late {
		t.Errorf("a timer due and not run: %+v", a)
	}
	st.Scheduled = nil
	if a := st.activity(); a.counted || a.pending || a.late {
		t.Errorf("without counts: %+v", a)
	}
}

// While only timers are pending, the next look waits for the first of
// them to be due (up to the longest pause), not the short poll; anything
// else pending, an overdue timer, or a page that did not say when, is
// looked at again soon.
func TestPendingTimersWaitUntilDue(t *testing.T) {
	for _, c := range []struct {
		scheduled string
		want      time.Duration
	}{
		{`{"timers":1,"dueMs":600}`, 250 * time.Millisecond},
		{`{"timers":2,"dueMs":80}`, 85 * time.Millisecond},
		{`{"timers":1,"dueMs":0}`, pendingPoll},
		{`{"timers":1}`, pendingPoll},
		{`{"timers":1,"requests":1,"dueMs":600}`, pendingPoll},
		{`{"timers":1,"frames":1,"dueMs":600}`, pendingPoll},
		{`{"timers":1,"scripts":1,"dueMs":600}`, pendingPoll},
	} {
		var st quietState
		if err := json.Unmarshal([]byte(`{"readyState":"complete","quietMs":150,"inputQuietMs":900,"sinceLoadMs":900,"scheduled":`+c.scheduled+`}`), &st); err != nil {
			t.Fatal(err)
		}
		if ok, wait := st.activity().ready(); ok || wait != c.want {
			t.Errorf("%s: ready %v, next look in %s; want not ready, %s", c.scheduled, ok, wait, c.want)
		}
	}
}

// A page that showed it never stops (an animation asking for every frame)
// keeps the 800 ms rule for the rest of the wait, even when a look finds
// its loop broken and its DOM quiet for 150 ms (a loaded machine that drew
// no frame for a moment): it is read at the end of the wait with the
// warning, not at that moment as if it had settled. The fake browser
// stands in for the page's answers to page/quiet.js.
func TestSettleKeepsAnEndlessPageEndless(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	looks := 0
	fake.Handle("page.run", fakebrowser.Typed(func(_ context.Context, p protocol.PageRunParams) (any, error) {
		looks++
		st := `{"readyState":"complete","quietMs":0,"inputQuietMs":9000,"sinceLoadMs":9000,"scheduled":{"timers":0,"frames":1,"loopMs":400,"busyMs":400}}`
		if looks > 1 {
			st = `{"readyState":"complete","quietMs":150,"inputQuietMs":9000,"sinceLoadMs":9000,"scheduled":{"timers":0,"frames":0,"loopMs":0,"busyMs":0}}`
		}
		return protocol.PageRunResult{Frames: []protocol.PageFrameResult{{FrameID: 0, URL: "https://example.com/", Value: json.RawMessage(st)}}}, nil
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	r := newRun(ctx, engine(t, fake), nil, "session:test", input(t, `{"action":"extract","tabId":2}`), nil)
	warnings, err := r.settling().settle(2, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0], "kept changing") {
		t.Errorf("settle after %d looks: warnings %q; want it read at the end with the warning", looks, warnings)
	}
}

// A timer that is due and has not run holds a never-stopping page's read
// for lateHold at most: a hidden tab whose page chains 0 ms timers
// (Chrome runs them once a second there) is overdue nearly all the time,
// and would otherwise wait out the whole window. The fake browser stands
// in for the page's answers to page/quiet.js.
func TestAnOverdueTimerHoldsTheReadForAWhileOnly(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	st := `{"readyState":"complete","quietMs":5000,"inputQuietMs":9000,"sinceLoadMs":9000,"scheduled":{"timers":1,"overdue":1,"dueMs":0,"busyMs":5000}}`
	fake.Handle("page.run", fakebrowser.Reply(protocol.PageRunResult{Frames: []protocol.PageFrameResult{{FrameID: 0, URL: "https://example.com/", Value: json.RawMessage(st)}}}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r := newRun(ctx, engine(t, fake), nil, "session:test", input(t, `{"action":"extract","tabId":2}`), nil)
	began := time.Now()
	warnings, err := r.settling().settle(2, 300*time.Millisecond)
	took := time.Since(began)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 || took < lateHold || took > lateHold+time.Second {
		t.Errorf("read after %s with warnings %q; want it read after about %s, without a warning", took, warnings, lateHold)
	}
}
