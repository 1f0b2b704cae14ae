// Command browser-bridge lets an AI agent work in the user's own Chrome. It
// is the daemon, the native messaging host, the CLI and the launcher in one
// binary; see README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/browser-bridge/browser-bridge/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:])
	stop()
	var exit *cli.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.Code)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser-bridge:", err)
		os.Exit(1)
	}
}
