package tool

// Events is what a page action set off in its tab between its start and
// its settle (docs/cli.md, "What an action set off"): console errors
// (exceptions, rejections, console.error), failed requests (status 400 or
// more, or a network error) and, for an action that is not itself a
// navigation, the load it led to. A result carries it only when something
// happened.
type Events struct {
	// Errors counts the page errors, and FirstError is the first one's
	// text (secrets redacted, at most 200 characters).
	Errors     int    `json:"errors,omitempty"`
	FirstError string `json:"firstError,omitempty"`
	// FailedRequests are the first three failed requests; network with
	// their requestId has each in full.
	FailedRequests []FailedRequest `json:"failedRequests,omitempty"`
	// Navigated is the URL the tab's page went to.
	Navigated string `json:"navigated,omitempty"`
}

// FailedRequest is a request that failed during an action: its status,
// or the browser's error when no response came.
type FailedRequest struct {
	RequestID string `json:"requestId"`
	Method    string `json:"method"`
	URL       string `json:"url"`
	Status    int    `json:"status,omitempty"`
	Error     string `json:"error,omitempty"`
}
