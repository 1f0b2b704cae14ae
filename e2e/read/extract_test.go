package read

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// extractURL opens path in the test's workspace and extracts it in one call.
func extractURL(t *testing.T, path string, extra map[string]any) (map[string]any, string) {
	t.Helper()
	in := map[string]any{"action": "extract", "url": site + path, "browserWorkspaceId": workspace(t)}
	for k, v := range extra {
		in[k] = v
	}
	return call(t, in)
}

func TestExtractSkipsHiddenContent(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/hidden", nil)
	// Text marked aria-hidden that is drawn is text a person sees (code
	// editors draw their text that way).
	for _, want := range []string{"VISIBLE-PLAIN", "VISIBLE-INSIDE-HIDDEN", "VISIBLE-SUMMARY", "VISIBLE-FAR-BELOW", "VISIBLE-ARIA-HIDDEN"} {
		if !strings.Contains(str(res, "text"), want) || !strings.Contains(str(res, "markdown"), want) {
			t.Errorf("%s missing from text or markdown:\ntext: %s\nmarkdown: %s", want, str(res, "text"), str(res, "markdown"))
		}
	}
	if strings.Contains(out, "HIDDEN-") {
		i := strings.Index(out, "HIDDEN-")
		t.Errorf("hidden content in the result: …%s…", out[max(0, i-80):min(len(out), i+40)])
	}
	if str(res, "title") != "Hidden and visible" || !strings.HasSuffix(str(res, "url"), "/hidden") || num(t, res, "tabId") <= 0 {
		t.Errorf("tab fields: %v", res)
	}
}

func TestExtractReadsShadowRootsOpenNestedAndClosed(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/shadow", nil)
	text := str(res, "text")
	order := []string{"LIGHT-TEXT before", "OPEN-SHADOW-TEXT", "NESTED-SHADOW-HEADING", "NESTED-SHADOW-TEXT", "SLOTTED-LIGHT-TEXT", "CLOSED-SHADOW-TEXT", "CONTENTS-CHILD-TEXT", "LIGHT-TEXT after"}
	at := 0
	for _, want := range order {
		i := strings.Index(text[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order in text:\n%s", want, text)
		}
		at += i
	}
	if strings.Contains(out, "HIDDEN-IN-SHADOW") || strings.Contains(out, "UNSLOTTED-LIGHT-CHILD") {
		t.Errorf("content that is not rendered came out: %s", text)
	}
	found := false
	for _, l := range list(res, "links") {
		if l["text"] == "a closed link" && l["url"] == site+"/closed-link" {
			found = true
		}
	}
	if !found {
		t.Errorf("the link in the closed shadow root is not in links: %v", res["links"])
	}
	hs := list(res, "headings")
	if len(hs) < 2 || hs[1]["text"] != "NESTED-SHADOW-HEADING" || hs[1]["level"] != float64(2) {
		t.Errorf("headings: %v", hs)
	}
}

func TestExtractIncludesSameAndCrossOriginFrames(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/frames", nil)
	text := str(res, "text")
	order := []string{"TOP-TEXT before", "SAME-ORIGIN-FRAME-TEXT", "CROSS-ORIGIN-FRAME-TEXT", "TOP-TEXT after"}
	at := 0
	for _, want := range order {
		i := strings.Index(text[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of place in text:\n%s", want, text)
		}
		at += i
	}
	if strings.Contains(out, "HIDDEN-FRAME-TEXT") {
		t.Errorf("the hidden frame's text came out")
	}
	byURL := map[string]map[string]any{}
	for _, f := range list(res, "frames") {
		byURL[str(f, "url")] = f
	}
	check := func(url string, included, crossOrigin bool, reason string) {
		t.Helper()
		f, ok := byURL[url]
		if !ok {
			t.Fatalf("frames has no %s: %v", url, res["frames"])
		}
		if f["included"] != included || f["crossOrigin"] != crossOrigin || !strings.Contains(str(f, "reason"), reason) {
			t.Errorf("frame %s: %v; want included %v, crossOrigin %v, reason ~%q", url, f, included, crossOrigin, reason)
		}
		if num(t, f, "frameId") <= 0 {
			t.Errorf("frame %s has no frameId: %v", url, f)
		}
	}
	check(site+"/frame-same", true, false, "")
	check(cross+"/frame-cross", true, true, "")
	check(site+"/frame-hidden", false, false, "hidden")
}

func TestExtractWaitsForAPageThatKeepsChangingAfterLoad(t *testing.T) {
	t.Parallel()
	start := time.Now()
	res, _ := extractURL(t, "/mutating", nil)
	took := time.Since(start)
	text := str(res, "text")
	if !strings.Contains(text, "tick 20") || !strings.Contains(text, "DONE-MUTATING") {
		t.Fatalf("extract did not wait for the page to settle (after %s):\n%s", took, text)
	}
	if took < 2*time.Second {
		t.Errorf("extract returned after %s, before the page stopped changing", took)
	}
	if w, _ := res["warnings"].([]any); len(w) > 0 {
		t.Errorf("a page that settles gives no warning: %v", w)
	}
}

func TestExtractGivesUpOnAPageThatNeverSettles(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := bridge.Call(t, map[string]any{"action": "extract", "url": site + "/forever", "browserWorkspaceId": workspace(t)})
	took := time.Since(start)
	if r.Exit != 0 || r.Err != nil {
		t.Fatalf("extract: %s %s", r.Stdout, r.Stderr)
	}
	res := r.JSON
	// Waits longer than a second report progress (the CLI prints it on
	// stderr).
	if !strings.Contains(string(r.Stderr), "waiting for the page to stop changing") {
		t.Errorf("no progress reported: %q", r.Stderr)
	}
	if !strings.Contains(str(res, "text"), "FOREVER-HEADING") {
		t.Fatalf("no content: %v", res)
	}
	if took < 7*time.Second || took > 20*time.Second {
		t.Errorf("extract returned after %s; the readiness window is 8 s", took)
	}
	w, _ := json.Marshal(res["warnings"])
	if !strings.Contains(string(w), "kept changing") {
		t.Errorf("no warning about the readiness timeout: %s", w)
	}
}

func TestExtractReturnsAtOnceOnAQuietPage(t *testing.T) {
	// The first read registers the quiet-DOM content script; pages loaded
	// after it know their last change from the start.
	extractURL(t, "/hidden", map[string]any{"include": []string{"headings"}})
	tab := openPage(t, "/article")
	time.Sleep(1200 * time.Millisecond)
	var best time.Duration
	for i := 0; i < 3; i++ {
		start := time.Now()
		call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"headings"}})
		if d := time.Since(start); i == 0 || d < best {
			best = d
		}
	}
	// A CLI run costs a process start; the quiet wait would cost 800 ms.
	if best >= 700*time.Millisecond {
		t.Errorf("extract of a page quiet for over a second took %s", best)
	}
}

