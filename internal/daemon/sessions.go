package daemon

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/actions"
	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// DefaultSessionGrace is how long the tabs of an agent's session
// workspace outlive the session: long enough for a client that restarts
// (or a daemon restart it redials through) to reclaim them.
const DefaultSessionGrace = 60 * time.Second

// agentSessions counts the open connections of each agent session (an
// MCP connection: Auth.EndsWithConnection) and cleans up after the last
// one ends. Hive's seed promises tabs "automatically cleaned up when the
// subagent finishes"; peers leave hundreds of groups behind.
type agentSessions struct {
	mu     sync.Mutex
	conns  map[string]int
	timers map[string]*time.Timer
}

// started notes a connection of session and calls off a pending cleanup.
func (a *agentSessions) started(session string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.conns == nil {
		a.conns, a.timers = map[string]int{}, map[string]*time.Timer{}
	}
	a.conns[session]++
	if t := a.timers[session]; t != nil {
		t.Stop()
		delete(a.timers, session)
	}
}

// ended notes that a connection of session ended; after the last one,
// cleanup runs once grace has passed without a new connection.
func (a *agentSessions) ended(session string, grace time.Duration, cleanup func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.conns[session]--; a.conns[session] > 0 {
		return
	}
	delete(a.conns, session)
	if grace < 0 {
		return // the user keeps them
	}
	a.timers[session] = time.AfterFunc(grace, func() {
		a.mu.Lock()
		if a.conns[session] > 0 || a.timers[session] == nil {
			a.mu.Unlock()
			return
		}
		delete(a.timers, session)
		a.mu.Unlock()
		cleanup()
	})
}

// sessionGrace reads the grace period from the settings (keepSessionTabs:
// never clean up; sessionGraceSeconds: another period).
func (d *Daemon) sessionGrace() time.Duration {
	s, err := settings.Load(d.layout)
	switch {
	case err != nil || s.KeepSessionTabs:
		return -1
	case s.SessionGraceSeconds > 0:
		return time.Duration(s.SessionGraceSeconds) * time.Second
	}
	return DefaultSessionGrace
}

// cleanupSession closes the tabs of an ended agent session's own
// workspace. Tabs the user took over — moved out of the workspace's tab
// group — are left, and are the user's from then on. Run and named
// workspaces stay until closeWorkspace or their entries expire.
func (d *Daemon) cleanupSession(session string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The workspace is in the registry of a connected browser: an
	// extension that is reconnecting at this moment is waited for. A
	// session may have worked in several browsers; each has its own
	// workspace of that name.
	if err := d.link.Ready(ctx); err != nil {
		d.log.Warn("could not close the workspace of an ended agent session", "session", session, "err", err)
		return
	}
	for _, info := range d.link.Browsers() {
		d.cleanupSessionIn(ctx, session, info)
	}
}

// cleanupSessionIn closes session's workspace in one browser.
func (d *Daemon) cleanupSessionIn(ctx context.Context, session string, info browser.Info) {
	b := d.pinned(d.slotOf(info))
	reg := d.reg.For(info.Instance)
	// A workspace whose pages are all closed still has its window (kept
	// open by the workspace page, extension/handlers/windows.js): it is
	// closed too.
	ws, ok := reg.Workspace(session)
	if !ok {
		return
	}
	if s, err := (browser.Verbs{Caller: b}).BrowserState(ctx); err == nil {
		group := ws.GroupID
		// The group of the workspace page in the workspace's window is
		// the workspace's: when the user closed that page alone, the
		// extension put its tabs back into a new group with a new page
		// (extension/handlers/windows.js regroup).
		for _, t := range s.Tabs() {
			if t.WorkspacePage && t.WindowID == ws.WindowID && t.GroupID >= 0 {
				group = t.GroupID
			}
		}
		for _, t := range s.Tabs() {
			if owned, ok := reg.Owned(t.TabID); ok && owned.Workspace == session && group > 0 && t.GroupID != group {
				reg.RemoveTab(t.TabID)
			}
		}
	}
	start := time.Now()
	in := &tool.Input{Action: "close", CloseWorkspace: true}
	_, err := actions.RunOn(ctx, d.env, b, session, in, nil)
	d.log.Info("closed the workspace of an ended agent session", "session", session, "err", err)
	e := audit.Entry{Session: session, Door: "daemon", Action: "close (session ended)", Workspace: session, Code: codeOf(err), Ms: time.Since(start).Milliseconds()}
	d.audit.Write(e)
}

// closeExpired closes the workspaces that expired (registry.Expired: named
// and run workspaces nothing used for 30 minutes), window and group, in
// every connected browser, as closeWorkspace would: their windows stay
// open for their whole life (the workspace page keeps them, extension/
// handlers/windows.js), so without this a workspace the agent forgot
// would stay until the browser closes. A browser that is not connected
// keeps its expired workspaces until it is. keepSessionTabs keeps them
// all, as it keeps the tabs of ended sessions. A close that fails is
// tried again after a wait that doubles (retryLater).
func (d *Daemon) closeExpired(ctx context.Context) {
	if s, err := settings.Load(d.layout); err != nil || s.KeepSessionTabs {
		return
	}
	listed := map[string]bool{}
	defer func() {
		for key := range d.retries {
			if !listed[key] {
				delete(d.retries, key) // closed, used again, or its browser gone
			}
		}
	}()
	for _, info := range d.link.Browsers() {
		expired := d.reg.For(info.Instance).Expired()
		if len(expired) == 0 {
			continue
		}
		b := d.pinned(d.slotOf(info))
		for _, ws := range expired {
			key := info.Instance + "\x00" + ws.ID
			listed[key] = true
			if time.Now().Before(d.retries[key].at) {
				continue
			}
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			start := time.Now()
			closed, err := actions.CloseExpired(ctx, d.env, b, ws.ID)
			cancel()
			if errors.Is(err, context.DeadlineExceeded) {
				continue // busy (an open holds the workspace): the next sweep tries again
			}
			if err != nil {
				d.retryLater(key)
			} else {
				delete(d.retries, key)
			}
			if !closed && err == nil {
				continue // used again since it was listed
			}
			d.log.Info("closed an expired workspace", "workspace", ws.ID, "err", err)
			d.audit.Write(audit.Entry{Door: "daemon", Action: "close (workspace expired)", Workspace: ws.ID, Code: codeOf(err), Ms: time.Since(start).Milliseconds()})
		}
	}
}

// retry is when the sweep tries again to close an expired workspace whose
// close failed, and how long it waited last.
type retry struct {
	at   time.Time
	wait time.Duration
}

// maxRetryWait caps the wait between two tries to close an expired
// workspace that failed (the expiry itself is 30 minutes).
const maxRetryWait = 30 * time.Minute

// retryLater doubles the wait before the next try to close the expired
// workspace of key, from one sweep up to maxRetryWait: a browser that
// keeps refusing the close (a window the user keeps, a stuck tab) is not
// asked again, nor is its failure written to the audit trail, every sweep.
func (d *Daemon) retryLater(key string) {
	if d.retries == nil {
		d.retries = map[string]retry{}
	}
	wait := min(max(2*d.retries[key].wait, d.sweepEvery), maxRetryWait)
	d.retries[key] = retry{at: time.Now().Add(wait), wait: wait}
}
