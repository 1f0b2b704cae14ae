package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func init() { register("status", status) }

// StartupGrace: right after the daemon starts, hosts that were redialling
// need a moment to reconnect (their backoff is at most a second), so a
// status call that just started the daemon waits that long before it
// reports "not connected".
const StartupGrace = 2500 * time.Millisecond

func status(r *run) (*tool.StatusResult, error) {
	if wait := StartupGrace - time.Since(r.env.Started); wait > 0 {
		r.browser.WaitConnected(r.ctx, wait)
	}
	info := r.browser.Info()
	var off *protocol.Error
	if r.env.Off != nil {
		off = r.env.Off()
	}
	out := &tool.StatusResult{Daemon: r.env.Daemon()}
	if off != nil {
		out.Disabled = off.Message
	}
	if r.env.Paused != nil {
		if p := r.env.Paused(); p != nil {
			out.Paused, out.PausedMessage = true, p.Message
		}
	}
	out.Evaluate = r.env.EvaluateOff != nil && r.env.EvaluateOff() == nil
	if tmpl, from, err := searchTemplate(); err == nil {
		out.Search = tmpl + " (" + from + ")"
	}
	if !info.Connected {
		out.Reason = "no Browser Bridge extension is connected: install it and keep Chrome open, or run `browser-bridge launch`"
		out.Diagnostics = r.env.Diagnostics()
		return out, nil
	}
	out.Connected, out.Extension = true, info
	if r.env.Browsers != nil {
		// Every connected browser; the rest of the answer is about this one.
		out.Browsers = r.env.Browsers(info.Browser)
	}
	if off != nil {
		return out, nil // the rest would be of no use: no other action runs
	}
	if info.Mismatch != "" {
		// Say so instead of failing oddly; the rest needs a working extension.
		out.Problem = &tool.Problem{Code: protocol.CodeVersionMismatch, Message: info.Mismatch}
		return out, nil
	}
	s, err := r.browserState()
	if err != nil {
		return nil, err
	}
	info.FileAccess = s.FileSchemeAccess
	out.Extension = info
	reg := r.reg()
	out.Windows = []tool.Window{}
	for _, w := range s.Windows {
		sw := tool.Window{WindowID: w.WindowID, Incognito: w.Incognito, Focused: w.Focused, Tabs: []tool.StatusTab{}}
		for _, t := range w.Tabs {
			st := tool.StatusTab{TabID: t.TabID, URL: t.URL, Title: t.Title, Active: t.Active, GroupID: t.GroupID, Owned: reg.IsOwned(t.TabID), Stopped: t.Stopped, WorkspacePage: t.WorkspacePage}
			// The user's own incognito browsing is none of the agent's
			// business; the bridge's incognito tabs are.
			if w.Incognito && !st.Owned {
				st.URL, st.Title, st.Stopped, st.Redacted = "", "", nil, true
			}
			sw.Tabs = append(sw.Tabs, st)
		}
		out.Windows = append(out.Windows, sw)
	}
	out.ExtensionRunning = s.Running
	// DevTools or another debugger on a tab: the bridge works beside it,
	// but a page it pauses answers nobody (doctor says so too).
	out.DebuggedTabs = s.DebuggedTabs
	if t, ok := s.ActiveTab(); ok {
		a := &tool.ActiveTab{TabID: t.TabID, WindowID: t.WindowID, URL: t.URL, Title: t.Title}
		if t.Incognito && !reg.IsOwned(t.TabID) {
			a.URL, a.Title, a.Redacted = "", "", true
		}
		out.ActiveTab = a
	}
	out.Workspaces = []tool.Workspace{}
	for _, w := range reg.Workspaces() {
		sw := tool.Workspace{ID: w.ID, WindowID: w.WindowID, Incognito: w.Incognito, GroupID: w.GroupID, Title: w.Title, Color: w.Color, Tabs: []int{}}
		for _, t := range reg.Tabs(w.ID) {
			sw.Tabs = append(sw.Tabs, t.TabID)
		}
		out.Workspaces = append(out.Workspaces, sw)
	}
	// The WebSocket transport for Hive-compatible programs: on or off,
	// where it dials, whether it is connected. An extension too old to say
	// leaves it out.
	if ws, err := r.b.WebSocketStatus(r.ctx); err == nil {
		out.WebSocket = ws
	}
	return out, nil
}
