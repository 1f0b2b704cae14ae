package cli

import (
	"context"

	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/shots"
)

// runClean removes every screenshot file (the daemon also prunes them by
// age and total size as it writes new ones).
func runClean(ctx context.Context, args []string) error {
	if len(args) > 0 {
		// Refuse before removing anything: a typo must not go unnoticed.
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "clean takes no arguments (got %q); it removes every screenshot file", args), 2)
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	d := shots.New(layout.Screenshots())
	n, bytes := d.Clean()
	return printJSON(map[string]any{"removed": n, "bytes": bytes, "folder": d.Path})
}
