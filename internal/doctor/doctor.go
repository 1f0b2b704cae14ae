// Package doctor checks every link of the chain — binary, state folder,
// secret, daemon, host manifests, extension — and says which one is broken
// and how to fix it (SPEC §6). Each check is a small function; Run runs
// them in order and stops asking the daemon once it does not answer.
package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
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
	// Status runs the status action through the daemon (nil: the daemon
	// did not answer; the extension checks are then skipped).
	Status func(ctx context.Context) (json.RawMessage, error)
}

// Run runs the checks.
func Run(ctx context.Context, o Options) Report {
	r := Report{OK: true, Version: version.Version, Binary: o.Exe, Secret: o.Layout.Secret(), Socket: o.Layout.Socket}
	add := func(c Check) {
		r.Checks = append(r.Checks, c)
		if !c.OK {
			r.OK = false
		}
	}
	add(checkDisabled(o.Layout))
	add(checkState(o.Layout))
	add(checkSecret(o.Layout))
	for _, c := range checkManifests(o.Exe, o.Browsers) {
		add(c)
	}
	if o.Status == nil {
		add(Check{Name: "daemon", Detail: "the daemon did not start or does not answer", Fix: "look at " + o.Layout.DaemonLog() + ", then run `browser-bridge daemon` in a terminal to see why it stops"})
		return r
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	raw, err := o.Status(sctx)
	if err != nil {
		add(Check{Name: "daemon", Detail: err.Error(), Fix: "look at " + o.Layout.DaemonLog()})
		return r
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

func checkState(l paths.Layout) Check {
	c := Check{Name: "state folder", Detail: l.State}
	fi, err := os.Lstat(l.State)
	switch {
	case err != nil:
		c.Detail, c.Fix = fmt.Sprintf("%s: %v", l.State, err), "run any browser-bridge command (it creates the folder), or `browser-bridge install`"
	case !fi.IsDir():
		c.Detail, c.Fix = l.State+" is not a folder", "remove it; the bridge makes the folder again"
	case fi.Mode().Perm()&0o077 != 0:
		c.Detail, c.Fix = fmt.Sprintf("%s has mode %#o: others can read the bridge's state", l.State, fi.Mode().Perm()), "chmod 700 "+l.State
	default:
		c.OK, c.Detail = true, l.State+" (private)"
	}
	return c
}

func checkSecret(l paths.Layout) Check {
	c := Check{Name: "secret", Detail: l.Secret()}
	fi, err := os.Lstat(l.Secret())
	switch {
	case err != nil:
		c.Detail, c.Fix = fmt.Sprintf("%s: %v", l.Secret(), err), "run `browser-bridge install` (or any command: the daemon creates it)"
	case !fi.Mode().IsRegular():
		c.Detail, c.Fix = l.Secret()+" is not a regular file", "remove it and run `browser-bridge install`"
	case fi.Mode().Perm() != 0o600:
		c.Detail, c.Fix = fmt.Sprintf("%s has mode %#o, not 0600", l.Secret(), fi.Mode().Perm()), "chmod 600 "+l.Secret()
	default:
		c.OK, c.Detail = true, l.Secret()+" (0600)"
	}
	return c
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
		if _, err := os.Stat(filepath.Dir(b.ManifestDir)); err != nil {
			continue // that browser is not installed
		}
		p := filepath.Join(b.ManifestDir, install.ManifestName)
		c := Check{Name: "host manifest: " + b.Name, Detail: p}
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
		case statErr != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0:
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

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
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
		Error *protocol.Error `json:"error"`
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
	if st.Error != nil {
		ext.Detail, ext.Fix = st.Error.Message, "reload the extension from the folder `browser-bridge install` writes, or update the binary"
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
	return append(out, inc)
}

// Status returns a Status function that runs the status action through the
// daemon of layout (starting it when none runs), or nil when it cannot be
// reached.
func Status(ctx context.Context, layout paths.Layout) func(context.Context) (json.RawMessage, error) {
	c, err := client.Connect(ctx, layout, "session:doctor")
	if err != nil {
		return nil
	}
	return func(ctx context.Context) (json.RawMessage, error) {
		defer c.Close()
		return c.Call(ctx, map[string]any{"action": "status"}, 5*time.Second, nil)
	}
}
