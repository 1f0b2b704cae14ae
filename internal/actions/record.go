package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/redact"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// console and network read what the extension recorded of a tab
// (docs/design.md#recording; extension/handlers/record.js): the extension keeps the page's
// words and requests as they were, and everything that leaves here goes
// through internal/redact first, so no credential reaches the agent
// whatever the page sent or received.

func init() {
	register("console", readConsole)
	register("network", readNetwork)
}

// recentStart is how young a record is when console says it starts now.
const recentStart = 3 * time.Second

func readConsole(r *run) (*tool.ConsoleResult, error) {
	keep := len(tool.Levels)
	if r.in.Level != "" {
		keep = slices.Index(tool.Levels, r.in.Level) + 1
		if keep == 0 {
			return nil, invalid("level must be one of %s", strings.Join(tool.Levels, ", "))
		}
	}
	if r.in.Since < 0 {
		return nil, invalid("since must be a nextSince from an earlier call, not negative")
	}
	tab, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	rec, err := r.b.RecordConsole(r.ctx, protocol.RecordConsoleParams{TabID: tab.TabID, Since: r.in.Since, All: r.in.All})
	if err != nil {
		return nil, err
	}
	return shapeConsole(pageOf(tab), offLimits(r.siteRules()), rec, keep), nil
}

// shapeConsole is console's result: the messages of the keep most severe
// levels, redacted.
func shapeConsole(page tool.Page, denied func(...string) bool, rec protocol.RecordConsoleResult, keep int) *tool.ConsoleResult {
	page.URL = redact.URL(page.URL)
	out := &tool.ConsoleResult{Page: page, Messages: []tool.ConsoleMessage{}, Dropped: rec.Dropped, LeftOut: rec.LeftOut,
		NextSince: rec.NextSince, Note: recordNote(rec.RecordInfo, "messages")}
	for _, m := range rec.Messages {
		if denied(m.URL, m.FrameURL) {
			out.LeftOut++
			continue
		}
		// A navigation entry (with all) begins a load, whatever level.
		if i := slices.Index(tool.Levels, m.Level); m.Source != "navigation" && (i < 0 || i >= keep) {
			continue
		}
		msg := m.Message
		msg.Text, msg.URL, msg.Stack = redact.Loose(m.Text), redact.URL(m.URL), nil
		// A child frame's message says which frame; the top document's
		// needs no name.
		if msg.FrameID > 0 {
			msg.FrameURL = redact.URL(m.FrameURL)
		} else {
			msg.FrameID, msg.FrameURL = 0, ""
		}
		for _, f := range m.Stack {
			f.URL = redact.URL(f.URL)
			msg.Stack = append(msg.Stack, f)
		}
		out.Messages = append(out.Messages, msg)
	}
	return out
}

func readNetwork(r *run) (*tool.NetworkResult, error) {
	if r.in.Since < 0 {
		return nil, invalid("since must be a nextSince from an earlier call, not negative")
	}
	maxChars, _, err := r.in.Budget()
	if err != nil {
		return nil, err
	}
	tab, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	rec, err := r.b.RecordNetwork(r.ctx, protocol.RecordNetworkParams{TabID: tab.TabID, Since: r.in.Since, RequestID: r.in.RequestID})
	if err != nil {
		return nil, err
	}
	out := &tool.NetworkResult{Page: pageOf(tab), Dropped: rec.Dropped, LeftOut: rec.LeftOut, NextSince: rec.NextSince,
		Note: recordNote(rec.RecordInfo, "requests")}
	out.Page.URL = redact.URL(out.Page.URL)
	denied := offLimits(r.siteRules())
	if r.in.RequestID != "" {
		if rec.Missing || rec.Request == nil || denied(rec.Request.URL, rec.Request.FrameURL) {
			return nil, invalid("requestId %q is not among tab %d's recorded requests: it is unknown, or it fell out of the tab's ring; call network without requestId for the current ones", r.in.RequestID, tab.TabID)
		}
		q := *rec.Request
		if q.Type == "document" && q.ResponseBody != nil && q.ResponseBody.NotKept == "not_seen" && q.URL == tab.URL {
			q.ResponseBody = currentDocument(r.ctx, r.b, tab.TabID, q, refetchRefusal(r.reg().IsOwned(tab.TabID), q.URL))
		}
		out.Request = requestDetail(q, maxChars, r.in.AllHeaders)
		return out, nil
	}
	out.Requests = []tool.Request{}
	for _, q := range rec.Requests {
		if denied(q.URL, q.FrameURL) {
			out.LeftOut++
			continue
		}
		// Matched against the URL as the agent sees it: matching the
		// raw one would answer whether a redacted secret begins with a
		// guess, and give the secret away a character at a time.
		s := requestSummary(q)
		if r.in.URLContains != "" && !strings.Contains(s.URL, r.in.URLContains) {
			continue
		}
		out.Requests = append(out.Requests, s)
	}
	return out, nil
}

