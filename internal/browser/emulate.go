package browser

import (
	"context"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TabEmulate sets or undoes a tab's emulations (device, CPU, network,
// media features).
func (v Verbs) TabEmulate(ctx context.Context, p protocol.TabEmulateParams) (protocol.TabEmulateResult, error) {
	return call[protocol.TabEmulateResult](ctx, v, "tab.emulate", p)
}
