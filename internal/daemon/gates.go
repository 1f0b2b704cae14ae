package daemon

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/actions"
	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// This file holds what the daemon checks before a command runs — the
// bridge turned off, paused by the user, a URL the user's site rules
// deny — and what it records after: one audit line per command.

// gate decides whether a call may run at all. Status always runs (it
// reports the state instead).
func (d *Daemon) gate(in *tool.Input, spec *tool.Spec) *protocol.Error {
	if off := d.env.Off(); off != nil && !spec.RunsWhenOff {
		return off
	}
	if spec.RunsWhenOff {
		return nil
	}
	if p := settings.Paused(d.layout); p != nil {
		return p
	}
	// A URL that is no URL to open at all (javascript:, chrome://) is the
	// action's invalid_argument to report; the site rules judge the rest.
	if in.URL != "" && actions.CheckURL(in.URL) == nil {
		return d.checkURL(in.Action, in.URL)
	}
	return nil
}

// checkURL refuses a URL the site rules deny, naming the rule.
func (d *Daemon) checkURL(action, u string) *protocol.Error {
	s, err := settings.Load(d.layout)
	if err != nil {
		return nil // Off has reported it
	}
	if dec := s.Policy.Check(u); !dec.Allowed {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "%s on %s is refused: %s", action, u, dec.Why)
	}
	return nil
}

// siteRules is the engine's Env.SiteRules: the rules of settings.json as
// they are now. Settings that cannot be read give none: Off refuses every
// action then, saying why.
func siteRules(layout paths.Layout) policy.Rules {
	s, err := settings.Load(layout)
	if err != nil {
		return policy.Rules{}
	}
	return s.Policy
}

// guardTab is the engine's Env.Guard: the site rules judged against the
// page an action acts on (or, for a navigation, goes to), so a page the
// agent reached by a click or a redirect into a denied site is not
// driven or read either.
//
// The browser's own pages (chrome://, the new-tab page) are left to the
// engine and Chrome, which refuse them with the codes the reference gives them
// (protected_page, full_page_screenshot_unavailable).
func (d *Daemon) guardTab(ctx context.Context, action string, tab browser.TabInfo) error {
	scheme, _, _ := strings.Cut(strings.ToLower(tab.URL), ":")
	if scheme != "http" && scheme != "https" && scheme != "file" {
		return nil
	}
	if e := d.checkURL(action, tab.URL); e != nil {
		return e
	}
	return nil
}

// auditCall records one action in the audit trail; where is the browser
// it ran in ("" before it reached one).
func (d *Daemon) auditCall(session, where string, in *tool.Input, res any, err error, took time.Duration) {
	e := audit.Entry{Time: time.Now().Add(-took), Session: session, Door: "tool", Action: in.Action, Browser: where, Code: codeOf(err), Ms: took.Milliseconds()}
	switch {
	case in.BrowserWorkspaceID != "":
		e.Workspace = in.BrowserWorkspaceID
	case in.RunID != "":
		e.Workspace = "run:" + in.RunID
	}
	if in.TabID != nil {
		e.TabID = *in.TabID
	}
	e.URL = in.URL
	// The tab the call ended on, as its result says (open's new tab, the
	// page a click led to).
	if res != nil {
		var tab struct {
			TabID int    `json:"tabId"`
			URL   string `json:"url"`
		}
		if b, err := json.Marshal(res); err == nil && json.Unmarshal(b, &tab) == nil {
			if tab.TabID != 0 {
				e.TabID = tab.TabID
			}
			if tab.URL != "" {
				e.URL = tab.URL
			}
		}
	}
	var params map[string]any
	if b, err := json.Marshal(in); err == nil && json.Unmarshal(b, &params) == nil {
		delete(params, "action")
		e.Params = audit.RedactInput(params)
	}
	d.audit.Write(e)
}

// auditVerb records one verb a program ran, in browser where.
func (d *Daemon) auditVerb(session, where string, v protocol.VerbCall, err error, took time.Duration) {
	e := audit.Entry{Time: time.Now().Add(-took), Session: session, Door: "program", Action: v.Verb, Browser: where, Code: codeOf(err), Ms: took.Milliseconds()}
	var params map[string]any
	if json.Unmarshal(v.Params, &params) == nil {
		if id, ok := params["tabId"].(float64); ok {
			e.TabID = int(id)
		}
		e.Params = audit.Redact(params)
	}
	d.audit.Write(e)
}

// codeOf is "ok" or the error's code.
func codeOf(err error) string {
	if err == nil {
		return "ok"
	}
	return protocol.AsError(err).Code
}