// currentDocument is the body of the tab's current document q, read
// through the debugger. One served Cache-Control: no-store has no copy
// in the browser to read back (only a debugger attached before its load
// would have kept one), and Chrome sometimes keeps none of another (one
// loaded into a tab opened empty): a GET is then fetched again now from
// the page, said so plainly — a no-store one without the debugger at
// all. A form's POST result is never sent again, and says why it is
// missing; refused, when not "", is why a GET is not sent again either
// (refetchRefusal).
func currentDocument(ctx context.Context, b browser.Verbs, tabID int, q protocol.RecordRequest, refused string) *protocol.RecordBody {
	cacheable := !noStore(q.ResponseHeaders)
	if cacheable {
		if kept := documentBody(ctx, b, tabID, q.URL); kept.NotKept != "not_seen" || q.Method != http.MethodGet {
			return kept
		}
	}
	if q.Method != http.MethodGet {
		return &protocol.RecordBody{NotKept: "no_store"}
	}
	if refused != "" {
		return &protocol.RecordBody{NotKept: refused}
	}
	again, err := b.RecordNetwork(ctx, protocol.RecordNetworkParams{TabID: tabID, RequestID: q.RequestID, Refetch: true})
	switch {
	case err != nil || again.Request == nil || again.Request.ResponseBody == nil:
		return &protocol.RecordBody{NotKept: "refetch_failed"}
	case cacheable && again.Request.ResponseBody.NotKept == "no_store":
		// The extension would not fetch it again (the page moved on):
		// it is just not seen.
		return &protocol.RecordBody{NotKept: "not_seen"}
	}
	return again.Request.ResponseBody
}

// refetchRefusal is why the tab's current document may not be fetched
// again ("" when it may): a GET sends the user's cookies and may do what
// the page's load did. So only a tab the bridge opened (owned) is
// fetched again, never the user's own, and never an address that
// carries a secret (a sign-in link's token, an OAuth callback's code),
// which a second use could spend or revoke.
func refetchRefusal(owned bool, url string) string {
	switch {
	case !owned:
		return "refetch_users_tab"
	case redact.URL(url) != url:
		return "refetch_secret_url"
	}
	return ""
}

// documentBody reads the tab's current document as it arrived, through
// the debugger: no page script sees it. This is the one time console or
// network attaches the debugger (its bar shows until the idle detach).
// A document it cannot read stays "not seen". (A function of what it
// uses, not a method of run: run holds the call's state, not every
// step's.)
func documentBody(ctx context.Context, b browser.Verbs, tabID int, url string) *protocol.RecordBody {
	notSeen := &protocol.RecordBody{NotKept: "not_seen"}
	var tree struct {
		FrameTree struct {
			Frame struct {
				ID string `json:"id"`
			} `json:"frame"`
		} `json:"frameTree"`
	}
	if err := b.CDP(ctx, protocol.CDPParams{TabID: tabID, Method: "Page.getFrameTree"}, &tree); err != nil {
		return notSeen
	}
	var res struct {
		Content       string `json:"content"`
		Base64Encoded bool   `json:"base64Encoded"`
	}
	err := b.CDP(ctx, protocol.CDPParams{TabID: tabID, Method: "Page.getResourceContent",
		Params: map[string]any{"frameId": tree.FrameTree.Frame.ID, "url": url}}, &res)
	switch {
	case err != nil:
		return notSeen
	case res.Base64Encoded:
		return &protocol.RecordBody{NotKept: "binary"}
	}
	return &protocol.RecordBody{Text: res.Content}
}

