package actions

import (
	"context"
	"slices"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("close", closeTabs) }

// closeTabs closes a tab the bridge opened, or with closeWorkspace the
// workspace's tabs and those of its windows that hold nothing else. It never
// closes a tab the user opened, nor one of another session's workspace
// unless the call names that workspace (see mayTouch).
func closeTabs(r *run) (*tool.CloseResult, error) {
	if r.in.CloseWorkspace {
		return r.closeWorkspace(false)
	}
	if r.in.TabID == nil {
		return nil, invalid("close needs tabId (a tab the bridge opened) or closeWorkspace: true")
	}
	id := *r.in.TabID
	t, err := r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: id})
	if err != nil {
		if protocol.CodeOf(err) == protocol.CodeTabNotFound {
			r.reg().RemoveTab(id)
		}
		return nil, err
	}
	if t.WorkspacePage {
		return nil, workspacePageRefused(r.reg().Workspaces(), r.in.Action, t) // steps.go
	}
	if _, ok := r.reg().Owned(id); !ok {
		return nil, protocol.Errorf(protocol.CodeNotOwned, "tab %d was not opened by the bridge, and close only closes the bridge's own tabs; leave it to the user", protocol.Tab(id))
	}
	if err := r.guards().mayTouch(id); err != nil {
		return nil, err
	}
	if err := r.b.TabClose(r.ctx, protocol.TabCloseParams{TabID: id}); err != nil {
		return nil, err
	}
	r.reg().RemoveTab(id)
	r.env.lastReads.forgetTab(r.instance, id) // changes.go
	r.env.reportMarks.Delete(reportKey{r.instance, id})
	return &tool.CloseResult{TabID: id, URL: t.URL, Title: t.Title, ClosedTabs: []int{id}}, nil
}

// claimed says whether a workspace other than id calls window windowID
// its home.
func claimed(all []registry.Workspace, id string, windowID int) bool {
	return slices.ContainsFunc(all, func(w registry.Workspace) bool { return w.ID != id && w.WindowID == windowID })
}

// CloseExpired closes workspace id in browser b, window and group, as
// closeWorkspace does, if it is still expired when its turn comes (see
// closeWorkspace); closed says whether it was. The daemon's sweep calls
// it for each workspace registry.Expired listed.
func CloseExpired(ctx context.Context, env *Env, b Browser, id string) (closed bool, err error) {
	r := newRun(ctx, env, b, "", &tool.Input{Action: "close", CloseWorkspace: true, BrowserWorkspaceID: id}, nil)
	res, err := r.closeWorkspace(true)
	return res != nil, err
}

// closeWorkspace closes the workspace's tabs and its window, unless the
// user's own tabs are in it, under the workspace's lock (an open into it
// does not run beside). With onlyExpired it closes nothing unless the
// workspace is still expired (registry.Expired) once it holds that lock,
// which open holds until the workspace is saved: an open that came after
// the daemon's sweep listed the workspace keeps it (nil result).
func (r *run) closeWorkspace(onlyExpired bool) (*tool.CloseResult, error) {
	id := r.workspaceID()
	reg := r.reg()
	unlock, err := r.env.workspaces.lock(r.ctx, id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if onlyExpired && !slices.ContainsFunc(reg.Expired(), func(w registry.Workspace) bool { return w.ID == id }) {
		return nil, nil
	}
	s, err := r.browserState() // also drops registry entries of closed tabs
	if err != nil {
		return nil, err
	}
	res := &tool.CloseResult{Workspace: id, ClosedTabs: []int{}}
	mine := map[int]bool{}
	for _, t := range reg.Tabs(id) {
		mine[t.TabID] = true
	}
	ws, hasWS := reg.Workspace(id)
	for _, w := range s.Windows {
		var owned, pages []int
		others := 0
		for _, t := range w.Tabs {
			switch {
			case mine[t.TabID]:
				owned = append(owned, t.TabID)
			case t.WorkspacePage:
				pages = append(pages, t.TabID)
			default:
				others++
			}
		}
		// The workspace's window stays open while its workspace lives,
		// with its workspace page, even when the agent closed every page
		// in it: it closes here.
		home := hasWS && w.WindowID == ws.WindowID
		if len(owned) == 0 && !home {
			continue
		}
		// A window of only the workspace's tabs and a workspace page that
		// no other workspace calls home is one of this workspace's too:
		// an open whose daemon died before the registry saved its window
		// left it, and the next open made the window the registry knows.
		stray := !home && others == 0 && !claimed(reg.Workspaces(), id, w.WindowID)
		if others == 0 && (home || stray) {
			if err := r.b.WindowClose(r.ctx, protocol.WindowCloseParams{WindowID: w.WindowID}); err != nil {
				return nil, err
			}
			res.ClosedWindows = append(res.ClosedWindows, w.WindowID)
		} else {
			// The user's tabs keep the window; the workspace page goes
			// (another window's page is its own workspace's).
			tabs := owned
			if home {
				tabs = append(tabs, pages...)
			}
			if len(tabs) > 0 {
				if err := r.b.TabClose(r.ctx, protocol.TabCloseParams{TabIDs: tabs}); err != nil {
					return nil, err
				}
			}
		}
		for _, t := range owned {
			res.ClosedTabs = append(res.ClosedTabs, t)
			reg.RemoveTab(t)
			r.env.lastReads.forgetTab(r.instance, t) // changes.go
			r.env.reportMarks.Delete(reportKey{r.instance, t})
		}
	}
	reg.RemoveWorkspace(id)
	return res, nil
}
