package actions

import (
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func init() { register("status", status) }

// StartupGrace: right after the daemon starts, hosts that were redialling
// need a moment to reconnect (their backoff is at most a second), so a
// status call that just started the daemon waits that long before it
// reports "not connected".
const StartupGrace = 2500 * time.Millisecond

type statusTab struct {
	TabID    int    `json:"tabId"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Active   bool   `json:"active"`
	Owned    bool   `json:"owned"`
	GroupID  int    `json:"groupId"`
	Redacted bool   `json:"redacted,omitempty"`
	// Stopped is what the site rules stopped the tab from loading, while
	// it shows the extension's blocked page.
	Stopped *protocol.Stop `json:"stopped,omitempty"`
}

type statusWindow struct {
	WindowID  int         `json:"windowId"`
	Incognito bool        `json:"incognito"`
	Focused   bool        `json:"focused"`
	Tabs      []statusTab `json:"tabs"`
}

type statusWorkspace struct {
	ID        string `json:"id"`
	WindowID  int    `json:"windowId"`
	Incognito bool   `json:"incognito"`
	GroupID   int    `json:"groupId"`
	Title     string `json:"title"`
	Color     string `json:"color"`
	Tabs      []int  `json:"tabs"`
}

func status(r *run) (any, error) {
	if wait := StartupGrace - time.Since(r.env.Started); wait > 0 {
		r.browser.WaitConnected(r.ctx, wait)
	}
	info := r.browser.Info()
	var off *protocol.Error
	if r.env.Off != nil {
		off = r.env.Off()
	}
	if !info.Connected {
		out := map[string]any{
			"connected":   false,
			"reason":      "no Browser Bridge extension is connected: install it and keep Chrome open, or run `browser-bridge launch`",
			"diagnostics": r.env.Diagnostics(),
			"daemon":      r.env.Daemon(),
		}
		if off != nil {
			out["disabled"] = off.Message
		}
		r.sayPaused(out)
		return out, nil
	}
	out := map[string]any{"connected": true, "extension": info, "daemon": r.env.Daemon()}
	if r.env.Browsers != nil {
		// Every connected browser; the rest of the answer is about this one.
		out["browsers"] = r.env.Browsers(info.Browser)
	}
	r.sayPaused(out)
	if off != nil {
		// The rest would be of no use: no other action runs.
		out["disabled"] = off.Message
		return out, nil
	}
	if info.Mismatch != "" {
		// Say so instead of failing oddly; the rest needs a working extension.
		out["error"] = map[string]string{"code": "version_mismatch", "message": info.Mismatch}
		return out, nil
	}
	s, err := r.browserState()
	if err != nil {
		return nil, err
	}
	info.FileAccess = s.FileSchemeAccess
	out["extension"] = info
	reg := r.reg()
	windows := []statusWindow{}
	for _, w := range s.Windows {
		sw := statusWindow{WindowID: w.WindowID, Incognito: w.Incognito, Focused: w.Focused, Tabs: []statusTab{}}
		for _, t := range w.Tabs {
			st := statusTab{TabID: t.TabID, URL: t.URL, Title: t.Title, Active: t.Active, GroupID: t.GroupID, Owned: reg.IsOwned(t.TabID), Stopped: t.Stopped}
			// The user's own incognito browsing is none of the agent's
			// business; the bridge's incognito tabs are.
			if w.Incognito && !st.Owned {
				st.URL, st.Title, st.Stopped, st.Redacted = "", "", nil, true
			}
			sw.Tabs = append(sw.Tabs, st)
		}
		windows = append(windows, sw)
	}
	out["windows"] = windows
	if len(s.Running) > 0 {
		out["extensionRunning"] = s.Running
	}
	if len(s.DebuggedTabs) > 0 {
		// DevTools or another debugger on a tab: the bridge works beside
		// it, but a page it pauses answers nobody (doctor says so too).
		out["debuggedTabs"] = s.DebuggedTabs
	}
	if t, ok := s.ActiveTab(); ok {
		a := map[string]any{"tabId": t.TabID, "windowId": t.WindowID, "url": t.URL, "title": t.Title}
		if t.Incognito && !reg.IsOwned(t.TabID) {
			a["url"], a["title"], a["redacted"] = "", "", true
		}
		out["activeTab"] = a
	}
	workspaces := []statusWorkspace{}
	for _, w := range reg.Workspaces() {
		sw := statusWorkspace{ID: w.ID, WindowID: w.WindowID, Incognito: w.Incognito, GroupID: w.GroupID, Title: w.Title, Color: w.Color, Tabs: []int{}}
		for _, t := range reg.Tabs(w.ID) {
			sw.Tabs = append(sw.Tabs, t.TabID)
		}
		workspaces = append(workspaces, sw)
	}
	out["workspaces"] = workspaces
	// The WebSocket transport for Hive-compatible programs: on or off,
	// where it dials, whether it is connected. An extension too old to say
	// leaves it out.
	if ws, err := r.b.WebSocketStatus(r.ctx); err == nil {
		out["websocket"] = ws
	}
	return out, nil
}

// sayPaused adds "paused" (the sentence every other action fails with)
// while the user has paused the bridge.
func (r *run) sayPaused(out map[string]any) {
	if r.env.Paused == nil {
		return
	}
	if p := r.env.Paused(); p != nil {
		out["paused"] = p.Message
	}
}
