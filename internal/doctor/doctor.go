// Package doctor checks every link of the chain — binary, state folder,
// secret, daemon, host manifests, extension — and says which one is broken
// and how to fix it (docs/design.md#parts). Each check is a small function; Run runs
// those of the files first, on the files as they are, and only then starts
// the daemon and asks it.
package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

// Check is the outcome of one check.
type Check struct {
	Name string `json:"check"`
	OK   bool   `json:"ok"`
	// Detail says what was found; Fix, when not OK, what to do.
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// Warn marks a finding that does not stop the bridge (a browser
	// without the host registered, for instance); OK is true then.
	Warn bool `json:"warning,omitempty"`
}

// Report is every check, and whether all passed.
type Report struct {
	OK      bool    `json:"ok"`
	Version string  `json:"version"`
	Binary  string  `json:"binary"`
	Secret  string  `json:"secret"`
	Socket  string  `json:"socket"`
	Checks  []Check `json:"checks"`
}

// Options are the facts the checks need.
type Options struct {
	Layout   paths.Layout
	Exe      string          // this binary, resolved
	Browsers []paths.Browser // where host manifests may be
	// Status runs the status action through the daemon, starting it when
	// none runs (see Status). Run calls it only after the state checks, so
	// they see the files as they were, not as a new daemon left them; nil
	// skips the daemon and extension checks.
	Status func(ctx context.Context) (json.RawMessage, error)
}

// Run runs the checks: first those that read files as they are (state
// folder, secret, host binary, manifests), then, if the state is sound,
// those that need the daemon. A daemon started on loose state would change
// it (make the folder private, replace the secret), so doctor reports the
// state and does not start one.
func Run(ctx context.Context, o Options) (r Report) {
	r = Report{OK: true, Version: version.Version, Binary: o.Exe, Secret: o.Layout.Secret(), Socket: o.Layout.Socket}
	add := func(c Check) int {
		r.Checks = append(r.Checks, c)
		return len(r.Checks) - 1
	}
	defer func() {
		for _, c := range r.Checks {
			if !c.OK {
				r.OK = false
			}
		}
	}()
	add(checkDisabled(o.Layout))
	add(checkEvaluate(o.Layout))
	st, sec := checkState(o.Layout), checkSecret(o.Layout)
	stAt, secAt := add(st), add(sec)
	if o.Exe != "" {
		add(checkHost(o.Exe))
	}
	for _, c := range checkManifests(o.Exe, o.Browsers) {
		add(c)
	}
	if !st.OK || !sec.OK {
		add(Check{Name: "daemon", OK: true, Warn: true, Detail: "not checked: doctor would start the daemon, and that changes the state reported above",
			Fix: "fix the state folder and the secret as said above, then run `browser-bridge doctor` again"})
		return r
	}
	if o.Status == nil {
		return r
	}
	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	raw, err := o.Status(sctx)
	if err != nil {
		add(Check{Name: "daemon", Detail: "the daemon did not start or does not answer: " + err.Error(),
			Fix: "look at " + o.Layout.DaemonLog() + ", then run `browser-bridge daemon` in a terminal to see why it stops"})
		return r
	}
	// What was not there yet the daemon has made: look again.
	if st.Warn {
		r.Checks[stAt] = checkState(o.Layout)
	}
	if sec.Warn {
		r.Checks[secAt] = checkSecret(o.Layout)
	}
	for _, c := range checkStatus(raw) {
		add(c)
	}
	return r
}

func checkDisabled(l paths.Layout) Check {
	if off := settings.Off(l); off != nil {
		return Check{Name: "enabled", Detail: off.Message, Fix: "run `browser-bridge enable` (and unset " + protocol.EnvDisable + " if it is set)"}
	}
	return Check{Name: "enabled", OK: true, Detail: "the bridge is on"}
}

// checkEvaluate says whether the agent may run JavaScript in pages (the
// evaluate action): either way is fine, so it is never a failure.
func checkEvaluate(l paths.Layout) Check {
	if settings.EvaluateOff(l) != nil {
		return Check{Name: "evaluate", OK: true, Detail: "off: the agent may not run JavaScript in pages (`browser-bridge policy evaluate on` allows it)"}
	}
	return Check{Name: "evaluate", OK: true, Detail: "on: the agent may run JavaScript in pages (`browser-bridge policy evaluate off` stops it)"}
}

// restart is the fix for state that others may have seen: a daemon that
// starts on it makes the folder private and replaces the secret
// (secret.Prepare); one that runs already keeps what it has.
func restart(l paths.Layout) string {
	return "stop the daemon if one runs (its pid is in " + l.DaemonLock() + "), then run any browser-bridge command (e.g. `browser-bridge status`): the next daemon makes the folder private and replaces the secret"
}

