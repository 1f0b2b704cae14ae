package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/launcher"
	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// connectTimeout bounds the wait for the launched browser's extension.
const connectTimeout = 30 * time.Second

// runLaunch starts a browser with the extension, waits until the extension
// is connected to the daemon, prints one JSON line and stays in the
// foreground until interrupted; then it stops the browser.
func runLaunch(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("launch", flag.ContinueOnError)
	headless := fs.Bool("headless", false, "run without a window (new headless mode)")
	browser := fs.String("browser", "", "browser binary (default: $"+launcher.EnvBrowser+", else Chromium found on this machine)")
	profile := fs.String("profile", "", "user data folder to use (default: a fresh temporary one, removed on exit)")
	startURL := fs.String("url", "about:blank", "the page of the first tab")
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	// A launch that fails stops what it started: the daemon too, when
	// none ran before it.
	hadDaemon := client.Running(layout)
	if err := client.EnsureDaemon(ctx, layout); err != nil {
		return err
	}
	failed := func(err error) error {
		if !hadDaemon {
			client.StopDaemon(context.WithoutCancel(ctx), layout)
		}
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return failed(err)
	}
	started := time.Now()
	b, err := launcher.Start(launcher.Options{
		Browser: *browser, Headless: *headless, Profile: *profile, StartURL: *startURL,
		HostExe: exe, Origins: nmhost.AllowedOrigins(exe),
	})
	if err != nil {
		return failed(err)
	}
	defer b.Stop()
	fmt.Fprintf(Stderr, "browser-bridge: started %s (pid %d), waiting for the extension…\n", b.Binary, b.Cmd.Process.Pid)
	ext, err := waitForExtension(ctx, layout, b, started)
	if err != nil {
		b.Stop()
		return failed(err)
	}
	line, _ := json.Marshal(map[string]any{
		"pid": b.Cmd.Process.Pid, "browser": b.Binary, "profile": b.Profile, "headless": *headless,
		"extensionId": protocol.DevExtensionID, "extensionDir": b.Extension, "extension": ext,
		"socket": layout.Socket,
	})
	fmt.Fprintln(Stdout, string(line))
	if f, ok := Stdout.(*os.File); ok {
		f.Sync()
	}
	select {
	case <-ctx.Done():
		fmt.Fprintln(Stderr, "browser-bridge: stopping the browser")
		return nil
	case <-b.Done():
		return fmt.Errorf("the browser exited: %v", b.Err())
	}
}

// waitForExtension polls status until an extension that connected after
// the browser started is there. Another browser may be connected to the
// same daemon (and be its default one): the new one is found in status's
// list of browsers, and its own status read.
func waitForExtension(ctx context.Context, layout paths.Layout, b *launcher.Browser, started time.Time) (map[string]any, error) {
	c, err := client.Connect(ctx, layout, "session:launch")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	deadline := time.Now().Add(connectTimeout)
	in := map[string]any{"action": "status"}
	for time.Now().Before(deadline) {
		raw, err := c.Call(ctx, in, 5*time.Second, nil)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var st struct {
			Connected bool `json:"connected"`
			Extension struct {
				ConnectedAt time.Time `json:"connectedAt"`
				Mismatch    string    `json:"mismatch"`
			} `json:"extension"`
			Browsers []struct {
				Slot        int       `json:"slot"`
				Label       string    `json:"label"`
				ConnectedAt time.Time `json:"connectedAt"`
			} `json:"browsers"`
		}
		if err == nil && json.Unmarshal(raw, &st) == nil && st.Connected && st.Extension.ConnectedAt.After(started) {
			if st.Extension.Mismatch != "" {
				return nil, errors.New(st.Extension.Mismatch)
			}
			var ext map[string]any
			json.Unmarshal(raw, &struct {
				E *map[string]any `json:"extension"`
			}{&ext})
			for _, br := range st.Browsers {
				if ext != nil && br.ConnectedAt.Equal(st.Extension.ConnectedAt) {
					ext["slot"], ext["label"] = br.Slot, br.Label
				}
			}
			return ext, nil
		}
		for _, br := range st.Browsers {
			if br.ConnectedAt.After(started) {
				in = map[string]any{"action": "status", "browser": strconv.Itoa(br.Slot)}
				break
			}
		}
		select {
		case <-b.Done():
			return nil, fmt.Errorf("the browser exited before the extension connected: %v", b.Err())
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("the extension did not connect within %s: check that %s can start (it is the native host) and see %s", connectTimeout, os.Args[0], layout.DaemonLog())
}
