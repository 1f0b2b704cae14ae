package protocol

// The developer tools' records (extension/handlers/record.js): what a
// tab's pages said and the requests they made, kept by the extension in a
// ring per tab, and read by the daemon's console and network actions. The
// extension sends them as the browser and the page gave them; the daemon
// redacts secrets (internal/redact) before anything leaves it.

// RecordConsoleParams: record.console reads a tab's messages after Since
// (a NextSince of an earlier read; 0 for all). A tab not yet recorded is
// recorded from now on.
type RecordConsoleParams struct {
	TabID int `json:"tabId"`
	Since int `json:"since,omitempty"`
	// All: every load's messages, each load begun by a navigation
	// entry; else only those since the last top-level navigation.
	All bool `json:"all,omitempty"`
}

// RecordInfo is how far a tab's record goes, in every read's result.
type RecordInfo struct {
	// StartedAt is when the extension began to record the tab (ms since
	// the epoch).
	StartedAt int64 `json:"startedAt"`
	// FromLoad says the record covers the tab's page from its load:
	// false when the bridge first touched the tab after it had loaded.
	FromLoad bool `json:"fromLoad"`
	// Restarted says the extension's service worker restarted at
	// StartedAt and what it had recorded before was not kept (a
	// network read after a restart: the console record is kept).
	Restarted bool `json:"restarted,omitempty"`
	// Dropped counts the entries that fell out of the ring.
	Dropped int `json:"dropped"`
	// LeftOut counts the entries the site rules kept out: those of a
	// page or frame of a denied site, and requests to one.
	LeftOut int `json:"leftOut,omitempty"`
	// NextSince is the sequence number of the newest entry.
	NextSince int `json:"nextSince"`
}

// RecordConsoleResult is the messages after Since, oldest first.
type RecordConsoleResult struct {
	RecordInfo
	Messages []RecordMessage `json:"messages"`
}

// RecordMessage is one console message or page error as recorded, with
// its sequence number in the tab's record.
type RecordMessage struct {
	Seq int `json:"seq"`
	// Message.FrameURL is here the page that said it, whatever its
	// frame, which the site rules judge with its URL.
	Message
}

// Message is one console message or page error: Text at most 2,000
// characters, Stack at most 5 frames (its contract shape:
// tool.ConsoleMessage).
type Message struct {
	Level string `json:"level"`
	Text  string `json:"text"`
	// Source is console, exception, rejection, network or security.
	Source string `json:"source"`
	URL    string `json:"url,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Time is when it was recorded, in ms since the Unix epoch.
	Time  int64        `json:"time"`
	Stack []StackFrame `json:"stack,omitempty"`
	// FrameID and FrameURL name the child frame that said it (as
	// extract's frameId does); the top document's messages carry
	// neither.
	FrameID  int    `json:"frameId,omitempty"`
	FrameURL string `json:"frameUrl,omitempty"`
}

// StackFrame is one frame of an exception's stack.
type StackFrame struct {
	Function string `json:"function,omitempty"`
	URL      string `json:"url,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
}

// RecordNetworkParams: record.network reads a tab's requests after Since,
// or with RequestID that one request in full.
type RecordNetworkParams struct {
	TabID     int    `json:"tabId"`
	Since     int    `json:"since,omitempty"`
	RequestID string `json:"requestId,omitempty"`
	// Refetch, with the RequestID of the tab's current document of which
	// the browser kept no copy (as of one served Cache-Control:
	// no-store), asks for its body fetched again now from the page, with
	// the page's cookies: a GET only (docs/cli.md, the network action).
	Refetch bool `json:"refetch,omitempty"`
}

// RecordNetworkResult is the requests after Since, oldest first, or the
// one asked for (Request; Missing when the ring does not hold it).
type RecordNetworkResult struct {
	RecordInfo
	Requests []RecordRequest `json:"requests,omitempty"`
	Request  *RecordRequest  `json:"request,omitempty"`
	Missing  bool            `json:"missing,omitempty"`
}

// RecordRequest is one request as recorded from webRequest (and, for the
// bodies of fetch and XHR responses, from the page's main-world script).
// Headers and bodies come only in a read by requestId.
type RecordRequest struct {
	Seq  int     `json:"seq"`
	Time float64 `json:"time"`
	// FrameURL is the page of the frame that made the request ("" for a
	// top-level load), which the site rules judge with its URL.
	FrameURL string `json:"frameUrl,omitempty"`
	RequestInfo

	RequestHeaders  []HTTPHeader `json:"requestHeaders,omitempty"`
	ResponseHeaders []HTTPHeader `json:"responseHeaders,omitempty"`
	RequestBody     *RecordBody  `json:"requestBody,omitempty"`
	ResponseBody    *RecordBody  `json:"responseBody,omitempty"`
}

// RequestInfo is what network lists of a request (its contract shape:
// tool.Request).
type RequestInfo struct {
	RequestID string `json:"requestId"`
	Method    string `json:"method"`
	URL       string `json:"url"`
	// Type is document, script, stylesheet, image, font, fetch, xhr,
	// websocket or other.
	Type   string `json:"type"`
	Status int    `json:"status,omitempty"`
	// StatusText is the status line's text (Not Found), or the
	// standard one for the status when the line has none.
	StatusText string `json:"statusText,omitempty"`
	MimeType   string `json:"mimeType,omitempty"`
	// Bytes is the response's size as far as known (its Content-Length),
	// -1 when unknown.
	Bytes      int64 `json:"bytes"`
	DurationMs int64 `json:"durationMs"`
	// Error says why the request failed or was blocked.
	Error     string `json:"error,omitempty"`
	FromCache bool   `json:"fromCache,omitempty"`
}

// HTTPHeader is one header as webRequest gave it.
type HTTPHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// RecordBody is a kept body (Text), or why it was not kept (NotKept:
// "binary", "over_cap", "before_recording", "evicted", "not_seen", and
// for a document fetched again "no_store", "refetch_status",
// "refetch_redirect", "refetch_timeout", "refetch_failed").
type RecordBody struct {
	Text    string `json:"text,omitempty"`
	Bytes   int64  `json:"bytes,omitempty"`
	NotKept string `json:"notKept,omitempty"`
	// Refetched says Text was fetched again now, not kept from the load.
	Refetched bool `json:"refetched,omitempty"`
	// Status is what the server answered the fetch again with, when it
	// was not the status of the page's load (NotKept "refetch_status").
	Status int `json:"status,omitempty"`
}