// checkState looks at the state folder as it is: a folder (not a
// symlink) of this user, mode 0700, with nothing of another user in it.
func checkState(l paths.Layout) Check {
	c := Check{Name: "state folder", Detail: l.State}
	fi, err := os.Lstat(l.State)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.OK, c.Warn = true, true
		c.Detail, c.Fix = l.State+" does not exist yet", "any browser-bridge command creates it (the daemon does), or `browser-bridge install`"
		return c
	case err != nil:
		c.Detail, c.Fix = fmt.Sprintf("%s: %v", l.State, err), "check that you may read "+filepath.Dir(l.State)
		return c
	case !fi.IsDir():
		c.Detail, c.Fix = l.State+" is not a folder (it is "+fi.Mode().Type().String()+")", "remove it; the bridge makes the folder again"
		return c
	}
	if uid, ok := paths.Owner(fi); ok && uid != os.Getuid() {
		c.Detail = fmt.Sprintf("%s belongs to uid %d, not to you (uid %d): that user controls the bridge's state and secret", l.State, uid, os.Getuid())
		c.Fix = "set " + paths.EnvHome + " to a folder of your own, or remove " + l.State
		return c
	}
	if perm, err := paths.OthersMode(l.State, fi); err != nil || perm != 0 {
		if err != nil {
			c.Detail, c.Fix = err.Error(), "check that you may read "+l.State
			return c
		}
		c.Detail = fmt.Sprintf("%s has mode %s: %s, so the secret in it may have been read", l.State, unixMode(fi.Mode()|perm), paths.FolderOpenness(perm))
		c.Fix = restart(l) + " (chmod 700 alone keeps a secret others may know)"
		if perm&0o022 != 0 {
			c.Fix = "others could have put files in it (the extension folder among them): unless you opened it yourself, remove " + l.State +
				" and run `browser-bridge install`; otherwise " + restart(l)
		}
		return c
	}
	if foreign := foreignEntries(l.State); len(foreign) > 0 {
		c.Detail = l.State + " holds files of other users: " + strings.Join(foreign, ", ")
		c.Fix = "remove them (they are not the bridge's), and if you did not put them there, remove " + l.State + " and run `browser-bridge install`"
		return c
	}
	c.OK, c.Detail = true, l.State+" (0700, yours)"
	return c
}

// foreignEntries lists the entries of dir that belong to another user.
func foreignEntries(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if uid, ok := paths.Owner(fi); ok && uid != os.Getuid() {
			out = append(out, fmt.Sprintf("%s (uid %d)", e.Name(), uid))
		}
	}
	return out
}

// checkSecret looks at the secret as it is (secret.Check), and at the note
// a process that found the folder open leaves for the daemon.
func checkSecret(l paths.Layout) Check {
	c := Check{Name: "secret", Detail: l.Secret()}
	err := secret.Check(l.Secret())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.OK, c.Warn = true, true
		c.Detail, c.Fix = l.Secret()+" does not exist yet", "the daemon creates it when it starts (any browser-bridge command starts it), or `browser-bridge install`"
	case err != nil:
		c.Detail = err.Error()
		c.Fix = restart(l) + " (chmod 600 " + l.Secret() + " alone keeps a secret others may know)"
	default:
		if note, err := os.ReadFile(l.SecretExposed()); err == nil {
			c.Detail = "the state folder was found open and the secret is not replaced yet: " + strings.TrimSpace(string(note))
			c.Fix = restart(l)
			return c
		}
		c.OK, c.Detail = true, l.Secret()+" (0600, yours)"
	}
	return c
}

// checkHost judges this binary as the native host (install.CheckHost).
func checkHost(exe string) Check {
	warnings, err := install.CheckHost(exe)
	switch {
	case err != nil:
		return Check{Name: "host binary", Detail: err.Error(), Fix: "move browser-bridge to a folder only you can write (e.g. ~/.local/bin) and run `browser-bridge install` from there"}
	case len(warnings) > 0:
		return Check{Name: "host binary", OK: true, Warn: true, Detail: strings.Join(warnings, "; ")}
	}
	return Check{Name: "host binary", OK: true, Detail: exe + " (only you or root can change it)"}
}

