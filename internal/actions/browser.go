package actions

import (
	"hash/fnv"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/registry"
)

// browserState lists every window and its tabs, and brings the registry
// up to date with it: tabs that closed leave it, tabs that the bridge's
// own tabs opened join it, workspaces follow their tabs into a new group.
func (r *run) browserState() (*browser.State, error) {
	seen := time.Now()
	s, err := r.b.BrowserState(r.ctx)
	if err != nil {
		return nil, err
	}
	reg := r.reg()
	reg.Reconcile(s.Live(), seen)
	tabs, pages := s.Groups()
	reg.FollowGroups(tabs, pages, seen)
	adoptOpened(reg, s.Tabs())
	return &s, nil
}

// adoptOpened makes the bridge's own the tabs that its tabs' pages opened
// (a link to _blank, a pop-up), in the opener's workspace: the agent can
// close them, and closing the workspace does not leave them behind. It
// returns the tabs it adopted. A chain (a pop-up's pop-up) is adopted in
// one pass, openers first.
func adoptOpened(reg *registry.Registry, tabs []browser.TabInfo) []int {
	var adopted []int
	for changed := true; changed; {
		changed = false
		for _, t := range tabs {
			if t.OpenerTabID == 0 || reg.IsOwned(t.TabID) {
				continue
			}
			if opener, ok := reg.Owned(t.OpenerTabID); ok {
				reg.AddTabBy(t.TabID, t.WindowID, opener.Workspace, opener.Session)
				adopted = append(adopted, t.TabID)
				changed = true
			}
		}
	}
	return adopted
}

// groupColors are Chrome's tab group colours, grey left out: it reads as
// "inactive".
var groupColors = []string{"blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"}

// workspaceColor is a stable colour per workspace ID.
func workspaceColor(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return groupColors[h.Sum32()%uint32(len(groupColors))]
}

// workspaceLabel is the tab group title: the workspace name, short.
func workspaceLabel(id string) string {
	s := strings.TrimPrefix(id, "session:")
	if r := []rune(s); len(r) > 24 {
		s = string(r[:23]) + "…"
	}
	return s
}
