package protocol

// The verbs of performance (extension/handlers/trace.js): a trace of a
// tab recorded through the debugger, read in chunks, and the DOM nodes it
// names.

// TraceRecordParams: trace.record traces the tab — its reload (Reload,
// default true) until it has loaded (within WaitMs) and settled, or the
// next DurationMs — and answers the stream the trace is read from.
type TraceRecordParams struct {
	TabID      int   `json:"tabId"`
	Reload     *bool `json:"reload,omitempty"`
	DurationMs int   `json:"durationMs,omitempty"`
	WaitMs     int   `json:"waitMs,omitempty"`
}

// TraceRecordResult: Stream is the IO handle of the trace; Loaded, for a
// reload, whether the page loaded within the wait.
type TraceRecordResult struct {
	Stream string `json:"stream"`
	Loaded *bool  `json:"loaded"`
}

// TraceReadParams: trace.read reads the next chunk of stream Handle, or
// closes it.
type TraceReadParams struct {
	TabID  int    `json:"tabId"`
	Handle string `json:"handle"`
	Close  bool   `json:"close,omitempty"`
}

// TraceReadResult is one chunk; EOF: the stream ended (and is closed).
type TraceReadResult struct {
	Data string `json:"data"`
	EOF  bool   `json:"eof"`
}

// TraceNodesParams: trace.nodes describes DOM nodes by backend node ID.
type TraceNodesParams struct {
	TabID   int     `json:"tabId"`
	NodeIDs []int64 `json:"nodeIds"`
}

// TraceNodesResult: the nodes still in the document.
type TraceNodesResult struct {
	Nodes []TraceNode `json:"nodes"`
}

// TraceNode is one DOM node: its accessible role and name, tag, id
// attribute and the start of its text. All of it is the page's.
type TraceNode struct {
	NodeID int64  `json:"nodeId"`
	Role   string `json:"role,omitempty"`
	Name   string `json:"name,omitempty"`
	Tag    string `json:"tag,omitempty"`
	ID     string `json:"id,omitempty"`
	Text   string `json:"text,omitempty"`
}