func TestExtractWaitForASlowElement(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/slow", map[string]any{"waitFor": map[string]any{"selector": "#late"}})
	if !strings.Contains(str(res, "text"), "LATE-ELEMENT") {
		t.Fatalf("waitFor did not wait for #late: %s", str(res, "text"))
	}
	tab := num(t, res, "tabId")
	res, _ = call(t, map[string]any{"action": "extract", "tabId": tab, "waitFor": map[string]any{"text": "LATE-ELEMENT arrived"}, "include": []string{"text"}})
	if !strings.Contains(str(res, "text"), "LATE-ELEMENT") {
		t.Fatalf("waitFor text: %v", res)
	}
	start := time.Now()
	msg := failCode(t, map[string]any{"action": "extract", "tabId": tab, "waitFor": map[string]any{"selector": "#never"}, "timeoutMs": 2500}, protocol.CodeTimeout)
	if !strings.Contains(msg, `selector "#never"`) {
		t.Errorf("the timeout does not name the condition: %q", msg)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("timeoutMs 2500, failed after %s", took)
	}
	failCode(t, map[string]any{"action": "extract", "tabId": tab, "waitFor": map[string]any{}}, protocol.CodeInvalidArgument)
	failCode(t, map[string]any{"action": "extract", "tabId": tab, "waitFor": map[string]any{"selector": "#a", "urlContains": "x"}}, protocol.CodeInvalidArgument)
}

func TestExtractReaderKeepsTheArticle(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/article", map[string]any{"maxChars": 200000})
	reader, _ := res["reader"].(map[string]any)
	md := str(reader, "markdown")
	for _, want := range []string{"ARTICLE-PARA-0:", "ARTICLE-PARA-20:", "ARTICLE-PARA-39:"} {
		if !strings.Contains(md, want) {
			t.Errorf("reader lost %s", want)
		}
	}
	for _, chrome := range []string{"NAVLINK-", "SIDEBAR-TREND", "SIDEBAR-ADVERT", "FOOTER-COPYRIGHT", "FOOTER-LINK"} {
		if strings.Contains(md, chrome) {
			t.Errorf("reader kept the page's chrome %s", chrome)
		}
		if !strings.Contains(str(res, "markdown"), chrome) {
			t.Errorf("markdown lost %s", chrome)
		}
	}
	if !strings.Contains(str(reader, "title"), "Lighthouse Ledger") {
		t.Errorf("reader title: %v", reader)
	}
}

