package tool

import (
	"strings"
	"testing"
	"time"
)

// handoff alone waits longer than a minute: its timeoutMs goes up to ten
// minutes, and its default deadline is those ten minutes; the call has
// HandoffWrapup beyond them to answer "timeout".
func TestHandoffDeadline(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{`{"action":"handoff","message":"Please sign in"}`, HandoffDeadline + HandoffWrapup, ""},
		{`{"action":"handoff","message":"Please sign in","timeoutMs":600000}`, 10*time.Minute + HandoffWrapup, ""},
		{`{"action":"handoff","message":"Please sign in","timeoutMs":90000}`, 90*time.Second + HandoffWrapup, ""},
		{`{"action":"handoff","message":"Please sign in","timeoutMs":600001}`, 0, "between 1 and 600000"},
		{`{"action":"click","text":"Go","timeoutMs":90000}`, 0, "between 1 and 60000"},
		{`{"action":"handoff"}`, 0, "handoff needs message"},
		{`{"action":"handoff","message":"   "}`, 0, "message is blank"},
		{`{"action":"handoff","message":"` + strings.Repeat("x", MaxMessage+1) + `"}`, 0, "at most 500"},
		{`{"action":"click","text":"Go","message":"hi"}`, 0, `"message" does not apply to click`},
	}
	for _, tt := range tests {
		in, _, err := Parse([]byte(tt.in))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%.80s: error %v, want one with %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := in.Deadline(); got != tt.want {
			t.Errorf("%s: deadline %s, want %s", tt.in, got, tt.want)
		}
	}
	// The other actions keep the 60 s cap (docs/design.md#wire-protocol).
	s, _ := Lookup("open")
	if got := s.DeadlineFor(600000); got != DefaultDeadline {
		t.Errorf("open with timeoutMs 600000: %s, want %s", got, DefaultDeadline)
	}
}