// checkManifests looks at the host manifest of every browser found: a
// manifest must name an executable host and allow the bridge's origin.
// A browser without one is a warning (the user may not use it); no
// manifest anywhere is a failure, unless the bridge is used through
// launch only (which registers its own), which status then shows.
func checkManifests(exe string, browsers []paths.Browser) []Check {
	var out []Check
	found := 0
	for _, b := range browsers {
		dir := b.ConfigDir
		if dir == "" {
			dir = filepath.Dir(b.ManifestDir)
		}
		if _, err := os.Stat(dir); err != nil {
			continue // that browser is not installed
		}
		// On Windows the browser reads the manifest its registry key
		// names; the key is checked first.
		p, registered, err := install.RegisteredManifest(b)
		c := Check{Name: "host manifest: " + b.Name, Detail: p}
		key := `HKCU\` + b.RegistryKey + `\` + protocol.NativeHostName
		switch {
		case err != nil:
			c.Detail, c.Fix = err.Error(), "run `browser-bridge install` again"
			out = append(out, c)
			continue
		case !registered:
			c.OK, c.Warn = true, true
			c.Detail, c.Fix = "no registry key "+key+": "+b.Name+" cannot start the host", "run `browser-bridge install` if you use "+b.Name
			out = append(out, c)
			continue
		case b.RegistryKey != "" && p == "":
			c.Detail, c.Fix = key+" has no default value (the manifest's path)", "run `browser-bridge install` again"
			out = append(out, c)
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			c.OK, c.Warn = true, true
			c.Detail, c.Fix = p+" does not exist: "+b.Name+" cannot start the host", "run `browser-bridge install` if you use "+b.Name
			out = append(out, c)
			continue
		}
		found++
		var m struct {
			Name    string   `json:"name"`
			Path    string   `json:"path"`
			Origins []string `json:"allowed_origins"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			c.Detail, c.Fix = fmt.Sprintf("%s is not valid JSON: %v", p, err), "run `browser-bridge install` again"
			out = append(out, c)
			continue
		}
		fi, statErr := os.Stat(m.Path)
		switch {
		case m.Name != protocol.NativeHostName:
			c.Detail, c.Fix = fmt.Sprintf("%s registers %q, not %q", p, m.Name, protocol.NativeHostName), "run `browser-bridge install` again"
		case statErr != nil || fi.IsDir() || paths.Perm(m.Path, fi)&0o111 == 0:
			c.Detail, c.Fix = fmt.Sprintf("the host %s it names is not an executable file", m.Path), "run `browser-bridge install` again with the binary you use"
		case !slices.Contains(m.Origins, "chrome-extension://"+protocol.DevExtensionID+"/"):
			c.Detail, c.Fix = fmt.Sprintf("%s does not allow the extension %s", p, protocol.DevExtensionID), "run `browser-bridge install` again"
		default:
			c.OK = true
			c.Detail = fmt.Sprintf("%s starts %s", p, m.Path)
			if same, _ := sameFile(m.Path, exe); !same {
				c.Warn = true
				c.Detail += fmt.Sprintf(", not this binary (%s); a host of another version is replaced by this one's daemon", exe)
			}
		}
		out = append(out, c)
	}
	if found == 0 {
		out = append(out, Check{Name: "host manifests", OK: true, Warn: true,
			Detail: "no browser of this user has the host registered; only browsers started with `browser-bridge launch` can connect",
			Fix:    "run `browser-bridge install` to use your own browser"})
	}
	return out
}

// sameFile says whether a and b are the same binary. install registers
// a copy of a binary run from a temporary place (the
// npx cache, Downloads, a build folder; install.InLastingPlace), so a
// file with the same bytes counts as the same binary too: that copy is
// this binary, not a host of another version.
func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	if os.SameFile(fa, fb) {
		return true, nil
	}
	if fa.Size() != fb.Size() {
		return false, nil
	}
	da, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	db, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(da, db), nil
}

