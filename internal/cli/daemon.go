package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/browser-bridge/browser-bridge/internal/daemon"
	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

func runDaemon(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("daemon", flag.ContinueOnError)
	fs.SetOutput(Stderr)
	verbose := fs.Bool("v", false, "log every call")
	if err := fs.Parse(args); err != nil {
		return &ExitError{Code: 2}
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(Stderr, &slog.HandlerOptions{Level: level}))
	d, err := daemon.New(layout, log)
	if err != nil {
		return err
	}
	d.Diagnostics = func() any { return diagnostics(layout) }
	err = d.Run(ctx)
	if errors.Is(err, daemon.ErrAlreadyRunning) {
		return fmt.Errorf("%w (socket %s)", err, layout.Socket)
	}
	return err
}

// diagnostics says what status needs to tell a user whose extension is not
// connected: every link of the chain and where it is expected.
func diagnostics(layout paths.Layout) map[string]any {
	host, _ := os.Hostname()
	exe, _ := os.Executable()
	var ids []string
	for _, o := range nmhost.AllowedOrigins(exe) {
		ids = append(ids, nmhost.IDOf(o))
	}
	var manifests []map[string]any
	for _, b := range paths.Browsers() {
		p := b.ManifestDir + "/" + protocol.NativeHostName + ".json"
		_, err := os.Stat(p)
		manifests = append(manifests, map[string]any{"browser": b.Name, "path": p, "installed": err == nil})
	}
	return map[string]any{
		"hostname":            host,
		"ipcEndpoint":         layout.Socket,
		"stateFolder":         layout.State,
		"allowedExtensionIds": ids,
		"hostBinary":          exe,
		"nativeHostName":      protocol.NativeHostName,
		"hostManifests":       manifests,
		"enabled":             settings.Off(layout) == nil,
		"hint":                "run `browser-bridge install`, load the extension it writes in Chrome (or run `browser-bridge launch`) and keep Chrome open; the extension connects through the native host registered in the manifests above",
	}
}
