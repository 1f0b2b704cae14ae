package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// installFlags are the flags install and uninstall share.
type installFlags struct {
	extensionDir string
	manifestDirs []string
}

func (f *installFlags) register(fs *flag.FlagSet, layout paths.Layout) {
	fs.StringVar(&f.extensionDir, "extension-dir", layout.Extension(), "the folder for the unpacked extension")
	fs.Func("manifest-dir", "also use this NativeMessagingHosts folder (a browser run with its own --user-data-dir reads <dir>/NativeMessagingHosts); repeatable", func(s string) error {
		abs, err := filepath.Abs(s)
		f.manifestDirs = append(f.manifestDirs, abs)
		return err
	})
}

// hostBinary is this binary's resolved absolute path: what browsers start
// as the native host.
func hostBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe, nil
}

// lastingHost returns the binary browsers are to start: exe itself when it
// runs from a lasting place, else the copy of it in paths.BinDir — made
// when copy is set, used only if it exists when not (enable and uninstall
// follow what install registered). See install.InLastingPlace for the rule.
func lastingHost(exe string, copy bool) (string, error) {
	dir, err := paths.BinDir()
	if err != nil {
		return "", err
	}
	lasting := []string{os.Getenv(paths.EnvInstallDir)}
	// npm's binary is never on PATH itself (npm links a launcher there),
	// and its folder goes with the package: always copy it.
	if os.Getenv(envNPM) != "1" {
		lasting = append(lasting, filepath.SplitList(os.Getenv("PATH"))...)
	}
	if install.InLastingPlace(exe, dir, lasting) {
		return exe, nil
	}
	if copy {
		return install.CopySelf(exe, dir)
	}
	if p := filepath.Join(dir, filepath.Base(exe)); fileExists(p) {
		return p, nil
	}
	return exe, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// runInstall writes the extension, registers the native host with every
// Chromium browser found, creates the per-install secret and prints the
// next step (loading the extension is for the user to do: Chrome does not
// let a program add an unpacked extension).
func runInstall(ctx context.Context, args []string) error {
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	var f installFlags
	f.register(fs, layout)
	origins := fs.String("origins", os.Getenv(nmhost.EnvOrigins), "extra extension IDs or origins the host accepts, comma separated (a published or self-packed build)")
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	ran, err := hostBinary()
	if err != nil {
		return err
	}
	exe, err := lastingHost(ran, true)
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 1)
	}
	copiedFrom := ""
	if exe != ran {
		copiedFrom = ran
	}
	home, _ := os.UserHomeDir()
	var extra []string
	for _, o := range strings.Split(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			extra = append(extra, o)
		}
	}
	res, err := install.Install(install.Options{Exe: exe, ExtensionDir: f.extensionDir, ExtraOrigins: extra,
		Browsers: paths.Browsers(), ManifestDirs: f.manifestDirs, Sandboxed: install.Sandboxed(home)})
	if err != nil {
		code := protocol.CodeInvalidArgument
		if errors.Is(err, install.ErrNoBrowser) {
			code = protocol.CodeExtensionNotConnected
		}
		return printError(protocol.Errorf(code, "%v", err), 1)
	}
	// A state folder found open is made private here; the note it leaves
	// makes the daemon replace the secret (secret.Prepare).
	was, err := paths.MakePrivate(layout.State)
	if err != nil {
		return err
	}
	if was != 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the state folder %s had mode %#o (%s); it is private now, and the daemon replaces the secret when it next starts", layout.State, was, paths.FolderOpenness(was)))
	}
	if _, err := secret.Ensure(layout.Secret()); err != nil {
		return err
	}
	// install enables the bridge (docs/design.md#wire-protocol), also after a disable.
	if err := setDisabled(layout, false); err != nil {
		return err
	}
	return printJSON(struct {
		*install.Result
		CopiedFrom string `json:"copiedFrom,omitempty"`
		Secret     string `json:"secret"`
		Next       string `json:"next"`
	}{res, copiedFrom, layout.Secret(),
		"open chrome://extensions in your browser, turn on Developer mode, choose Load unpacked and pick " + res.ExtensionFolder +
			"; keep the browser open, then run `browser-bridge status`"})
}

