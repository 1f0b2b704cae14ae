package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// runHost is the native messaging host. Chrome passes the caller's origin
// as the first argument (plus a window handle on Windows). stdout belongs to
// Chrome's framing: nothing else may ever be written there.
func runHost(ctx context.Context, args []string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "host", "pid", os.Getpid())
	// Chrome closes our stdout when it drops the port; make that an EPIPE
	// error on write instead of a SIGPIPE that kills the process.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if os.Getenv(protocol.EnvDisable) == "1" {
		return fmt.Errorf("the bridge is disabled (%s=1)", protocol.EnvDisable)
	}
	caller := ""
	if len(args) > 0 {
		caller = args[0]
	}
	exe, _ := os.Executable()
	if err := nmhost.CheckOrigin(caller, nmhost.AllowedOrigins(exe)); err != nil {
		log.Error("refusing caller", "err", err)
		return err
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	h := &nmhost.Host{Layout: layout, In: os.Stdin, Out: os.Stdout, Log: log}
	err = h.Run(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
