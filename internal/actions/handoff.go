package actions

import (
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// handoff hands a tab to the user and takes it back: for a
// sign-in, a CAPTCHA, a second factor — what the agent must not or
// cannot do. The extension brings the tab's window forward (the one
// action that takes the user's focus), shows the message in an overlay
// on the page — an extension frame the page cannot read or click — and on
// the extension's own page, and answers when the user presses Done or
// Cancel, or the wait runs out. The result is the outcome and the tab as
// it is then; nothing the user typed meanwhile is recorded or returned.
//
// While the tab is handed off, every other action on it fails with
// handoff_in_progress: Handoffs is that set, and Env.Guard asks it
// (Handoffs.Guard). The extension refuses the bridge's input and page
// scripts on the tab too, so that no door — the daemon's actions nor a
// program's cdp — can press Done for the user: only a trusted click in the
// extension's frame counts.
func init() { register("handoff", handoff) }

func handoff(r *run) (*tool.HandoffResult, error) {
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	end, err := r.env.Handoffs().begin(Handoff{TabID: t.TabID, Message: r.in.Message, Session: r.session, Instance: r.instance})
	if err != nil {
		return nil, err
	}
	defer end()
	// The user gets all of timeoutMs: the call's deadline has
	// tool.HandoffWrapup beyond it for the answer to come back, of which
	// the steps so far (guards, the turn) may have used a little. Should
	// the context end sooner than that, the answer's time (half the
	// wrap-up) comes out of what is left.
	spec, _ := tool.Lookup("handoff")
	wait := spec.TimeFor(r.in.TimeoutMs)
	if dl, ok := r.ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl)-spec.Wrapup/2)
	}
	if wait < time.Second {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "timeoutMs leaves the user no time to act; give the hand-off at least a few seconds (up to 600000)")
	}
	stop := r.keepTelling("waiting for the user: "+r.in.Message, handoffProgressEvery)
	defer stop()
	out, err := browser.Verbs{Caller: r.browser}.HandoffShow(r.ctx, protocol.HandoffShowParams{
		TabID: t.TabID, Message: r.in.Message, TimeoutMs: int(wait / time.Millisecond),
	})
	if err != nil {
		return nil, err
	}
	return &tool.HandoffResult{Outcome: out.Outcome, Page: tool.Page{TabID: out.TabID, URL: out.URL, Title: out.Title}}, nil
}
