package actions

import (
	"hash/fnv"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/registry"
)

// TabInfo is a tab as the extension reports it.
type TabInfo struct {
	TabID     int    `json:"tabId"`
	WindowID  int    `json:"windowId"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Active    bool   `json:"active"`
	GroupID   int    `json:"groupId"`
	Incognito bool   `json:"incognito"`
	Status    string `json:"status"`
	Loaded    *bool  `json:"loaded,omitempty"`
	// LoadError is the network error of the last navigation while the
	// tab shows the browser's error page for it.
	LoadError string `json:"loadError,omitempty"`
	// OpenerTabID is the tab whose page opened this one (a link to
	// _blank, window.open), 0 for none.
	OpenerTabID int `json:"openerTabId,omitempty"`
}

// WindowInfo is a window and its tabs.
type WindowInfo struct {
	WindowID  int       `json:"windowId"`
	Incognito bool      `json:"incognito"`
	Focused   bool      `json:"focused"`
	Tabs      []TabInfo `json:"tabs"`
}

// BrowserState is the extension's browser.state.
type BrowserState struct {
	LastFocusedWindowID int          `json:"lastFocusedWindowId"`
	IncognitoAllowed    bool         `json:"incognitoAllowed"`
	Windows             []WindowInfo `json:"windows"`
	// Running lists the other commands in flight in the extension, by
	// verb: a command the daemon gave up on is cancelled there too.
	Running []string `json:"running"`
	// FileSchemeAccess is whether the extension may read file URLs.
	FileSchemeAccess *bool `json:"fileSchemeAccess"`
}

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
func (s *BrowserState) tabs() []TabInfo {
	var out []TabInfo
	for _, w := range s.Windows {
		for _, t := range w.Tabs {
			t.WindowID = w.WindowID
			out = append(out, t)
		}
	}
	return out
}

// Live maps every open tab to its window.
func (s *BrowserState) Live() map[int]int {
	live := map[int]int{}
	for _, w := range s.Windows {
		for _, t := range w.Tabs {
			live[t.TabID] = w.WindowID
		}
	}
	return live
}

// activeTab is the active tab of the last focused window.
func (s *BrowserState) activeTab() (TabInfo, bool) {
	for _, w := range s.Windows {
		if w.WindowID != s.LastFocusedWindowID {
			continue
		}
		for _, t := range w.Tabs {
			if t.Active {
				return t, true
			}
		}
	}
	return TabInfo{}, false
}

// activeTabIn is the active tab of window id.
func (s *BrowserState) activeTabIn(id int) (TabInfo, bool) {
	for _, w := range s.Windows {
		if w.WindowID == id {
			for _, t := range w.Tabs {
				if t.Active {
					return t, true
				}
			}
		}
	}
	return TabInfo{}, false
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
