package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

// This file is the daemon's side of the user's controls: the
// answers to the extension page's requests (ui.state, ui.pause,
// ui.evaluate), the site
// rules and the download cap it gives the extension (policy.set,
// downloads.limit), and the guard every page
// action passes (Env.Guard): a tab in the user's hands, a site the rules
// deny.
//
// Wiring (three lines elsewhere in the daemon):
//   - answerExtension: case protocol.TypeUIState, protocol.TypeUIPause: return d.answerUI(from, typ, frame)
//   - New: Guard: d.guard (instead of d.guardTab, which it calls)
//   - Run, beside go d.sweep(ctx): go d.watchPolicy(ctx)

// uiActions is how many audit entries the page shows.
const uiActions = 20

// answerUI answers the page's requests, which the service worker relays
// over the native link. ui.state is asked every second while the page is
// open, so it reads only the end of the audit trail and is not audited
// itself; ui.pause is the user's switch and is.
func (d *Daemon) answerUI(from browser.Info, typ string, frame []byte) (any, error) {
	switch typ {
	case protocol.TypeUIState:
		return d.uiState(from), nil
	case protocol.TypeUIPause:
		var req protocol.UIPause
		if err := json.Unmarshal(frame, &req); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "ui.pause takes {paused}: %v", err)
		}
		return d.uiPause(req.Paused)
	case protocol.TypeUIEvaluate:
		var req protocol.UIEvaluate
		if err := json.Unmarshal(frame, &req); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "ui.evaluate takes {on}: %v", err)
		}
		return d.uiEvaluate(req.On)
	}
	return nil, protocol.Errorf(protocol.CodeInvalidArgument, "the daemon does not answer %q requests", typ)
}

// uiState is what the page shows of the daemon, in browser ext (whose
// page asks): its workspaces, not another browser's.
func (d *Daemon) uiState(ext browser.Info) protocol.UIState {
	st := protocol.UIState{
		Daemon:     protocol.UIDaemon{Version: version.Version, Protocol: protocol.Version, PID: os.Getpid(), Mismatch: ext.Mismatch},
		Workspaces: []protocol.UIWorkspace{},
		Actions:    []protocol.UIAction{},
	}
	if off := d.env.Off(); off != nil {
		st.Off = off.Message
	}
	s, _ := settings.Load(d.layout) // a file that does not load is Off's to say
	st.Paused = s.Paused
	st.AskBeforeIrreversible = s.AskBeforeIrreversible
	st.Evaluate = s.AllowEvaluate
	st.Policy = rulesOf(s)
	reg := d.reg.For(ext.Instance)
	for _, w := range reg.Workspaces() {
		uw := protocol.UIWorkspace{ID: w.ID, Title: w.Title, Color: w.Color, WindowID: w.WindowID, GroupID: w.GroupID, Incognito: w.Incognito, Tabs: []int{}}
		for _, t := range reg.Tabs(w.ID) {
			uw.Tabs = append(uw.Tabs, t.TabID)
		}
		st.Workspaces = append(st.Workspaces, uw)
	}
	entries, _ := audit.Tail(d.layout, uiActions)
	for _, e := range slices.Backward(entries) {
		st.Actions = append(st.Actions, protocol.UIAction{Time: e.Time, Session: e.Session, Workspace: e.Workspace,
			Action: e.Action, Browser: e.Browser, TabID: e.TabID, URL: e.URL, Params: e.Params, Code: e.Code, Ms: e.Ms})
	}
	return st
}

// uiPause turns the pause on or off, as `browser-bridge pause`/`resume`
// do, and records who did it.
func (d *Daemon) uiPause(paused bool) (protocol.UIPaused, error) {
	action := "resume"
	if paused {
		action = "pause"
	}
	err := d.uiSwitch(action, func(s *settings.Settings) *bool { return &s.Paused }, paused)
	return protocol.UIPaused{Paused: paused}, err
}

