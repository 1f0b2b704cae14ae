package actions

import (
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Where evaluate may run, by the tab's frames and the rules: never in a
// denied frame or one inside it, never beside a same-origin denied frame,
// never on an origin a path rule denies in part.
func TestEvaluableFrames(t *testing.T) {
	rules := &policy.Rules{Deny: []string{"bank.example", "shop.example/admin/*"}}
	frames := []protocol.Frame{
		{FrameID: 0, ParentFrameID: -1, URL: "https://news.example/"},
		{FrameID: 1, ParentFrameID: 0, URL: "https://bank.example/login"},
		{FrameID: 2, ParentFrameID: 1, URL: "about:blank"},
		{FrameID: 3, ParentFrameID: 2, URL: "https://ads.example/x"},
		{FrameID: 4, ParentFrameID: 0, URL: "about:srcdoc"},
		{FrameID: 5, ParentFrameID: 0, URL: "https://shop.example/cart"},
	}
	same := []protocol.Frame{
		{FrameID: 0, ParentFrameID: -1, URL: "https://mail.example/inbox"},
		{FrameID: 7, ParentFrameID: 0, URL: "https://mail.example/private"},
	}
	mailRules := &policy.Rules{Deny: []string{"https://mail.example/private"}}
	tests := []struct {
		frames []protocol.Frame
		rules  *policy.Rules
		frame  int
		want   string // a word of the refusal, "" for none
	}{
		{frames, rules, 0, ""},
		{frames, rules, 4, ""},
		{frames, rules, 1, "bank.example"},
		{frames, rules, 2, "inside frame 1"},
		{frames, rules, 3, "inside frame 2"},
		{frames, rules, 5, "shop.example/admin/*"},
		{frames, rules, 42, ""},
		{same, mailRules, 0, "same origin"},
		{frames[:1], &policy.Rules{Allow: []string{"news.example/public/*", "news.example"}}, 0, ""},
		{[]protocol.Frame{{FrameID: 0, ParentFrameID: -1, URL: "https://news.example/public/a"}}, &policy.Rules{Allow: []string{"news.example/public/*"}}, 0, "allow list"},
	}
	for _, tt := range tests {
		fs := frameTree{siteRefused: refusedBy(tt.rules), byID: map[int]protocol.Frame{}}
		id := tt.frame
		err := fs.evaluable(1, tt.frames, &id, tt.rules)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("frame %d: %v, want it evaluable", tt.frame, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || protocol.CodeOf(err) != protocol.CodeBlockedByPolicy):
			t.Errorf("frame %d: %v, want blocked_by_policy with %q", tt.frame, err, tt.want)
		}
	}
}

// refusedBy is run.siteRefused for rules.
func refusedBy(rules *policy.Rules) func(string) string {
	return func(u string) string {
		if d := rules.Check(u); !d.Allowed {
			return d.Why
		}
		return ""
	}
}
