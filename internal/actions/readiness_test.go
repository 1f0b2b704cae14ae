package actions

import (
	"testing"
	"time"
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
