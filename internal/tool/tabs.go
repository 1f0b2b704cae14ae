package tool

import "time"

// The tabs family: what is open, opening and closing pages.
func init() {
	declare(
		Spec{
			Name:        "status",
			Result:      StatusResult{},
			Summary:     "windows, tabs, workspaces, browsers; why Chrome is not connected.",
			Kind:        KindStatus,
			Deadline:    StatusDeadline,
			RunsWhenOff: true,
		},
		Spec{
			Name:    "search",
			After:   "status",
			Result:  SearchResult{},
			Summary: "web search; results (kind, title, url, snippet).",
			Doc:     "runs a web search in a visible tab of the workspace. A consent wall or an \"unusual traffic\" page is an error, not zero results.",
			Kind:    KindNavigate,
			Params:  []string{"query", "incognito"},
			Needs:   [][]string{{"query"}},
		},
		Spec{
			Name:        "open",
			After:       "search",
			Result:      OpenResult{},
			Summary:     "load url in a new tab of your workspace (or in tabId).",
			Doc:         "loads a URL (http, https, file or about:blank) in a new tab of the workspace's window, in the current tab (Where \"current\"), or in Target.TabID.",
			Kind:        KindNavigate,
			Params:      []string{"url", "target", "incognito", "dialog"},
			Needs:       [][]string{{"url"}},
			ChangesPage: true,
		},
		Spec{
			Name:    "close",
			After:   "handoff",
			Result:  CloseResult{},
			Summary: "a tab the bridge opened (tabId), or your workspace.",
			Doc:     "closes a tab the bridge opened (Target.TabID), or a workspace's tabs and its window (CloseWorkspace); a tab the user opened is ErrNotOwned. (Close ends the connection.)",
			Kind:    KindNavigate,
			Params:  []string{"closeWorkspace", "keepReplays"},
			Needs:   [][]string{{"tabId", "closeWorkspace"}},
		},
	)
}

// StatusResult is status's answer. Connected: the extension, the active
// tab, every window and the bridge's workspaces, and every connected
// browser. Not connected: Reason and Diagnostics (every link of the
// chain).
type StatusResult struct {
	Connected bool `json:"connected"`
	// Reason says why nothing is connected, and what to do.
	Reason string `json:"reason,omitempty"`
	// Diagnostics describes every link of the chain when nothing is
	// connected (see the doctor command).
	Diagnostics any `json:"diagnostics,omitempty"`
	// Daemon describes the daemon: pid, version, uptime.
	Daemon any `json:"daemon,omitempty"`
	// Extension describes the connected extension: version, protocol,
	// whether it may open incognito windows and read file URLs.
	Extension any `json:"extension,omitempty"`
	// Browsers lists every connected browser; the rest of the answer
	// describes the one marked Shown.
	Browsers []Browser `json:"browsers,omitempty"`
	// Paused says whether the user has paused the bridge (every other
	// action then fails with paused_by_user); always present.
	Paused bool `json:"paused"`
	// PausedMessage is the sentence those actions fail with, while paused.
	PausedMessage string `json:"pausedMessage,omitempty"`
	// Disabled says why the bridge is turned off (empty: it is on).
	Disabled string `json:"disabled,omitempty"`
	// Evaluate says whether the user lets the agent run JavaScript in
	// pages (browser-bridge policy evaluate on|off).
	Evaluate bool `json:"evaluate"`
	// Search is the search engine in force and where it comes from
	// (BROWSER_BRIDGE_SEARCH_URL as the daemon read it at its start,
	// searchUrl in settings.json, or the default).
	Search string `json:"search,omitempty"`
	// Problem is set when the extension cannot serve (version_mismatch).
	Problem *Problem `json:"error,omitempty"`
	Windows []Window `json:"windows,omitzero"`
	// ExtensionRunning lists the commands in flight in the extension.
	ExtensionRunning []string `json:"extensionRunning,omitempty"`
	// DebuggedTabs are tabs another debugger (DevTools) is attached to.
	DebuggedTabs []int       `json:"debuggedTabs,omitempty" tab:"id"`
	ActiveTab    *ActiveTab  `json:"activeTab,omitempty"`
	Workspaces   []Workspace `json:"workspaces,omitzero"`
	// WebSocket is the WebSocket transport for Hive-compatible programs:
	// on or off, where it dials, whether it is connected.
	WebSocket any `json:"websocket,omitempty"`
}

