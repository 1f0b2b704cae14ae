package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func load(t testing.TB) []byte {
	t.Helper()
	// A reload of e2e/perf's slow page recorded by the performance
	// action, cut down to the events the analysis reads (the site's
	// address and the extension's ID replaced).
	data, err := os.ReadFile("testdata/reload.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The recorded reload gives its metrics and names what slowed it: the
// 400 ms stylesheet, the 300 ms script, the shift of two nodes and the
// text LCP.
func TestAnalyzeRecordedReload(t *testing.T) {
	r, err := Analyze(load(t))
	if err != nil {
		t.Fatal(err)
	}
	m := r.Metrics
	if !r.Navigated || m.TTFBMs == nil || m.FCPMs == nil || m.LCPMs == nil {
		t.Fatalf("metrics %+v (navigated %v): want TTFB, FCP and LCP", m, r.Navigated)
	}
	if *m.TTFBMs != 43 || *m.FCPMs != 634.1 || *m.LCPMs != 634.1 || m.CLS != 0.1656 || m.TBTMs != 218.2 {
		t.Errorf("metrics ttfb %v fcp %v lcp %v cls %v tbt %v, want 43, 634.1, 634.1, 0.1656, 218.2", *m.TTFBMs, *m.FCPMs, *m.LCPMs, m.CLS, m.TBTMs)
	}
	if r.LCP == nil || r.LCP.NodeID != 18 || r.LCP.Type != "text" || r.LCP.URL != "" {
		t.Errorf("LCP %+v, want text node 18", r.LCP)
	}
	if len(r.LayoutShifts) != 1 || fmt.Sprint(r.LayoutShifts[0].NodeIDs) != "[19 18]" || r.LayoutShifts[0].Score != 0.1656 {
		t.Errorf("layout shifts %+v, want one of 0.1656 moving nodes 19 and 18", r.LayoutShifts)
	}
	if len(r.LongTasks) == 0 || r.LongTasks[0].URL != "http://site.test/busy.js" || r.LongTasks[0].DurationMs != 302.7 {
		t.Errorf("long tasks %+v, want the longest first: 302.7 ms in /busy.js", r.LongTasks)
	}
	if len(r.RenderBlocking) == 0 || r.RenderBlocking[0].URL != "http://site.test/slow.css" || r.RenderBlocking[0].DurationMs != 460.4 {
		t.Errorf("render-blocking %+v, want /slow.css first, 460.4 ms", r.RenderBlocking)
	}
	for _, q := range r.RenderBlocking {
		if q.URL == "http://site.test/slow" {
			t.Errorf("the document itself is listed as render-blocking")
		}
	}
	if len(r.LargestRequests) != 3 || r.LargestRequests[0].URL != "http://site.test/slow" || r.LargestRequests[0].Bytes != 732 {
		t.Errorf("largest requests %+v, want the document (732 bytes) first of 3", r.LargestRequests)
	}
}

// Annotate adds the event DevTools reads the top frame from, once, and
// the file stays JSON; a trace that has one is left alone.
func TestAnnotate(t *testing.T) {
	data := load(t)
	r, _ := Analyze(data)
	out := Annotate(data, r)
	var f struct {
		TraceEvents []Event `json:"traceEvents"`
	}
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatalf("annotated trace: %v", err)
	}
	first := f.TraceEvents[0]
	var a struct {
		Data struct {
			Frames []struct {
				Frame     string `json:"frame"`
				URL       string `json:"url"`
				ProcessID int64  `json:"processId"`
			} `json:"frames"`
		} `json:"data"`
	}
	if first.Name != "TracingStartedInBrowser" || !args(&first, &a) || len(a.Data.Frames) != 1 ||
		a.Data.Frames[0].URL != "http://site.test/slow" || a.Data.Frames[0].ProcessID != 31796 {
		t.Fatalf("first event %s %s, want TracingStartedInBrowser naming the top frame", first.Name, first.Args)
	}
	if again := Annotate(out, r); string(again) != string(out) {
		t.Errorf("a second Annotate changed the trace")
	}
	if got := Annotate([]byte(`{"traceEvents":[]}`), r); json.Unmarshal(got, &f) != nil || len(f.TraceEvents) != 1 {
		t.Errorf("annotating an empty trace gave %s", got)
	}
}

func ev(name string, ts, dur float64, args string) string {
	ph := "I"
	if dur > 0 {
		ph = "X"
	}
	return fmt.Sprintf(`{"name":%q,"ph":%q,"ts":%g,"dur":%g,"pid":1,"tid":1,"args":%s}`, name, ph, ts*1000, dur*1000, args)
}

func synthetic(events ...string) []byte {
	head := []string{
		`{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"CrRendererMain"}}`,
		ev("navigationStart", 0, 0, `{"frame":"F","data":{"documentLoaderURL":"http://a.test/","isLoadingMainFrame":true}}`),
	}
	return []byte(`{"traceEvents":[` + strings.Join(append(head, events...), ",") + `]}`)
}

// CLS is the largest session window (shifts less than 1 s apart, at most
// 5 s), leaving out shifts after input.
func TestCLSWindows(t *testing.T) {
	shift := func(at, score float64, input bool) string {
		return ev("LayoutShift", at, 0, fmt.Sprintf(`{"frame":"F","data":{"weighted_score_delta":%g,"had_recent_input":%v,"impacted_nodes":[{"node_id":5}]}}`, score, input))
	}
	r, err := Analyze(synthetic(
		shift(100, 0.1, false), shift(600, 0.1, false), // window 0.2
		shift(3000, 0.15, false), shift(3500, 5, true), shift(3900, 0.05, false), // 0.2, input left out
		shift(6000, 0.12, false), shift(6900, 0.12, false), // 0.24
	))
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics.CLS != 0.24 {
		t.Errorf("CLS %v, want 0.24", r.Metrics.CLS)
	}
	if len(r.LayoutShifts) != 6 || r.LayoutShifts[0].Score != 0.15 {
		t.Errorf("shifts %+v, want 6, largest first", r.LayoutShifts)
	}
}

// TBT counts each long task's time past 50 ms, after the first
// contentful paint only.
func TestTotalBlockingTime(t *testing.T) {
	r, err := Analyze(synthetic(
		ev("RunTask", 10, 200, `{}`), // before FCP: not counted
		ev("firstContentfulPaint", 300, 0, `{"frame":"F"}`),
		ev("RunTask", 250, 150, `{}`), // 100 ms after FCP: 50 counted
		ev("RunTask", 500, 120, `{}`),
		ev("EvaluateScript", 501, 110, `{"data":{"url":"http://a.test/app.js"}}`),
		ev("RunTask", 700, 40, `{}`), // short
	))
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics.TBTMs != 120 {
		t.Errorf("TBT %v, want 50 + 70", r.Metrics.TBTMs)
	}
	if len(r.LongTasks) != 3 || r.LongTasks[0].DurationMs != 200 || r.LongTasks[2].URL != "http://a.test/app.js" {
		t.Errorf("long tasks %+v, want 3, longest first, the 120 ms one in app.js", r.LongTasks)
	}
}

// A trace with no load of the page says so; a trace of another thread's
// tasks does not count them.
func TestNoLoad(t *testing.T) {
	data := []byte(`{"traceEvents":[` + ev("RunTask", 10, 200, `{}`) + `]}`)
	r, err := Analyze(data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Navigated || r.Metrics.FCPMs != nil || len(r.Warnings) == 0 || !strings.Contains(strings.Join(r.Warnings, " "), "no load") {
		t.Errorf("report %+v, want no load metrics and a warning", r)
	}
	if len(r.LongTasks) != 0 {
		t.Errorf("long tasks %+v of a thread that is not a renderer's main thread", r.LongTasks)
	}
	if string(Annotate(data, r)) != string(data) {
		t.Errorf("a trace with no load was annotated")
	}
}

func TestNotATrace(t *testing.T) {
	for _, in := range []string{``, `{}`, `{"traceEvents":{}}`, `nope`, `[{"ts":"x"}]`, `{"traceEvents":[1]}`} {
		if _, err := Analyze([]byte(in)); !errors.Is(err, ErrNotATrace) {
			t.Errorf("Analyze(%q) = %v, want ErrNotATrace", in, err)
		}
	}
	if r, err := Analyze([]byte(`[]`)); err != nil || r == nil {
		t.Errorf("an empty array: %v", err)
	}
}

// FuzzAnalyze: whatever the browser sends, Analyze answers a report or
// ErrNotATrace, never panics, and Annotate keeps a trace JSON.
func FuzzAnalyze(f *testing.F) {
	f.Add(load(f))
	f.Add(synthetic(ev("RunTask", 10, 200, `{}`), ev("LayoutShift", 1, 0, `{"data":{"score":0.3,"impacted_nodes":[{"node_id":1}]}}`)))
	f.Add([]byte(`[{"name":"navigationStart","args":{"frame":"F","data":{"documentLoaderURL":"x","isLoadingMainFrame":true}}}]`))
	f.Add([]byte(`{"traceEvents":[{"name":"largestContentfulPaint::Candidate","ts":-1e300,"args":{"data":{"nodeId":-3}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Analyze(data)
		if err != nil {
			if !errors.Is(err, ErrNotATrace) {
				t.Fatalf("error %v is not ErrNotATrace", err)
			}
			return
		}
		out := Annotate(data, r)
		if json.Valid(data) && !json.Valid(out) {
			t.Fatalf("Annotate broke the JSON: %s", out)
		}
	})
}

// An image LCP candidate names only its node: its URL is the image's
// paint of that node.
func TestImageLCP(t *testing.T) {
	r, err := Analyze(synthetic(
		ev("LargestImagePaint::Candidate", 50, 0, `{"frame":"F","data":{"DOMNodeId":15,"imageUrl":"http://a.test/hero.png"}}`),
		ev("largestContentfulPaint::Candidate", 40, 0, `{"frame":"F","data":{"nodeId":13,"type":"text"}}`),
		ev("largestContentfulPaint::Candidate", 60, 0, `{"frame":"F","data":{"nodeId":15,"type":"image"}}`),
	))
	if err != nil {
		t.Fatal(err)
	}
	if r.LCP == nil || r.LCP.NodeID != 15 || r.LCP.URL != "http://a.test/hero.png" || r.Metrics.LCPMs == nil || *r.Metrics.LCPMs != 60 {
		t.Errorf("LCP %+v at %v, want node 15, /hero.png, at 60 ms", r.LCP, r.Metrics.LCPMs)
	}
}