// uiEvaluate turns the evaluate action on or off, as `browser-bridge
// policy evaluate on|off` does, and records who did it.
func (d *Daemon) uiEvaluate(on bool) (protocol.UIEvaluated, error) {
	action := "evaluate off"
	if on {
		action = "evaluate on"
	}
	err := d.uiSwitch(action, func(s *settings.Settings) *bool { return &s.AllowEvaluate }, on)
	return protocol.UIEvaluated{On: on}, err
}

// uiSwitch is a switch of the user's on the page: the setting that field
// picks becomes on (an unchanged file is not written), and the trail
// records action as the user's.
func (d *Daemon) uiSwitch(action string, field func(*settings.Settings) *bool, on bool) error {
	s, err := settings.Load(d.layout)
	if err != nil {
		return protocol.Errorf(protocol.CodeInternal, "%v", err)
	}
	if f := field(&s); *f != on {
		*f = on
		if err := settings.Save(d.layout, s); err != nil {
			return protocol.Errorf(protocol.CodeInternal, "saving the settings: %v", err)
		}
	}
	d.audit.Write(audit.Entry{Session: "user", Door: "extension", Action: action, Code: "ok"})
	return nil
}

// rulesOf is the site rules of s as policy.set sends them (lists never
// null).
func rulesOf(s settings.Settings) protocol.PolicySetParams {
	nonNil := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return l
	}
	return protocol.PolicySetParams{Allow: nonNil(s.Policy.Allow), Deny: nonNil(s.Policy.Deny), BuiltInDeny: policy.DefaultDeny,
		RefuseProgramEvaluate: s.RefuseProgramEvaluate}
}

// pushPolicy gives the extension the site rules of l.
func pushPolicy(ctx context.Context, b browser.Caller, l paths.Layout) (protocol.PolicySetParams, error) {
	s, err := settings.Load(l)
	if err != nil {
		return protocol.PolicySetParams{}, err
	}
	rules := rulesOf(s)
	return rules, browser.Verbs{Caller: b}.PolicySet(ctx, rules)
}

// pushDownloadCap gives the extension the cap on one download of s,
// which it holds every bridge download to by itself (a
// download that outlasts the action that started it has nobody else to
// stop it).
func pushDownloadCap(ctx context.Context, b browser.Caller, s settings.Settings) error {
	return browser.Verbs{Caller: b}.DownloadsLimit(ctx, protocol.DownloadsLimitParams{MaxBytes: s.DownloadCap()})
}

// policyEvery is how often watchPolicy looks at the connection and at
// settings.json's size and time (`browser-bridge policy` writes it
// without the daemon): soon after a hello, since the first commands
// follow it, and soon after a change, since a blocked page reloads when
// its rule is lifted. The file is read only when it changed.
const policyEvery = 200 * time.Millisecond