// Problem is an error status reports instead of failing (the extension
// cannot serve).
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Browser is one connected browser (an extension instance in one browser
// profile), as status lists it.
type Browser struct {
	Slot        int       `json:"slot"`
	Label       string    `json:"label"`
	Name        string    `json:"name,omitempty"`
	Instance    string    `json:"instance"`
	Version     string    `json:"version,omitempty"`
	UserAgent   string    `json:"userAgent,omitempty"`
	ConnectedAt time.Time `json:"connectedAt,omitzero"`
	FocusedAt   time.Time `json:"focusedAt,omitzero"`
	// Default: a call that names no browser goes to this one.
	Default bool `json:"default"`
	// Shown: the status describes this one.
	Shown bool `json:"shown"`
}

// Window is a browser window and its tabs, as status lists it.
type Window struct {
	WindowID  int         `json:"windowId"`
	Incognito bool        `json:"incognito"`
	Focused   bool        `json:"focused"`
	Tabs      []StatusTab `json:"tabs"`
}

// StatusTab is a tab as status lists it. Redacted marks a user's
// incognito tab whose URL and title are withheld.
type StatusTab struct {
	TabID    int    `json:"tabId" tab:"id"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Active   bool   `json:"active"`
	Owned    bool   `json:"owned"`
	GroupID  int    `json:"groupId"`
	Redacted bool   `json:"redacted,omitempty"`
	// Stopped is what the site rules stopped the tab from loading, while
	// it shows the extension's blocked page.
	Stopped *Stop `json:"stopped,omitempty"`
	// WorkspacePage says the tab is a workspace's own page, the quiet
	// tab that keeps its window and group open: the bridge's, though
	// not owned, and no action's target (protected_page).
	WorkspacePage bool `json:"workspacePage,omitempty"`
}

// ActiveTab is the active tab of Chrome's current window.
type ActiveTab struct {
	TabID    int    `json:"tabId" tab:"id"`
	WindowID int    `json:"windowId"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Redacted bool   `json:"redacted,omitempty"`
}

// Workspace is one of the bridge's workspaces: its window, tab group and
// tabs.
type Workspace struct {
	ID        string `json:"id"`
	WindowID  int    `json:"windowId"`
	Incognito bool   `json:"incognito"`
	GroupID   int    `json:"groupId"`
	Title     string `json:"title"`
	Color     string `json:"color"`
	Tabs      []int  `json:"tabs" tab:"id"`
}

// SearchResult is the results page and what it lists.
type SearchResult struct {
	Page
	Query     string `json:"query"`
	Results   []Hit  `json:"results" content:"page"`
	Workspace string `json:"workspace,omitempty"`
	Incognito bool   `json:"incognito"`
	Outcome
}

// Hit is one classified result of a search.
type Hit struct {
	// Kind is organic, ad, featured, people_also_ask, video, news, image
	// or related_search.
	Kind     string `json:"kind"`
	Position int    `json:"position"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Snippet  string `json:"snippet"`
}

// OpenResult is the tab that was opened (or loaded).
type OpenResult struct {
	TabID     int    `json:"tabId" tab:"id"`
	WindowID  int    `json:"windowId"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Workspace string `json:"workspace,omitempty"`
	GroupID   *int   `json:"groupId,omitempty"`
	Owned     bool   `json:"owned"`
	// Incognito says the tab is incognito (after a search, the
	// workspace's window is; docs/design.md#workspaces).
	Incognito bool `json:"incognito,omitempty"`
	// LoadError is the network error when the page could not be loaded
	// (the tab shows the browser's error page).
	LoadError string `json:"loadError,omitempty"`
	Outcome
}

// CloseResult lists what close closed: one tab (TabID, URL, Title), or a
// workspace's tabs and windows.
type CloseResult struct {
	TabID         int    `json:"tabId,omitempty" tab:"id"`
	URL           string `json:"url,omitempty"`
	Title         string `json:"title,omitempty"`
	Workspace     string `json:"workspace,omitempty"`
	ClosedTabs    []int  `json:"closedTabs" tab:"id"`
	ClosedWindows []int  `json:"closedWindows,omitempty"`
}
