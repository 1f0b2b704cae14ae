package browser

import (
	"context"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TabHistory takes a step in a tab's history (back, forward, reload) and
// waits for the page it leads to.
func (v Verbs) TabHistory(ctx context.Context, p protocol.TabHistoryParams) (protocol.TabHistoryResult, error) {
	return call[protocol.TabHistoryResult](ctx, v, "tab.history", p)
}

// TabViewport sets or clears the size a tab's page is laid out at.
func (v Verbs) TabViewport(ctx context.Context, p protocol.TabViewportParams) (protocol.TabViewportResult, error) {
	return call[protocol.TabViewportResult](ctx, v, "tab.viewport", p)
}
