package browser

import (
	"context"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The verbs of the user's side (issue 12): handing a tab to the user, and
// the site rules the extension enforces itself.

// HandoffShow hands tab p.TabID to the user: its window comes forward,
// p.Message shows in an overlay the page cannot read or click, and the
// call waits up to p.TimeoutMs for Done or Cancel.
func (v Verbs) HandoffShow(ctx context.Context, p protocol.HandoffShowParams) (protocol.HandoffShowResult, error) {
	return call[protocol.HandoffShowResult](ctx, v, "handoff.show", p)
}

// PolicySet gives the extension the site rules it checks before it acts.
func (v Verbs) PolicySet(ctx context.Context, p protocol.PolicySetParams) error {
	_, err := call[protocol.OKResult](ctx, v, "policy.set", p)
	return err
}

// DownloadsLimit gives the extension the cap on one download, which it
// enforces on every bridge download to its end.
func (v Verbs) DownloadsLimit(ctx context.Context, p protocol.DownloadsLimitParams) error {
	_, err := call[protocol.OKResult](ctx, v, "downloads.limit", p)
	return err
}

// AskShow asks the user whether the agent may take one step it cannot
// take back, over the page of p.TabID (or in the extension's own window),
// and waits up to p.TimeoutMs for Allow or Decline.
func (v Verbs) AskShow(ctx context.Context, p protocol.AskShowParams) (protocol.AskShowResult, error) {
	return call[protocol.AskShowResult](ctx, v, "ask.show", p)
}
