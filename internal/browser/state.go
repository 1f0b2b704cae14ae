package browser

import (
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TabInfo is a tab as the extension reports it. Its wire shape is
// protocol's, since it is the result of several verbs.
type TabInfo = protocol.TabInfo

// WindowInfo is a window and its tabs.
type WindowInfo = protocol.WindowInfo

// State is the extension's browser.state: every window and its tabs.
type State protocol.BrowserState

// Tabs lists every tab of every window, each with its window's ID.
func (s *State) Tabs() []TabInfo {
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
func (s *State) Live() map[int]int {
	live := map[int]int{}
	for _, w := range s.Windows {
		for _, t := range w.Tabs {
			live[t.TabID] = w.WindowID
		}
	}
	return live
}

// Groups maps every open tab to its tab group (-1: none), and every
// window with a grouped workspace page to that page's group: what
// registry.FollowGroups needs to follow a workspace into a new group.
func (s *State) Groups() (tabs, pages map[int]int) {
	tabs, pages = map[int]int{}, map[int]int{}
	for _, w := range s.Windows {
		for _, t := range w.Tabs {
			tabs[t.TabID] = t.GroupID
			if t.WorkspacePage && t.GroupID >= 0 {
				pages[w.WindowID] = t.GroupID
			}
		}
	}
	return tabs, pages
}

// ActiveTab is the active tab of the last focused window.
func (s *State) ActiveTab() (TabInfo, bool) {
	return s.ActiveTabIn(s.LastFocusedWindowID)
}

// ActiveTabIn is the active tab of window id.
func (s *State) ActiveTabIn(id int) (TabInfo, bool) {
	for _, w := range s.Windows {
		if w.WindowID != id {
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

// Info describes the extension on the other end of the Link.
type Info struct {
	Connected        bool   `json:"connected"`
	ID               string `json:"id,omitempty"`
	Instance         string `json:"instance,omitempty"`
	Version          string `json:"version,omitempty"`
	Protocol         int    `json:"protocol,omitempty"`
	IncognitoAllowed bool   `json:"incognitoAllowed"`
	// FileAccess is Chrome's "Allow access to file URLs" for the
	// extension, which upload needs; status fills it in.
	FileAccess  *bool     `json:"fileAccess,omitempty"`
	ConnectedAt time.Time `json:"connectedAt,omitzero"`
	Mismatch    string    `json:"mismatch,omitempty"`
	// Browser names the browser (profile) the extension runs in: its
	// instance without the browser run. Several may be connected at once.
	Browser string `json:"-"`
	// Name is the browser's name for people (Chromium, Chrome, Edge…).
	Name      string `json:"name,omitempty"`
	UserAgent string `json:"userAgent,omitempty"`
	// FocusedAt is when the user last focused one of its windows (zero:
	// not since it connected); Default, in Link.Browsers, marks the
	// browser a call goes to when it names none.
	FocusedAt time.Time `json:"focusedAt,omitzero"`
	Default   bool      `json:"-"`
}
