package actions

import (
	"hash/fnv"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/registry"
)

// TabInfo is a tab as the extension reports it.
type TabInfo = browser.TabInfo

// WindowInfo is a window and its tabs.
type WindowInfo = browser.WindowInfo

// BrowserState is browser.State with the unexported helpers this package's
// files still call; it goes when they call browser.State's own methods.
type BrowserState browser.State

func (r *run) browserState() (*BrowserState, error) {
	var s BrowserState
	seen := time.Now()
	if err := r.call("browser.state", nil, &s); err != nil {
		return nil, err
	}
	reg := r.reg()
	reg.Reconcile(s.Live(), seen)
	adoptOpened(reg, s.tabs())
	return &s, nil
}

// adoptOpened makes the bridge's own the tabs that its tabs' pages opened
// (a link to _blank, a pop-up), in the opener's workspace: the agent can
// close them, and closing the workspace does not leave them behind. It
// returns the tabs it adopted. A chain (a pop-up's pop-up) is adopted in
// one pass, openers first.
func adoptOpened(reg *registry.Registry, tabs []TabInfo) []int {
	var adopted []int
	for changed := true; changed; {
		changed = false
		for _, t := range tabs {
			if t.OpenerTabID == 0 || reg.IsOwned(t.TabID) {
				continue
			}
			if opener, ok := reg.Owned(t.OpenerTabID); ok {
				reg.AddTab(t.TabID, t.WindowID, opener.Workspace)
				adopted = append(adopted, t.TabID)
				changed = true
			}
		}
	}
	return adopted
}

// tabs lists every tab of every window, with its window.
func (s *BrowserState) tabs() []TabInfo { return (*browser.State)(s).Tabs() }

// Live maps every open tab to its window.
func (s *BrowserState) Live() map[int]int { return (*browser.State)(s).Live() }

// activeTab is the active tab of the last focused window.
func (s *BrowserState) activeTab() (TabInfo, bool) { return (*browser.State)(s).ActiveTab() }

// activeTabIn is the active tab of window id.
func (s *BrowserState) activeTabIn(id int) (TabInfo, bool) {
	return (*browser.State)(s).ActiveTabIn(id)
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
