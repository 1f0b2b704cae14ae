package tool

// The tabs family: what is open, opening and closing pages.
func init() {
	declare(
		Spec{
			Name:        "status",
			Summary:     "windows, tabs (tabId, url, title) and workspaces, and every connected browser (label, slot); diagnostics when Chrome is not connected.",
			Kind:        KindStatus,
			Deadline:    StatusDeadline,
			RunsWhenOff: true,
		},
		Spec{
			Name:    "search",
			Summary: "web search in a visible tab; returns results (kind, title, url, snippet).",
			Kind:    KindNavigate,
			Params:  []string{"query", "incognito"},
			Needs:   [][]string{{"query"}},
		},
		Spec{
			Name:        "open",
			Summary:     "load url in a new tab of your workspace's window (or target current, or tabId).",
			Kind:        KindNavigate,
			Params:      []string{"url", "target", "incognito", "dialog"},
			Needs:       [][]string{{"url"}},
			ChangesPage: true,
		},
		Spec{
			Name:    "close",
			Summary: "close a tab the bridge opened (tabId) or your workspace (closeWorkspace).",
			Kind:    KindNavigate,
			Params:  []string{"closeWorkspace"},
			Needs:   [][]string{{"tabId", "closeWorkspace"}},
		},
	)
}
