package actions

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// recorded is what the extension's record.console answers, for n
// messages cycling through the levels.
func recorded(n int) protocol.RecordConsoleResult {
	rec := protocol.RecordConsoleResult{RecordInfo: protocol.RecordInfo{StartedAt: time.Now().Add(-time.Minute).UnixMilli(), FromLoad: true, NextSince: n}}
	for i := range n {
		rec.Messages = append(rec.Messages, protocol.RecordMessage{Seq: i + 1, Message: protocol.Message{Level: tool.Levels[i%len(tool.Levels)],
			Text: fmt.Sprintf("line %d of the log of a busy page", i), Source: "console", Time: 1}})
	}
	return rec
}

func TestShapeConsoleKeepsLevelsAndRedacts(t *testing.T) {
	rec := recorded(10)
	rec.Messages[0].Text = `sent {"password":"hunter2"} with Bearer abcdefgh`
	rec.Messages[0].URL = "https://a.test/?token=t0k3n"
	out := shapeConsole(tool.Page{TabID: 1, URL: "https://a.test/cb#access_token=t0k3n"}, noRules, rec, 2) // error and warning
	if len(out.Messages) != 4 {
		t.Fatalf("level warning kept %d of 10 messages, want 4", len(out.Messages))
	}
	for _, m := range out.Messages {
		if m.Level != "error" && m.Level != "warning" {
			t.Errorf("level warning kept a %s message", m.Level)
		}
	}
	all := fmt.Sprint(out)
	if strings.Contains(all, "hunter2") || strings.Contains(all, "t0k3n") || strings.Contains(all, "abcdefgh") {
		t.Errorf("a secret came through: %s", all)
	}
	if out.Note != "" {
		t.Errorf("a record from the load has a note: %q", out.Note)
	}
}

// noRules is the judgement of a daemon without site rules.
func noRules(...string) bool { return false }

// A message of a denied site, or said by a page of one, is left out and
// counted, with the rules as they are when console reads the record.
func TestShapeConsoleLeavesOutDeniedSites(t *testing.T) {
	rules := policy.Rules{Deny: []string{"bank.test", "a.test/admin/*"}}
	allowList := policy.Rules{Allow: []string{"a.test"}}
	if offLimits(&allowList)("about:srcdoc", "https://a.test/") || offLimits(&allowList)("<anonymous>", "") {
		t.Error("with an allow list, a srcdoc frame's or an evaluated script's entry on an allowed page is left out")
	}
	if !offLimits(&allowList)("https://b.test/") {
		t.Error("with an allow list, an entry of a site off the list is kept")
	}
	rec := recorded(4)
	rec.LeftOut = 2 // kept out by the extension as they came
	rec.Messages[0].URL = "https://bank.test/app.js"
	rec.Messages[1].FrameURL = "https://a.test/admin/users"
	rec.Messages[2].FrameURL = "https://a.test/shop"
	rec.Messages[3].URL = "<anonymous>" // an evaluated script's: no place to judge
	out := shapeConsole(tool.Page{TabID: 1, URL: "https://a.test/"}, offLimits(&rules), rec, len(tool.Levels))
	if len(out.Messages) != 2 || out.LeftOut != 4 {
		t.Fatalf("kept %d messages with leftOut %d, want 2 and 4: %+v", len(out.Messages), out.LeftOut, out.Messages)
	}
	for _, m := range out.Messages {
		if strings.Contains(m.URL, "bank") {
			t.Errorf("a message of the denied site came through: %+v", m)
		}
	}
}

func TestRecordNoteSaysRecordingStartsNow(t *testing.T) {
	note := recordNote(protocol.RecordInfo{StartedAt: time.Now().UnixMilli()}, "messages")
	if !strings.Contains(note, "starts now") {
		t.Errorf("note of a record begun now: %q", note)
	}
	if note := recordNote(protocol.RecordInfo{StartedAt: time.Now().UnixMilli(), Restarted: true}, "requests"); !strings.Contains(note, "restarted the extension's service worker") {
		t.Errorf("note of a network record begun by a restart of the worker: %q", note)
	}
	note = recordNote(protocol.RecordInfo{StartedAt: time.Now().Add(-time.Hour).UnixMilli()}, "messages")
	if !strings.Contains(note, "since the bridge first touched it") {
		t.Errorf("note of an older record begun after the load: %q", note)
	}
}

func TestBodyIsRedactedBeforeItIsCut(t *testing.T) {
	b := body(&protocol.RecordBody{Text: `{"access_token":"abcdefghijklmnop","n":1}`}, "application/json", 20)
	if strings.Contains(b.Text, "abcdef") || b.TotalChars == 0 {
		t.Errorf("cut body %+v", b)
	}
	if b := body(&protocol.RecordBody{NotKept: "binary"}, "", 100); !strings.HasPrefix(b.NotKept, "binary") {
		t.Errorf("a binary body says %q", b.NotKept)
	}
}

