package tool

import "testing"

func TestCheckPerformance(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		p  Performance
		ok bool
	}{
		{Performance{}, true},
		{Performance{Reload: &yes}, true},
		{Performance{DurationMs: 5000}, true},
		{Performance{Reload: &no, DurationMs: MaxTraceMs}, true},
		{Performance{Reload: &no}, false},
		{Performance{Reload: &yes, DurationMs: 10}, false},
		{Performance{DurationMs: MaxTraceMs + 1}, false},
		{Performance{DurationMs: -1}, false},
	} {
		if err := c.p.CheckPerformance(); (err == nil) != c.ok {
			t.Errorf("%+v: %v, want ok %v", c.p, err, c.ok)
		}
	}
}