// checkStatus reads the daemon's status: the daemon itself, the extension
// (connected, same version), and the extension's permissions.
func checkStatus(raw json.RawMessage) []Check {
	var st struct {
		Connected bool `json:"connected"`
		Daemon    struct {
			PID     int    `json:"pid"`
			Version string `json:"version"`
		} `json:"daemon"`
		Extension struct {
			Version          string `json:"version"`
			Protocol         int    `json:"protocol"`
			IncognitoAllowed bool   `json:"incognitoAllowed"`
			FileAccess       *bool  `json:"fileAccess"`
		} `json:"extension"`
		DebuggedTabs []int                     `json:"debuggedTabs"`
		Error        *protocol.Error           `json:"error"`
		WebSocket    *protocol.WebSocketStatus `json:"websocket"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return []Check{{Name: "daemon", Detail: "status was not understood: " + err.Error(), Fix: "update browser-bridge"}}
	}
	out := []Check{{Name: "daemon", OK: st.Daemon.Version == version.Version,
		Detail: fmt.Sprintf("pid %d, version %s", st.Daemon.PID, st.Daemon.Version)}}
	if !out[0].OK {
		out[0].Fix = "stop the old daemon; the next command starts one of this version"
	}
	if !st.Connected {
		return append(out, Check{Name: "extension", Detail: "no browser extension is connected",
			Fix: "load the extension (see `browser-bridge install`) and keep the browser open, or run `browser-bridge launch`"})
	}
	ext := Check{Name: "extension", OK: st.Error == nil, Detail: fmt.Sprintf("connected, version %s, protocol %d", st.Extension.Version, st.Extension.Protocol)}
	switch {
	case st.Error != nil:
		ext.Detail, ext.Fix = st.Error.Message, "reload the extension from the folder `browser-bridge install` writes, or update the binary"
	case st.Extension.Version != "" && st.Extension.Version != version.Version:
		// The same protocol works, but the two ship together: an
		// extension left behind by an update lacks the binary's fixes.
		ext.Warn = true
		ext.Detail = fmt.Sprintf("connected, but the extension is version %s and this binary %s (protocol %d)", st.Extension.Version, version.Version, st.Extension.Protocol)
		ext.Fix = "run `browser-bridge install` again, then reload Browser Bridge in chrome://extensions (or restart `browser-bridge launch`)"
	}
	out = append(out, ext)
	if st.Extension.FileAccess != nil {
		c := Check{Name: "file access", OK: true, Detail: "the extension may read file URLs (upload works)"}
		if !*st.Extension.FileAccess {
			c.Warn = true
			c.Detail = "the extension may not read file URLs, so upload fails (Chrome refuses DOM.setFileInputFiles)"
			c.Fix = "chrome://extensions, Browser Bridge, Details: turn on \"Allow access to file URLs\""
		}
		out = append(out, c)
	}
	inc := Check{Name: "incognito", OK: true, Detail: "the extension is allowed in incognito"}
	if !st.Extension.IncognitoAllowed {
		inc.Warn = true
		inc.Detail = "the extension is not allowed in incognito, so incognito workspaces cannot open"
		inc.Fix = "chrome://extensions, Browser Bridge, Details: turn on \"Allow in Incognito\""
	}
	out = append(out, inc)
	if ws := st.WebSocket; ws != nil {
		c := Check{Name: "websocket", OK: true, Detail: "off (browser-bridge websocket enable turns it on for Hive-compatible programs)"}
		switch {
		case ws.Enabled && ws.Connected:
			c.Detail = "on, connected to " + ws.URL
		case ws.Enabled:
			c.Warn = true
			c.Detail = "on, not connected to " + ws.URL
			if ws.LastError != "" {
				c.Detail += ": " + ws.LastError
			}
			c.Fix = "start the program's server at that address, or browser-bridge websocket disable"
		}
		if ws.Enabled && ws.TokenSet {
			c.Detail += " (token set)"
		}
		out = append(out, c)
	}
	if len(st.DebuggedTabs) > 0 {
		// Chrome lets several debuggers in; the bridge works beside
		// DevTools, but a page paused at a breakpoint answers nobody.
		out = append(out, Check{Name: "other debuggers", OK: true, Warn: true,
			Detail: fmt.Sprintf("another debugger (DevTools or another extension) is attached to tab %s; the bridge's commands there time out while it pauses the page", joinInts(st.DebuggedTabs)),
			Fix:    "resume or close DevTools on that tab"})
	}
	return out
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// Status returns a Status function that runs the status action through the
// daemon of layout, starting it when none runs. It connects only when
// called: Run calls it after the checks of the files.
func Status(layout paths.Layout) func(context.Context) (json.RawMessage, error) {
	return func(ctx context.Context) (json.RawMessage, error) {
		c, err := client.Connect(ctx, layout, "session:doctor")
		if err != nil {
			return nil, err
		}
		defer c.Close()
		return c.Call(ctx, map[string]any{"action": "status"}, 5*time.Second, nil)
	}
}

// unixMode prints a file mode as people read it from ls and chmod: four
// octal digits with the setuid, setgid and sticky bits where chmod puts
// them (1777, not Go's 04000777), and "sticky" named.
func unixMode(m fs.FileMode) string {
	v := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	s := fmt.Sprintf("%04o", v)
	if m&fs.ModeSticky != 0 {
		s += " (sticky)"
	}
	return s
}