// watchPolicy keeps every connected extension's copy of the site rules
// and the download cap current until ctx ends: after each hello (a new
// connection, a restarted service worker) and whenever they change in
// settings.json.
func (d *Daemon) watchPolicy(ctx context.Context) {
	var (
		given    = map[string]time.Time{} // browser → the connection given the rules
		rules    protocol.PolicySetParams
		capBytes int64
		seen     os.FileInfo // settings.json when last read
	)
	t := time.NewTicker(policyEvery)
	defer t.Stop()
	for {
		fi, _ := os.Stat(settings.File(d.layout))
		changed := (fi == nil) != (seen == nil) || (fi != nil && (fi.Size() != seen.Size() || !fi.ModTime().Equal(seen.ModTime())))
		var fresh []browser.Info
		for _, ext := range d.link.Browsers() {
			if ext.Mismatch == "" && !ext.ConnectedAt.Equal(given[ext.Browser]) {
				fresh = append(fresh, ext)
			}
		}
		if changed || len(fresh) > 0 {
			seen = fi
			if s, err := settings.Load(d.layout); err == nil {
				now := rulesOf(s)
				to := fresh
				if !reflect.DeepEqual(now, rules) || s.DownloadCap() != capBytes {
					to = d.link.Browsers() // new rules: every browser
				}
				for _, ext := range to {
					if ext.Mismatch != "" {
						continue
					}
					cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
					pin := d.link.Pin(ext.Browser, ext.Name)
					if _, err := pushPolicy(cctx, pin, d.layout); err != nil {
						// Once per connection and change, not every tick:
						// the next hello or change tries again.
						d.log.Warn("giving the extension the site rules", "err", err)
					}
					if err := pushDownloadCap(cctx, pin, s); err != nil {
						d.log.Warn("giving the extension the download cap", "err", err)
					}
					cancel()
					given[ext.Browser] = ext.ConnectedAt
				}
				rules, capBytes = now, s.DownloadCap()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// guard is Env.Guard: the hand-off and the extension's blocked page
// before the site rules (guardTab). A tab in the user's hands is
// handoff_in_progress, whatever the action; a tab showing the page with
// which the extension stopped a navigation into a denied site is
// blocked_by_policy naming the rule and the URL it stopped (guardTab
// would see only an extension page, which it leaves to Chrome).
func (d *Daemon) guard(ctx context.Context, b browser.Caller, action string, tab browser.TabInfo) error {
	if b == nil {
		b = d.link
	}
	if err := d.env.Handoffs().Guard(ctx, b, action, tab); err != nil {
		return err
	}
	if onBlockedPage(tab.URL, d.link.Info().ID) {
		stop := tab.Stopped
		if stop == nil {
			// Something showed the page with no stop on record (a page
			// cannot, as it is not web-accessible; a program might): there
			// is nothing to name and nothing to load again.
			return protocol.Errorf(protocol.CodeBlockedByPolicy,
				"%s of tab %d is refused: the tab shows the bridge's blocked page; open an allowed page in it", action, protocol.Tab(tab.TabID))
		}
		if !d.lifted(stop.URL) {
			// The URL is a page's choice: quoted, never taken for the
			// bridge's own words.
			return protocol.Errorf(protocol.CodeBlockedByPolicy,
				"%s of tab %d is refused: the extension stopped the tab from loading %q (%s); open an allowed page in it, or ask the user to change the rules (browser-bridge policy list)",
				action, protocol.Tab(tab.TabID), stop.URL, stopRule(stop))
		}
		// The user has lifted the rule since: the tab gets the page it
		// was stopped from, as it would have without the rule.
		t, err := d.reloadStopped(ctx, b, tab.TabID, stop.URL)
		if err != nil {
			return err
		}
		tab = t
	}
	return d.guardTab(ctx, action, tab)
}

// lifted says whether the site rules now allow stopped, a URL the
// extension stopped a tab from loading.
func (d *Daemon) lifted(stopped string) bool {
	s, err := settings.Load(d.layout)
	return err == nil && webURL(stopped) && s.Policy.Check(stopped).Allowed
}

// webURL says whether raw is an http(s) address: the only kind the
// extension's rules stop and the only kind the guard loads again (never
// file:, javascript: or an extension page, whatever a record says).
func webURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// reloadStopped gives the extension the rules as they are now (it may not
// have them yet: watchPolicy looks every 200 ms) and loads stopped into
// the tab again.
func (d *Daemon) reloadStopped(ctx context.Context, b browser.Caller, tabID int, stopped string) (browser.TabInfo, error) {
	if _, err := pushPolicy(ctx, b, d.layout); err != nil {
		return browser.TabInfo{}, err
	}
	wait := 10 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl)/2)
	}
	return browser.Verbs{Caller: b}.TabNavigate(ctx, protocol.TabNavigateParams{TabID: tabID, URL: stopped, WaitMs: int(wait / time.Millisecond)})
}

// onBlockedPage says whether raw is the extension's page that stands in
// for a navigation its site rules stopped (extension/ui/blocked.html).
// Nothing is read from the rest of the URL: what was stopped is the
// extension's record (TabInfo.Stopped).
func onBlockedPage(raw, extensionID string) bool {
	return extensionID != "" && strings.HasPrefix(raw, "chrome-extension://"+extensionID+"/ui/blocked.html")
}

// stopRule names the rule of a stop for an error.
func stopRule(s *protocol.Stop) string {
	if s.Kind == "allow" || s.Rule == "" {
		return "not on the allow list"
	}
	return fmt.Sprintf("site rule %q", s.Rule)
}
