package cli

import (
	"context"
	"fmt"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

func runVersion(ctx context.Context, args []string) error {
	fmt.Fprintf(Stdout, "browser-bridge %s (protocol %d)\n", version.Version, protocol.Version)
	return nil
}