// A document body fetched again says so, whatever its shape; one that
// came back with another status names it.
func TestARefetchedBodySaysSo(t *testing.T) {
	for _, text := range []string{"<!doctype html><p>hi", `{"a":1}`} {
		b := body(&protocol.RecordBody{Text: text, Refetched: true}, "text/html", 100)
		if !b.Refetched || !strings.Contains(b.Note, "fetched again") || (b.Text == "" && b.JSON == nil) {
			t.Errorf("body of %q fetched again: %+v", text, b)
		}
	}
	if b := body(&protocol.RecordBody{Text: "kept"}, "text/html", 100); b.Refetched || b.Note != "" {
		t.Errorf("a kept body says it was fetched again: %+v", b)
	}
	if b := body(&protocol.RecordBody{NotKept: "refetch_status", Status: 503}, "", 100); !strings.Contains(b.NotKept, "status 503") {
		t.Errorf("a fetch again answered 503 says %q", b.NotKept)
	}
}

// currentDocument fetches a no-store GET again without the debugger,
// never sends a POST again, and reads any other through the debugger,
// fetching it again when the debugger finds no copy. The fake browser stands in for the extension's verbs.
func TestCurrentDocumentFetchesANoStoreGETAgainOnly(t *testing.T) {
	fake := fakebrowser.New()
	fake.Handle("record.network", fakebrowser.Reply(protocol.RecordNetworkResult{Request: &protocol.RecordRequest{
		ResponseBody: &protocol.RecordBody{Text: "again", Refetched: true}}}))
	fake.Handle("cdp", fakebrowser.Reply(map[string]any{"content": "read"}))
	l := browser.NewLink()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	noStore := []protocol.HTTPHeader{{Name: "Cache-Control", Value: "private, no-store"}}
	doc := func(method string, hs []protocol.HTTPHeader) protocol.RecordRequest {
		return protocol.RecordRequest{RequestInfo: protocol.RequestInfo{RequestID: "7", Method: method, Type: "document", URL: "https://a.test/"}, ResponseHeaders: hs}
	}
	ctx := context.Background()
	if b := currentDocument(ctx, l.Verbs(), 1, doc("POST", noStore), ""); b.NotKept != "no_store" || len(fake.Calls("record.network")) != 0 {
		t.Errorf("a no-store POST result: %+v, %d fetches again", b, len(fake.Calls("record.network")))
	}
	if b := currentDocument(ctx, l.Verbs(), 1, doc("GET", noStore), ""); b.Text != "again" || !b.Refetched || len(fake.Calls("cdp")) != 0 {
		t.Errorf("a no-store GET: %+v, %d debugger calls", b, len(fake.Calls("cdp")))
	}
	var p protocol.RecordNetworkParams
	if calls := fake.Calls("record.network"); len(calls) != 1 || calls[0].Decode(&p) != nil || !p.Refetch || p.RequestID != "7" {
		t.Errorf("the fetch again was asked as %+v", p)
	}
	if b := currentDocument(ctx, l.Verbs(), 1, doc("GET", nil), ""); b.Text != "read" || b.Refetched {
		t.Errorf("a cacheable document: %+v", b)
	}
	// A cacheable document the debugger finds no copy of (calls 3 and 4
	// are the next read's getFrameTree and getResourceContent) is
	// fetched again too; a POST result is not.
	fake.FailNth("cdp", 4, "internal_error", "Content unavailable. Resource was not cached")
	if b := currentDocument(ctx, l.Verbs(), 1, doc("GET", nil), ""); b.Text != "again" || !b.Refetched || len(fake.Calls("record.network")) != 2 {
		t.Errorf("a cacheable document the browser kept no copy of: %+v", b)
	}
	fake.FailNth("cdp", 6, "internal_error", "Content unavailable. Resource was not cached")
	if b := currentDocument(ctx, l.Verbs(), 1, doc("POST", nil), ""); b.NotKept != "not_seen" || len(fake.Calls("record.network")) != 2 {
		t.Errorf("a POST result the browser kept no copy of: %+v", b)
	}
	// Refused (the user's tab, an address with a secret): the reason,
	// and no fetch again.
	if b := currentDocument(ctx, l.Verbs(), 1, doc("GET", noStore), "refetch_users_tab"); b.NotKept != "refetch_users_tab" || len(fake.Calls("record.network")) != 2 {
		t.Errorf("a refused fetch again: %+v, %d fetches again", b, len(fake.Calls("record.network")))
	}
}