// runUninstall undoes install: it stops the daemon and removes the host
// manifests, the extension folder, the origins file and the secret. The
// extension itself stays loaded in the browser until the user removes it.
func runUninstall(ctx context.Context, args []string) error {
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("uninstall", flag.ContinueOnError)
	var f installFlags
	f.register(fs, layout)
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	exe, err := hostBinary()
	if err != nil {
		return err
	}
	if exe, err = lastingHost(exe, false); err != nil {
		return err
	}
	// A daemon that does not go (an agent's MCP server restarted it) does
	// not stop the uninstall: without the manifests no browser reaches it.
	var warning string
	stopped, err := client.StopDaemon(ctx, layout)
	if err != nil {
		warning = err.Error()
	}
	removed, err := install.Uninstall(exe, f.extensionDir, paths.Browsers(), f.manifestDirs)
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "%v", err), 1)
	}
	secretPath := ""
	if err := os.Remove(layout.Secret()); err == nil {
		secretPath = layout.Secret()
	}
	return printJSON(struct {
		*install.Removed
		DaemonStopped bool   `json:"daemonStopped"`
		Secret        string `json:"secret,omitempty"`
		Warning       string `json:"warning,omitempty"`
		Next          string `json:"next"`
	}{removed, stopped, secretPath, warning,
		"remove the extension from your browser: chrome://extensions, Browser Bridge, Remove"})
}

// runDisable turns the bridge off: every action but status fails with
// bridge_disabled at once (the daemon reads the setting on every call),
// and the host is unregistered so browsers stop starting it.
func runDisable(ctx context.Context, args []string) error {
	layout, f, err := enableFlags("disable", args)
	if err != nil {
		return err
	}
	if err := setDisabled(layout, true); err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 1)
	}
	removed, err := install.Unregister(paths.Browsers(), f.manifestDirs)
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "%v", err), 1)
	}
	return printJSON(map[string]any{"enabled": false, "settings": settings.File(layout), "unregistered": removed,
		"next": "`browser-bridge enable` turns the bridge back on"})
}

// runEnable turns the bridge back on and registers the host again with
// every browser found, keeping the extra origins allowed before.
func runEnable(ctx context.Context, args []string) error {
	layout, f, err := enableFlags("enable", args)
	if err != nil {
		return err
	}
	exe, err := hostBinary()
	if err != nil {
		return err
	}
	if exe, err = lastingHost(exe, false); err != nil {
		return err
	}
	if err := setDisabled(layout, false); err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 1)
	}
	home, _ := os.UserHomeDir()
	res, err := install.Register(install.Options{Exe: exe, ExtraOrigins: nmhost.AllowedOrigins(exe)[1:],
		Browsers: paths.Browsers(), ManifestDirs: f.manifestDirs, Sandboxed: install.Sandboxed(home)})
	out := map[string]any{"enabled": true, "settings": settings.File(layout)}
	if err != nil {
		// On, but no browser to register with: launch still works.
		out["warning"] = err.Error()
	} else {
		out["registered"] = res.Manifests
		if len(res.Warnings) > 0 {
			out["warnings"] = res.Warnings
		}
	}
	if off := settings.Off(layout); off != nil {
		out["enabled"], out["warning"] = false, off.Message
	}
	return printJSON(out)
}

func enableFlags(name string, args []string) (paths.Layout, installFlags, error) {
	var f installFlags
	layout, err := paths.Default()
	if err != nil {
		return layout, f, err
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	f.register(fs, layout)
	if err := parseFlagSet(fs, args, 0); err != nil {
		return layout, f, err
	}
	return layout, f, nil
}

// setDisabled turns the bridge off or on in the settings file.
func setDisabled(layout paths.Layout, off bool) error {
	s, err := settings.Load(layout)
	if err != nil {
		return err
	}
	s.Disabled = off
	return settings.Save(layout, s)
}