// partsOf collects every part of an extract result.
type parts struct {
	Markdown, Reader, Text string
	Links, Headings        []any
}

func (p *parts) add(res map[string]any) {
	p.Markdown += str(res, "markdown")
	p.Text += str(res, "text")
	if r, ok := res["reader"].(map[string]any); ok {
		p.Reader += str(r, "markdown")
	}
	if l, ok := res["links"].([]any); ok {
		p.Links = append(p.Links, l...)
	}
	if h, ok := res["headings"].([]any); ok {
		p.Headings = append(p.Headings, h...)
	}
}

func TestExtractContinuesPastTheBudget(t *testing.T) {
	t.Parallel()
	whole, _ := extractURL(t, "/big", map[string]any{"maxChars": 1000000, "include": []string{"markdown", "reader", "links", "headings", "text", "frames"}})
	if _, more := whole["nextOffset"]; more {
		t.Fatalf("a 1,000,000 budget did not hold the page: total %v", whole["totalChars"])
	}
	var want parts
	want.add(whole)
	tab := num(t, whole, "tabId")
	total := num(t, whole, "totalChars")
	if total < 60000 {
		t.Fatalf("the page is smaller than the test needs: %d", total)
	}

	// Every part, windowed: a read without include would give this page's
	// markdown only (see TestReadingALargePageToItsEnd).
	all := []string{"markdown", "reader", "links", "headings", "text"}
	const budget = 6000
	var got parts
	offset, calls := 0, 0
	for {
		in := map[string]any{"action": "extract", "tabId": tab, "maxChars": budget, "include": all}
		if offset > 0 {
			in["offset"] = offset
		}
		res, _ := call(t, in)
		calls++
		if size := len(compact(res)); size > budget*115/100 {
			t.Errorf("window at %d is %d characters of JSON for a budget of %d", offset, size, budget)
		}
		if num(t, res, "totalChars") != total {
			t.Fatalf("totalChars changed: %v, want %d", res["totalChars"], total)
		}
		got.add(res)
		next, more := res["nextOffset"]
		if !more {
			break
		}
		if int(next.(float64)) <= offset || calls > 100 {
			t.Fatalf("no progress: offset %d, next %v", offset, next)
		}
		offset = int(next.(float64))
	}
	if calls < 5 {
		t.Errorf("only %d calls for %d characters with a budget of %d", calls, total, budget)
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("the windows do not add up to the whole: markdown %d/%d, text %d/%d, reader %d/%d, links %d/%d, headings %d/%d",
			len(got.Markdown), len(want.Markdown), len(got.Text), len(want.Text), len(got.Reader), len(want.Reader),
			len(got.Links), len(want.Links), len(got.Headings), len(want.Headings))
	}
	for i := 0; i < 400; i++ {
		tok := fmt.Sprintf("BIGPARA-%04d", i)
		if n := strings.Count(got.Text, tok); n != 1 {
			t.Fatalf("%s appears %d times in the text read in windows", tok, n)
		}
	}

	// include narrows the result, and the continuation follows it.
	res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"links"}, "maxChars": 3000})
	for _, k := range []string{"markdown", "text", "reader", "headings"} {
		if _, ok := res[k]; ok {
			t.Errorf("include [links] returned %s", k)
		}
	}
	if len(list(res, "links")) == 0 || res["nextOffset"] == nil {
		t.Errorf("include [links]: %v", res)
	}
	failCode(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"cookies"}}, protocol.CodeInvalidArgument)
	failCode(t, map[string]any{"action": "extract", "url": site + "/big", "offset": 10}, protocol.CodeInvalidArgument)
}

func TestExtractNeverReadsPasswordsOrCards(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/login", nil)
	tab := num(t, res, "tabId")
	_, inspectOut := call(t, map[string]any{"action": "inspect", "tabId": tab})
	for _, secret := range []string{"S3cret-PW-attribute", "Typed-PW-Secret", "4111111111111111", "CVC-VALUE-X"} {
		if strings.Contains(out, secret) {
			t.Errorf("extract leaked %s", secret)
		}
		if strings.Contains(inspectOut, secret) {
			t.Errorf("inspect leaked %s", secret)
		}
	}
	if !strings.Contains(str(res, "text"), "alice") {
		t.Errorf("an ordinary field's value is what a person sees: %s", str(res, "text"))
	}
}
