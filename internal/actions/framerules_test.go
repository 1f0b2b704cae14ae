package actions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// A frame at a site the user's rules deny answers only its refusal, in
// any spelling of the site and as a blob: of it; other frames keep their
// answers; a top frame there fails the action; without site rules
// nothing is judged but files.
func TestFramesOfDeniedSitesAreRefused(t *testing.T) {
	rules := func(deny ...string) *run {
		return &run{reach: reach{siteRules: func() *policy.Rules { return &policy.Rules{Deny: deny} }}}
	}
	secret := json.RawMessage(`{"text":"DENIED"}`)
	frames := func() []protocol.PageFrameResult {
		return []protocol.PageFrameResult{
			{FrameID: 0, URL: "http://127.0.0.1:8/", Value: json.RawMessage(`{}`)},
			{FrameID: 3, URL: "http://LocalHost.:9/x", Value: secret},
			{FrameID: 4, URL: "blob:http://localhost:9/5f0c", Value: secret},
			{FrameID: 5, URL: "about:srcdoc", Value: json.RawMessage(`{}`)},
			{FrameID: 6, URL: "http://localhost:10/", Value: json.RawMessage(`{}`)},
		}
	}
	res, err := rules("localhost:9").refuseFrames(1, frames())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res {
		refused := f.FrameID == 3 || f.FrameID == 4
		if refused != (f.Code == protocol.CodeBlockedByPolicy) || refused != (f.Value == nil) {
			t.Errorf("frame %d: %+v", f.FrameID, f)
		}
		if refused && !strings.Contains(f.Error, `"localhost:9"`) {
			t.Errorf("frame %d's refusal does not name the rule: %s", f.FrameID, f.Error)
		}
	}
	kept, dropped, err := rules("localhost:9").dropRefusedFrames(1, res)
	if err != nil || len(kept) != 3 || len(dropped) != 2 {
		t.Errorf("dropRefusedFrames: kept %d, dropped %v, %v", len(kept), dropped, err)
	}

	if _, err := rules("127.0.0.1").refuseFrames(1, frames()); protocol.CodeOf(err) != protocol.CodeBlockedByPolicy {
		t.Errorf("a denied top frame: %v", err)
	}
	none := &run{reach: reach{siteRules: func() *policy.Rules { return nil }}}
	if res, err := none.refuseFrames(1, frames()); err != nil || res[1].Value == nil {
		t.Errorf("without site rules: %+v, %v", res, err)
	}
}
