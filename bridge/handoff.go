package bridge

import "context"

// HandoffParams are handoff's parameters: Target.TabID (else the active
// tab of Target.BrowserWorkspaceID, else of Chrome's current window) and
// the Message the user reads, such as "Please sign in, then press Done".
// Target.TimeoutMs may be up to 600000 (10 minutes, the default) for this
// action alone.
type HandoffParams struct {
	Target
	Message string `json:"message"`
}

// Handoff hands a tab to the user for what the program must not do (a
// sign-in, a CAPTCHA, a second factor) and waits for their Done or
// Cancel. The tab's window comes forward and the message shows over the
// page, where the page cannot read or press it; meanwhile every other
// action on the tab is ErrHandoffInProgress. Nothing the user types comes
// back.
func (c *Client) Handoff(ctx context.Context, p HandoffParams) (*HandoffResult, error) {
	return do[HandoffResult](ctx, c, "handoff", p)
}
