package perf

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// result is the performance action's answer, as the CLI prints it.
type result struct {
	Metrics struct {
		TTFBMs *float64 `json:"ttfbMs"`
		FCPMs  *float64 `json:"fcpMs"`
		LCPMs  *float64 `json:"lcpMs"`
		CLS    float64  `json:"cls"`
		TBTMs  float64  `json:"tbtMs"`
	} `json:"metrics"`
	LCP *struct {
		Element string `json:"element"`
		URL     string `json:"url"`
	} `json:"lcp"`
	LayoutShifts []struct {
		Score    float64  `json:"score"`
		Elements []string `json:"elements"`
	} `json:"layoutShifts"`
	LongTasks []struct {
		DurationMs float64 `json:"durationMs"`
		URL        string  `json:"url"`
	} `json:"longTasks"`
	RenderBlocking []struct {
		URL        string  `json:"url"`
		DurationMs float64 `json:"durationMs"`
	} `json:"renderBlocking"`
	LargestRequests []struct {
		URL   string `json:"url"`
		Bytes int64  `json:"bytes"`
	} `json:"largestRequests"`
	TracePath string `json:"tracePath"`
}

func perf(t *testing.T, input map[string]any) result {
	t.Helper()
	r := bridge.Call(t, input)
	if r.Err != nil {
		t.Fatalf("performance failed: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	var res result
	if err := json.Unmarshal(r.Stdout, &res); err != nil {
		t.Fatalf("performance answered %s: %v", r.Stdout, err)
	}
	t.Logf("performance: %s", r.Stdout)
	return res
}

// A trace of the reload of a page built to be slow names what made it
// slow: the heading as the largest paint, the box the late banner moved,
// the 300 ms script and the slow stylesheet; the trace file is private
// and in the format DevTools opens.
func TestPerformanceNamesWhatSlowedTheLoad(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/slow")
	res := perf(t, map[string]any{"action": "performance", "tabId": tab})

	m := res.Metrics
	if m.TTFBMs == nil || m.FCPMs == nil || m.LCPMs == nil {
		t.Errorf("metrics %+v lack TTFB, FCP or LCP", m)
	} else if *m.FCPMs < 350 || *m.LCPMs < *m.FCPMs {
		t.Errorf("FCP %v ms, LCP %v ms: want FCP after the 400 ms stylesheet, LCP not before it", *m.FCPMs, *m.LCPMs)
	}
	if res.LCP == nil || !strings.Contains(res.LCP.Element, "The largest words") {
		t.Errorf("the LCP element is %+v, want the heading", res.LCP)
	}
	moved := false
	for _, s := range res.LayoutShifts {
		for _, e := range s.Elements {
			moved = moved || strings.Contains(e, "moved") || strings.Contains(e, "largest words")
		}
	}
	if !moved || m.CLS <= 0 {
		t.Errorf("layout shifts %+v (CLS %v): want one that moved #moved or the heading", res.LayoutShifts, m.CLS)
	}
	busy := false
	for _, k := range res.LongTasks {
		busy = busy || (strings.HasSuffix(k.URL, "/busy.js") && k.DurationMs >= 280)
	}
	if !busy {
		t.Errorf("long tasks %+v: want one of about 300 ms in /busy.js", res.LongTasks)
	}
	css := false
	for _, q := range res.RenderBlocking {
		css = css || (strings.HasSuffix(q.URL, "/slow.css") && q.DurationMs >= 350)
	}
	if !css {
		t.Errorf("render-blocking requests %+v: want /slow.css, about 400 ms", res.RenderBlocking)
	}
	if len(res.LargestRequests) == 0 {
		t.Errorf("no largest requests")
	}

	fi, err := os.Stat(res.TracePath)
	if err != nil {
		t.Fatalf("the trace file: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the trace file's mode is %v, want 0600", fi.Mode().Perm())
	}
	data, err := os.ReadFile(res.TracePath)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		TraceEvents []json.RawMessage `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &file); err != nil || len(file.TraceEvents) == 0 {
		t.Errorf("the trace file is not {\"traceEvents\": [...]} with events: %v", err)
	}
	if !strings.Contains(string(data), `"TracingStartedInBrowser"`) {
		t.Errorf("the trace file lacks the TracingStartedInBrowser event DevTools finds the page by")
	}
	if p := os.Getenv("PERF_KEEP_TRACE"); p != "" {
		os.WriteFile(p, data, 0o600)
	}
}

// durationMs traces what happens next without a reload: no load, so no
// load metrics, and a warning that says so.
func TestPerformanceForAWhileWithoutReload(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/plain")
	r := bridge.Call(t, map[string]any{"action": "performance", "tabId": tab, "durationMs": 500})
	if r.Err != nil || !strings.Contains(string(r.Stdout), "no load of the page") || !strings.Contains(string(r.Stdout), `"tracePath"`) {
		t.Fatalf("performance for 500 ms answered %s (err %v), want a trace path and the warning that there was no load", r.Stdout, r.Err)
	}
}

// Bad parameters get a clear error with its code.
func TestPerformanceRefusesBadParameters(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/plain")
	for _, in := range []map[string]any{
		{"durationMs": 40000},
		{"reload": false},
		{"reload": true, "durationMs": 100},
	} {
		in["action"], in["tabId"] = "performance", tab
		r := bridge.Call(t, in)
		if r.Err == nil || !strings.Contains(string(r.Stdout)+string(r.Stderr), "invalid_argument") {
			t.Errorf("performance %v answered %s %s (err %v), want invalid_argument", in, r.Stdout, r.Stderr, r.Err)
		}
	}
}

// A page of a site the user denied is not traced: blocked_by_policy,
// as every other action on it, and no trace is recorded.
func TestPerformanceRefusesADeniedPage(t *testing.T) {
	ws := workspace(t)
	local := strings.Replace(site, "127.0.0.1", "localhost", 1)
	tab := bridge.OpenIn(t, ws, local+"/plain")
	t.Cleanup(func() { bridge.Run(t, "policy", "remove", "localhost") })
	if r := bridge.Run(t, "policy", "deny", "localhost"); r.Err != nil {
		t.Fatalf("policy deny: %s", r.Stdout)
	}
	r := bridge.Call(t, map[string]any{"action": "performance", "tabId": tab, "timeoutMs": 10000})
	if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy || strings.Contains(string(r.Stdout), "tracePath") {
		t.Fatalf("performance on a denied page answered %s (err %v), want blocked_by_policy", r.Stdout, r.Err)
	}
}

// A picture as the largest paint is named by its URL.
func TestPerformanceNamesAnImageLCP(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/image")
	res := perf(t, map[string]any{"action": "performance", "tabId": tab})
	if res.LCP == nil || !strings.HasSuffix(res.LCP.URL, "/hero.png") {
		t.Errorf("the LCP is %+v, want the picture /hero.png", res.LCP)
	}
	if p := os.Getenv("PERF_KEEP_IMAGE_TRACE"); p != "" {
		data, _ := os.ReadFile(res.TracePath)
		os.WriteFile(p, data, 0o600)
	}
}

// An alert that holds the reload is answered, as reload answers it, and
// the trace goes on: the result says so.
func TestPerformanceAnswersADialog(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/alert")
	start := time.Now()
	r := bridge.Call(t, map[string]any{"action": "performance", "tabId": tab})
	if r.Err != nil || !strings.Contains(string(r.Stdout), `alert dialog (\"loading\")`) || !strings.Contains(string(r.Stdout), `"fcpMs"`) {
		t.Fatalf("performance of a page that alerts answered %s (err %v), want the trace and the alert named", r.Stdout, r.Err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("it took %v", d)
	}
}
