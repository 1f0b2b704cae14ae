package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/daemon"
	"github.com/browser-bridge/browser-bridge/internal/logfile"
	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

func runDaemon(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("daemon", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "log every call")
	if err := parseFlagSet(fs, args, -1); err != nil {
		return err
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	out := Stderr
	if w, err := rotatingLog(layout); err != nil {
		return err
	} else if w != nil {
		defer w.Close()
		out = w
	}
	log := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: level}))
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

// rotatingLog returns a writer that rotates the daemon log when this
// daemon's stderr is that log, as it is when client.EnsureDaemon started
// it (the starter opens daemon.log and hands it over as stdout and
// stderr); nil when stderr is anything else (a terminal). After a rotation
// stdout and stderr are moved to the new file too, so that a panic lands
// in the current log.
func rotatingLog(layout paths.Layout) (*logfile.Writer, error) {
	f, ok := Stderr.(*os.File)
	if !ok {
		return nil, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, nil
	}
	if li, err := os.Stat(layout.DaemonLog()); err != nil || !os.SameFile(fi, li) {
		return nil, nil
	}
	return logfile.Open(layout.DaemonLog(), logfile.Options{OnRotate: func(f *os.File) {
		if Stderr == os.Stderr {
			logfile.RedirectStdio(f)
		}
	}})
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
	var registered []string
	for _, b := range paths.Browsers() {
		p := b.ManifestDir + "/" + protocol.NativeHostName + ".json"
		_, err := os.Stat(p)
		manifests = append(manifests, map[string]any{"browser": b.Name, "path": p, "installed": err == nil})
		if err == nil {
			registered = append(registered, b.Name)
		}
	}
	enabled := settings.Off(layout) == nil
	return map[string]any{
		"hostname":            host,
		"ipcEndpoint":         layout.Socket,
		"stateFolder":         layout.State,
		"allowedExtensionIds": ids,
		"hostBinary":          exe,
		"nativeHostName":      protocol.NativeHostName,
		"hostManifests":       manifests,
		"enabled":             enabled,
		"hint":                connectHint(enabled, registered),
	}
}

// connectHint is the one line status gives a user whose browser is not
// connected: the step they have not taken yet, as a command to run.
func connectHint(enabled bool, registered []string) string {
	switch {
	case !enabled:
		return "the bridge is turned off: run `browser-bridge enable`, then keep your browser open with the extension loaded"
	case len(registered) == 0:
		return "run `browser-bridge install`, load the extension it writes (chrome://extensions, Developer mode, Load unpacked) and keep the browser open; or run `browser-bridge launch` and leave it running"
	}
	return fmt.Sprintf("open %s with the Browser Bridge extension loaded and keep it open (the host is registered for it; `browser-bridge doctor` checks each link), or run `browser-bridge launch` and leave it running",
		strings.Join(registered, " or "))
}
