package actions

import (
	"hash/fnv"
	"strings"
	"time"
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
	r.reg().Reconcile(s.Live(), seen)
	return &s, nil
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