// noStore says whether a response was sent Cache-Control: no-store: the
// browser keeps no copy of such a document for Page.getResourceContent
// (only a debugger attached before the load would have seen it).
func noStore(hs []protocol.HTTPHeader) bool {
	for _, h := range hs {
		if strings.EqualFold(h.Name, "cache-control") && strings.Contains(strings.ToLower(h.Value), "no-store") {
			return true
		}
	}
	return false
}

// recordNote says what a record does not cover: the page's load, when
// the bridge began to record the tab after it (of what: "messages").
func recordNote(info protocol.RecordInfo, what string) string {
	started := time.UnixMilli(info.StartedAt)
	if info.Restarted {
		return fmt.Sprintf("Chrome restarted the extension's service worker (%s), which kept no earlier %s: these are from then on; reload the tab to record its page from the load", started.UTC().Format(time.RFC3339), what)
	}
	if info.FromLoad {
		return ""
	}
	if time.Since(started) < recentStart {
		return fmt.Sprintf("recording of this tab starts now: the bridge had not touched it before, so earlier %s were not recorded; reload the tab to record its page from the load", what)
	}
	return fmt.Sprintf("this tab is recorded since the bridge first touched it (%s), after its page had loaded: earlier %s are not here; reload the tab to record its page from the load", started.UTC().Format(time.RFC3339), what)
}

// requestSummary is a request as network lists it. A status the
// browser gave no text for (HTTP/2 has none) gets its standard one.
func requestSummary(q protocol.RecordRequest) tool.Request {
	out := q.RequestInfo
	out.URL = redact.URL(out.URL)
	if out.StatusText == "" && out.Status > 0 {
		out.StatusText = http.StatusText(out.Status)
	}
	return out
}

// requestDetail is one request in full, redacted, its bodies cut at
// maxChars each; the browser's standard headers left out unless
// allHeaders.
func requestDetail(q protocol.RecordRequest, maxChars int, allHeaders bool) *tool.RequestDetail {
	d := &tool.RequestDetail{Request: requestSummary(q), RequestHeaders: headers(q.RequestHeaders, allHeaders), ResponseHeaders: headers(q.ResponseHeaders, allHeaders)}
	d.RequestBody = body(q.RequestBody, headerValue(q.RequestHeaders, "content-type"), maxChars)
	d.ResponseBody = body(q.ResponseBody, headerValue(q.ResponseHeaders, "content-type"), maxChars)
	return d
}

// StandardHeaders are the headers the browser sends or receives on
// nearly every request, which network's detail leaves out unless
// allHeaders (docs/reference.md lists them): they say what the browser
// is, rarely what the bug is. Those starting with sec-ch-ua or sec-fetch-
// go too.
var StandardHeaders = []string{"user-agent", "accept", "accept-encoding", "accept-language", "connection", "referer",
	"upgrade-insecure-requests", "priority", "sec-purpose", "dnt", "keep-alive", "date"}

// standard says whether header name is one of StandardHeaders.
func standard(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "sec-ch-ua") || strings.HasPrefix(n, "sec-fetch-") || slices.Contains(StandardHeaders, n)
}