// Only a tab the bridge opened has its document fetched again, and only
// at an address without a secret in it.
func TestRefetchRefusal(t *testing.T) {
	for _, tt := range []struct {
		owned bool
		url   string
		want  string
	}{
		{true, "https://a.test/account?tab=orders", ""},
		{false, "https://a.test/account", "refetch_users_tab"},
		{true, "https://a.test/callback?code=4/0Ab-one-time&state=x", "refetch_secret_url"},
		{true, "https://a.test/login/magic?token=abc123def456", "refetch_secret_url"},
	} {
		if got := refetchRefusal(tt.owned, tt.url); got != tt.want {
			t.Errorf("refetchRefusal(%v, %s) = %q, want %q", tt.owned, tt.url, got, tt.want)
		}
		if why, ok := notKept[tt.want]; tt.want != "" && (!ok || why == "") {
			t.Errorf("%s has no sentence for the agent", tt.want)
		}
	}
}

// BenchmarkShapeConsole is the daemon's share of a console call on a page
// with 1,000 messages.
func BenchmarkShapeConsole(b *testing.B) {
	rec := recorded(1000)
	for range b.N {
		shapeConsole(tool.Page{TabID: 1, URL: "https://a.test/"}, noRules, rec, len(tool.Levels))
	}
}

// A detail leaves out the browser's standard headers unless allHeaders,
// gives a JSON body parsed, and a status its standard text.
func TestRequestDetailIsQuiet(t *testing.T) {
	q := protocol.RecordRequest{RequestInfo: protocol.RequestInfo{RequestID: "1", Method: "POST", URL: "https://a.test/api", Status: 404},
		RequestHeaders: []protocol.HTTPHeader{{Name: "sec-ch-ua", Value: `"Chromium"`}, {Name: "Sec-Fetch-Mode", Value: "cors"}, {Name: "User-Agent", Value: "Mozilla"},
			{Name: "Accept", Value: "*/*"}, {Name: "Content-Type", Value: "application/json"}, {Name: "X-Trace", Value: "7"}},
		ResponseHeaders: []protocol.HTTPHeader{{Name: "Content-Type", Value: "application/json"}, {Name: "Date", Value: "today"}},
		RequestBody:     &protocol.RecordBody{Text: `{"q": 1, "password": "hunter2"}`},
		ResponseBody:    &protocol.RecordBody{Text: `{"error": "not here"}`}}
	d := requestDetail(q, 1000, false)
	var names []string
	for _, h := range append(d.RequestHeaders, d.ResponseHeaders...) {
		names = append(names, h.Name)
	}
	if got := strings.Join(names, ","); got != "Content-Type,X-Trace,Content-Type" {
		t.Errorf("headers kept: %s, want Content-Type,X-Trace,Content-Type", got)
	}
	if all := requestDetail(q, 1000, true); len(all.RequestHeaders) != 6 || len(all.ResponseHeaders) != 2 {
		t.Errorf("allHeaders left some out: %v %v", all.RequestHeaders, all.ResponseHeaders)
	}
	if d.StatusText != "Not Found" {
		t.Errorf("status text %q, want Not Found", d.StatusText)
	}
	if string(d.ResponseBody.JSON) != `{"error":"not here"}` || d.ResponseBody.Text != "" {
		t.Errorf("a JSON body is not parsed: %+v", d.ResponseBody)
	}
	if strings.Contains(string(d.RequestBody.JSON), "hunter2") || !strings.Contains(string(d.RequestBody.JSON), `"q":1`) {
		t.Errorf("the JSON request body is not parsed and redacted: %s", d.RequestBody.JSON)
	}
	// Too long to fit whole: text, cut.
	if c := requestDetail(q, 10, false); c.ResponseBody.JSON != nil || c.ResponseBody.TotalChars == 0 {
		t.Errorf("a JSON body over maxChars is not cut text: %+v", c.ResponseBody)
	}
}

// A child frame's message names its frame, the frame's URL redacted; the
// top document's names none (its frameUrl is only for the site rules).
func TestShapeConsoleNamesAChildFrame(t *testing.T) {
	rec := recorded(2)
	rec.Messages[0].FrameURL = "https://a.test/?access_token=s3cr3t-t0ken-value"
	rec.Messages[1].FrameID, rec.Messages[1].FrameURL = 7, "https://b.test/frame?access_token=s3cr3t-t0ken-value"
	out := shapeConsole(tool.Page{TabID: 1, URL: "https://a.test/"}, noRules, rec, len(tool.Levels))
	if len(out.Messages) != 2 {
		t.Fatalf("kept %d messages, want 2", len(out.Messages))
	}
	if top := out.Messages[0]; top.FrameID != 0 || top.FrameURL != "" {
		t.Errorf("the top document's message names a frame: %+v", top)
	}
	child := out.Messages[1]
	if child.FrameID != 7 || !strings.HasPrefix(child.FrameURL, "https://b.test/frame") || strings.Contains(child.FrameURL, "s3cr3t") {
		t.Errorf("the child frame's message: frameId %d, frameUrl %q; want 7 and the frame's URL redacted", child.FrameID, child.FrameURL)
	}
}
