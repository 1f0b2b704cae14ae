package protocol

// The verbs of the navigation actions (docs/design.md#actions): a step in a tab's
// history, and the size its page is laid out at.

// TabHistoryParams: tab.history takes Step ("back", "forward" or
// "reload", with BypassCache) in the tab and waits up to WaitMs for the
// page it leads to to load. A step with no history entry to go to fails
// with invalid_argument. The answer is the tab's info with Loaded, and
// SameDocument when the step stayed in the document (a fragment or
// history.pushState entry), which has no load to wait for.
type TabHistoryParams struct {
	TabID       int    `json:"tabId"`
	Step        string `json:"step"`
	BypassCache bool   `json:"bypassCache,omitempty"`
	WaitMs      int    `json:"waitMs"`
}

// TabHistoryResult is tab.history's answer.
type TabHistoryResult struct {
	TabInfo
	// SameDocument: the step stayed in the document (no load).
	SameDocument bool `json:"sameDocument,omitempty"`
	// Started is false when no navigation began within the wait.
	Started bool `json:"started"`
	// Stayed: a "leave page?" dialog (beforeunload) was dismissed, so
	// the page stays.
	Stayed bool `json:"stayed,omitempty"`
}

// TabViewportParams: tab.viewport lays the tab's page out at Width×Height
// CSS px (Emulation.setDeviceMetricsOverride), keeping the debugger
// attached to the tab while the override is set so that it lasts, and
// setting it again whenever the debugger attaches anew; Reset clears it
// and lets the debugger go idle.
type TabViewportParams struct {
	TabID             int     `json:"tabId"`
	Width             int     `json:"width,omitempty"`
	Height            int     `json:"height,omitempty"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty"`
	Mobile            bool    `json:"mobile,omitempty"`
	Reset             bool    `json:"reset,omitempty"`
}

// TabViewportResult is the size the page is laid out at afterwards, and
// the devicePixelRatio and touch support the page sees (measured by the
// extension in the page).
type TabViewportResult struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	// Touch: the page sees a touch screen (a mobile viewport emulates one).
	Touch bool `json:"touch,omitempty"`
}