func headers(hs []protocol.HTTPHeader, all bool) []tool.Header {
	out := make([]tool.Header, 0, len(hs))
	for _, h := range hs {
		if !all && standard(h.Name) {
			continue
		}
		out = append(out, tool.Header{Name: h.Name, Value: redact.Header(h.Name, h.Value)})
	}
	return out
}

func headerValue(hs []protocol.HTTPHeader, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// notKept are the extension's reasons for a body it did not keep, as
// the agent reads them.
var notKept = map[string]string{
	"binary":             "binary: only text bodies are kept",
	"over_cap":           "over the cap: the body was larger than a tab's record keeps",
	"before_recording":   "made before recording of this tab began",
	"evicted":            "dropped: newer bodies took the tab's body allowance",
	"not_seen":           "not seen: the recorder keeps the bodies of fetch and XHR responses and of the tab's current document only",
	"no_store":           "not kept: its server sent this document with Cache-Control: no-store, so the browser kept no copy of it to read back; the page as it is now is what extract reads",
	"refetch_redirect":   "not kept: the browser kept no copy of this document to read back (it keeps none of one served Cache-Control: no-store), and fetched again now the address answers with a redirect; the page as it is now is what extract reads",
	"refetch_timeout":    "not kept: the browser kept no copy of this document to read back (it keeps none of one served Cache-Control: no-store), and fetching it again did not finish within 5 s; the page as it is now is what extract reads",
	"refetch_failed":     "not kept: the browser kept no copy of this document to read back (it keeps none of one served Cache-Control: no-store), and it could not be fetched again (the page moved on, the server did not answer, or the rules refused it); the page as it is now is what extract reads",
	"refetch_users_tab":  "not kept: the browser kept no copy of this document to read back (it keeps none of one served Cache-Control: no-store); the bridge fetches one again only in a tab it opened, never in yours; the page as it is now is what extract reads",
	"refetch_secret_url": "not kept: the browser kept no copy of this document to read back (it keeps none of one served Cache-Control: no-store); its address carries a secret (a token or a one-time code) that a second use could spend, so it is not fetched again; the page as it is now is what extract reads",
}

// refetchedNote marks a body fetched again: it is not the bytes the page
// loaded, and the agent must not take it for them.
const refetchedNote = "fetched again now: the browser kept no copy of what the page loaded (it keeps none of a document served Cache-Control: no-store); this copy was fetched from the page with its cookies a moment ago and may differ from it"

// body redacts a kept body and cuts it at maxChars; a body not kept says
// why. Redaction comes before the cut, so a cut never reveals half a
// secret the whole would have hidden.
func body(b *protocol.RecordBody, contentType string, maxChars int) *tool.Body {
	if b == nil {
		return nil
	}
	if b.NotKept == "refetch_status" {
		return &tool.Body{NotKept: fmt.Sprintf("not kept: the browser kept no copy of this document to read back (it keeps none of one served Cache-Control: no-store), and fetched again now it answered status %d, not the page's; the page as it is now is what extract reads", b.Status)}
	}
	if b.NotKept != "" {
		why, ok := notKept[b.NotKept]
		if !ok {
			why = b.NotKept
		}
		return &tool.Body{NotKept: why}
	}
	text := redact.Body(contentType, b.Text)
	out := &tool.Body{Text: text}
	if b.Refetched {
		out.Refetched, out.Note = true, refetchedNote
	}
	// JSON, parsed, when it is (after redaction) and fits whole.
	if t := strings.TrimSpace(text); len(t) > 0 && (t[0] == '{' || t[0] == '[') && utf8.RuneCountInString(t) <= maxChars && json.Valid([]byte(t)) {
		var c bytes.Buffer
		if json.Compact(&c, []byte(t)) == nil {
			return &tool.Body{JSON: json.RawMessage(c.Bytes()), Refetched: out.Refetched, Note: out.Note}
		}
	}
	if utf8.RuneCountInString(text) > maxChars {
		out.TotalChars = utf8.RuneCountInString(text)
		out.Text = string([]rune(text)[:maxChars])
	}
	return out
}
