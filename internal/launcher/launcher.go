// Package launcher finds a Chromium and starts it with the bridge's
// extension loaded into a profile whose native messaging host is this
// binary. It opens no remote-debugging port: the extension is the only way
// in.
package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/browser-bridge/browser-bridge/extension"
	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// EnvBrowser overrides the browser binary; EnvBrowserArgs adds arguments
// (space separated; tests use it for --silent-debugger-extension-api).
const (
	EnvBrowser     = "BROWSER_BRIDGE_BROWSER"
	EnvBrowserArgs = "BROWSER_BRIDGE_BROWSER_ARGS"
)

// Options say what to start.
type Options struct {
	Browser  string // binary; found when empty
	Headless bool
	Profile  string // user data dir; a fresh temporary one when empty
	StartURL string // the first tab's page; about:blank when empty
	HostExe  string // the browser-bridge binary Chrome starts as host
	Origins  []string
	Stderr   *os.File // the browser's output; discarded when nil
	// Env is the browser's environment, and so its native host's; nil:
	// this process's.
	Env []string
	// Args are more arguments, placed before the start page.
	Args []string
	// ExtraFiles are given to the browser as fd 3 onwards: with
	// --remote-debugging-pipe in Args, it reads CDP from fd 3 and writes
	// to fd 4 (tests own such a connection; launch never opens one).
	ExtraFiles []*os.File
}

// Browser is a running browser.
type Browser struct {
	Cmd       *exec.Cmd
	Binary    string
	Profile   string
	Extension string
	temp      bool
	done      chan struct{}
	err       error
}

// Find returns the browser binary to use: EnvBrowser, then the usual names
// on PATH and install locations. Debian's /usr/bin/chromium is a wrapper
// script that adds flags of its own (an empty --load-extension among them),
// so the real binary behind it is preferred.
func Find() (string, error) {
	if b := os.Getenv(EnvBrowser); b != "" {
		return b, nil
	}
	for _, c := range candidates() {
		if filepath.IsAbs(c) {
			if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
				return c, nil
			}
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium-based browser found: install Chromium (Debian: apt-get install chromium), or pass --browser PATH or set " + EnvBrowser)
}

var chromeVersion = regexp.MustCompile(`Google Chrome (\d+)`)

// checkBranded refuses Google Chrome 137 and later, which ignores
// --load-extension.
func checkBranded(bin string) error {
	if v := brandedVersion(bin); v >= 137 {
		return fmt.Errorf("%s is Google Chrome %d, which ignores --load-extension: use Chromium or Chrome for Testing (--browser PATH), or install the extension into your Chrome with browser-bridge install", bin, v)
	}
	return nil
}

// versionOutput is the major version of Google Chrome in the output of
// its --version, or 0.
func versionOutput(out []byte) int {
	if m := chromeVersion.FindSubmatch(out); m != nil {
		v, _ := strconv.Atoi(string(m[1]))
		return v
	}
	return 0
}

// Start prepares the profile and starts the browser.
func Start(o Options) (*Browser, error) {
	bin := o.Browser
	if bin == "" {
		var err error
		if bin, err = Find(); err != nil {
			return nil, err
		}
	}
	if err := checkBranded(bin); err != nil {
		return nil, err
	}
	if !o.Headless && needsDisplay() && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, errors.New("no display to show a browser window on: pass --headless, or run under Xvfb with DISPLAY set")
	}
	b := &Browser{Binary: bin, Profile: o.Profile, done: make(chan struct{})}
	if b.Profile == "" {
		dir, err := os.MkdirTemp("", "browser-bridge-profile-")
		if err != nil {
			return nil, err
		}
		b.Profile, b.temp = dir, true
	}
	if err := b.prepare(o); err != nil {
		b.cleanup()
		return nil, err
	}
	args := []string{
		"--user-data-dir=" + b.Profile,
		"--no-first-run", "--no-default-browser-check",
		// Without these Chromium keeps reaching out to Google's services.
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--password-store=basic",
		"--load-extension=" + b.Extension,
	}
	if o.Headless {
		// The headless screen defaults to 800×600, which would clamp the
		// workspace windows (1280×900); never use --window-size, which
		// forces every window to one size.
		args = append(args, "--headless=new", "--screen-info={0,0 1920x1080}", "--disable-gpu")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root otherwise
	}
	if extra := strings.Fields(os.Getenv(EnvBrowserArgs)); len(extra) > 0 {
		args = append(args, extra...)
	}
	args = append(args, o.Args...)
	// One start page only: headless Chromium refuses several ("Multiple
	// targets are not supported in headless mode").
	start := o.StartURL
	if start == "" {
		start = "about:blank"
	}
	args = append(args, start)
	cmd := exec.Command(bin, args...)
	cmd.Env = os.Environ()
	if o.Env != nil {
		cmd.Env = o.Env
	}
	cmd.ExtraFiles = o.ExtraFiles
	if o.Stderr != nil {
		cmd.Stdout, cmd.Stderr = o.Stderr, o.Stderr
	}
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		b.cleanup()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	b.Cmd = cmd
	go func() {
		b.err = cmd.Wait()
		close(b.done)
	}()
	return b, nil
}

// prepare writes the extension, the host manifest and the preferences that
// allow the extension in incognito into the profile.
func (b *Browser) prepare(o Options) error {
	b.Extension = filepath.Join(b.Profile, "BrowserBridgeExtension")
	if err := extension.WriteTo(b.Extension); err != nil {
		return fmt.Errorf("writing the extension: %w", err)
	}
	// With a custom --user-data-dir Chromium reads host manifests from
	// <user-data-dir>/NativeMessagingHosts only.
	if err := install.WriteManifest(filepath.Join(b.Profile, "NativeMessagingHosts"), o.HostExe, o.Origins); err != nil {
		return err
	}
	prefs := filepath.Join(b.Profile, "Default", "Preferences")
	if _, err := os.Stat(prefs); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(prefs), 0o700); err != nil {
			return err
		}
		p := map[string]any{"extensions": map[string]any{"settings": map[string]any{
			protocol.DevExtensionID: map[string]any{"incognito": true},
		}}}
		data, _ := json.Marshal(p)
		if err := os.WriteFile(prefs, data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// Done is closed when the browser has exited.
func (b *Browser) Done() <-chan struct{} { return b.done }

// Err is the browser's exit error once Done is closed.
func (b *Browser) Err() error { return b.err }

// Stop ends the browser (SIGTERM to its process group, SIGKILL after 5 s)
// and removes a temporary profile.
func (b *Browser) Stop() {
	if b.Cmd != nil && b.Cmd.Process != nil {
		signalGroup(b.Cmd, syscall.SIGTERM)
		select {
		case <-b.done:
		case <-time.After(5 * time.Second):
			signalGroup(b.Cmd, syscall.SIGKILL)
			<-b.done
		}
	}
	b.cleanup()
}

func (b *Browser) cleanup() {
	if b.temp {
		os.RemoveAll(b.Profile)
	}
}
