package tool

import (
	"encoding/json"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The developer tools' records (docs/design.md#actions): what a page said and the
// requests it made, as the extension recorded them.
func init() {
	declare(
		Spec{
			Name:    "console",
			After:   "screenshot",
			Result:  ConsoleResult{},
			Summary: "console messages, page errors.",
			Doc:     "reads a tab's console messages and page errors, as the extension recorded them.",
			Kind:    KindRead,
			Params:  []string{"level", "since", "all"},
		},
		Spec{
			Name:    "network",
			After:   "console",
			Result:  NetworkResult{},
			Summary: "requests; requestId: one in full, secrets redacted.",
			Doc:     "lists a tab's requests, or one in full (RequestID: headers and bodies, cut at MaxChars), with credentials redacted.",
			Kind:    KindRead,
			Params:  []string{"urlContains", "since", "requestId", "maxChars", "allHeaders"},
		},
	)
}

// Levels are console's levels, most severe first: level keeps the one it
// names and those before it.
var Levels = []string{"error", "warning", "info", "log", "debug"}

// ConsoleResult is what a tab's pages said since the bridge began to
// record it (or since the call's since), oldest first.
type ConsoleResult struct {
	Page
	Messages []ConsoleMessage `json:"messages" content:"page"`
	// Dropped counts the messages that fell out of the tab's ring (the
	// oldest go first) since recording began.
	Dropped int `json:"dropped"`
	// LeftOut counts the messages your site rules kept out: those of a
	// page or frame of a denied site.
	LeftOut int `json:"leftOut,omitempty"`
	// NextSince is the since of a later call that wants only newer
	// messages.
	NextSince int `json:"nextSince"`
	// Note says when the record does not cover the tab's page from its
	// load (the bridge began to record the tab later).
	Note string `json:"note,omitempty"`
}

// ConsoleMessage is one console message or page error.
type ConsoleMessage = protocol.Message

// StackFrame is one of an exception's top stack frames.
type StackFrame = protocol.StackFrame

// NetworkResult lists a tab's requests, oldest first, or (with
// requestId) one of them in full.
type NetworkResult struct {
	Page
	Requests []Request      `json:"requests,omitzero" content:"page"`
	Request  *RequestDetail `json:"request,omitempty" content:"page"`
	// Dropped counts the requests that fell out of the tab's ring.
	Dropped int `json:"dropped"`
	// LeftOut counts the requests your site rules kept out: those to a
	// denied site, and those of a page or frame of one.
	LeftOut   int    `json:"leftOut,omitempty"`
	NextSince int    `json:"nextSince"`
	Note      string `json:"note,omitempty"`
}

// Request is one request of a tab.
type Request = protocol.RequestInfo

// RequestDetail is one request in full: its headers and bodies, with
// credentials redacted.
type RequestDetail struct {
	Request
	RequestHeaders  []Header `json:"requestHeaders"`
	ResponseHeaders []Header `json:"responseHeaders"`
	RequestBody     *Body    `json:"requestBody,omitempty"`
	ResponseBody    *Body    `json:"responseBody,omitempty"`
}

// Header is one HTTP header.
type Header = protocol.HTTPHeader

// Body is a request's or a response's body: its text (cut at maxChars),
// or why it is not here.
type Body struct {
	Text string `json:"text,omitempty"`
	// JSON is a JSON body, parsed, when it parses and fits in maxChars
	// (then Text is empty).
	JSON json.RawMessage `json:"json,omitempty"`
	// TotalChars is the length of the whole text when Text was cut.
	TotalChars int `json:"totalChars,omitempty"`
	// NotKept says why there is no text: binary, over the cap, made
	// before recording began, not seen by the recorder, or a document
	// served no-store, of which the browser kept no copy.
	NotKept string `json:"notKept,omitempty"`
	// Refetched says the text was fetched again now, not kept from the
	// page's load: the browser kept no copy of the tab's current
	// document (it keeps none of one served Cache-Control: no-store).
	// Note says so in a sentence.
	Refetched bool   `json:"refetched,omitempty"`
	Note      string `json:"note,omitempty"`
}
