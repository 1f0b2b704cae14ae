// Package trace reads a Chrome performance trace (the JSON trace format
// that DevTools' Performance panel opens: {"traceEvents": [...]}) and
// derives what an agent asks of a page load: its metrics (TTFB, FCP, LCP,
// CLS, total blocking time), the LCP element, the layout shifts, the long
// tasks, the render-blocking requests and the largest requests. See
// docs/reference.md, "performance".
//
// The trace's bytes come from the browser and are untrusted: Analyze
// checks every field it reads and never panics (FuzzAnalyze).
package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Event is one trace event, the fields the analysis reads.
type Event struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`  // µs
	Dur  float64         `json:"dur"` // µs, for complete ("X") events
	Pid  int64           `json:"pid"`
	Tid  int64           `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// Report is what Analyze derives. Times are in ms from the navigation's
// start (or, without a navigation in the trace, from the trace's start).
// NodeIDs are the DOM's backend node IDs, which the caller turns into
// elements.
type Report struct {
	Metrics         Metrics
	LCP             *LCP
	LayoutShifts    []Shift
	LongTasks       []Task
	RenderBlocking  []Request
	LargestRequests []Request
	// Navigated: the trace holds a load of the tab's top frame.
	Navigated bool
	Warnings  []string

	top top // the top frame's load, for Annotate
}

// top is where the tab's top frame loaded: its frame ID and URL, and the
// renderer's main thread.
type top struct {
	frame, url string
	pid, tid   int64
	ts         float64
}

// Metrics of the load; nil: not in the trace.
type Metrics struct {
	TTFBMs *float64 `json:"ttfbMs,omitempty"`
	FCPMs  *float64 `json:"fcpMs,omitempty"`
	LCPMs  *float64 `json:"lcpMs,omitempty"`
	CLS    float64  `json:"cls"`
	TBTMs  float64  `json:"tbtMs"`
}

// LCP is the largest contentful paint's element: NodeID, and for an
// image its URL.
type LCP struct {
	NodeID int64
	Type   string // "text" or "image"
	URL    string
}

// Shift is one layout shift: its score and the nodes that moved.
type Shift struct {
	StartMs float64
	Score   float64
	NodeIDs []int64
}

// Task is one long task of the page's main thread, and the script it ran
// most of.
type Task struct {
	StartMs    float64
	DurationMs float64
	URL        string
}

// Request is one network request.
type Request struct {
	URL        string
	Bytes      int64
	DurationMs float64
}

// Limits of what a report lists.
const (
	maxShifts     = 10
	maxShiftNodes = 5
	maxTasks      = 10
	maxRequests   = 5
	maxURL        = 300
	longTaskMs    = 50
)

// ErrNotATrace: the bytes are not a trace.
var ErrNotATrace = errors.New("not a trace: want JSON {\"traceEvents\": [...]} or an array of events")

// Analyze parses data, a trace in the JSON trace format (an object with
// traceEvents, or a bare array of events), and derives the report.
func Analyze(data []byte) (*Report, error) {
	events, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return analyze(events), nil
}

// Parse reads the events of a trace.
func Parse(data []byte) ([]Event, error) {
	var events []Event
	s := strings.TrimLeft(string(data[:min(len(data), 64)]), " \t\r\n")
	if strings.HasPrefix(s, "[") {
		// The array format may lack its closing bracket (Chrome writes it
		// so when a trace is cut short); only a whole one is read here.
		if err := json.Unmarshal(data, &events); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotATrace, err)
		}
		return events, nil
	}
	var obj struct {
		TraceEvents *[]Event `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotATrace, err)
	}
	if obj.TraceEvents == nil {
		return nil, ErrNotATrace
	}
	return *obj.TraceEvents, nil
}

// args decodes an event's args into v, leaving v as it is when they do
// not fit.
func args(e *Event, v any) bool {
	return len(e.Args) > 0 && json.Unmarshal(e.Args, v) == nil
}

type thread struct{ pid, tid int64 }

type request struct {
	url      string
	start    float64
	end      float64
	bytes    int64
	blocking bool
	frame    string
}

func analyze(events []Event) *Report {
	r := &Report{}
	sort.SliceStable(events, func(i, j int) bool { return events[i].Ts < events[j].Ts })

	// The tab's top frame and the renderer threads that run it.
	mainFrame := ""
	mainThreads := map[thread]bool{}
	rendererMain := map[thread]bool{}
	framePids := map[int64]bool{}
	var traceStart, traceEnd float64
	first := true
	for i := range events {
		e := &events[i]
		if e.Ph != "M" && e.Ts > 0 {
			if first || e.Ts < traceStart {
				traceStart = e.Ts
			}
			first = false
			if end := e.Ts + max(e.Dur, 0); end > traceEnd {
				traceEnd = end
			}
		}
		switch e.Name {
		case "thread_name":
			var a struct {
				Name string `json:"name"`
			}
			if args(e, &a) && a.Name == "CrRendererMain" {
				rendererMain[thread{e.Pid, e.Tid}] = true
			}
		case "TracingStartedInBrowser":
			var a struct {
				Data struct {
					Frames []struct {
						Frame     string `json:"frame"`
						Parent    string `json:"parent"`
						ProcessID int64  `json:"processId"`
						Primary   *bool  `json:"isInPrimaryMainFrame"`
						OutOfProc bool   `json:"isOutermostMainFrame"`
					} `json:"frames"`
				} `json:"data"`
			}
			if args(e, &a) {
				for _, f := range a.Data.Frames {
					if f.Parent == "" && mainFrame == "" && (f.Primary == nil || *f.Primary) {
						mainFrame = f.Frame
						if f.ProcessID != 0 {
							framePids[f.ProcessID] = true
						}
					}
				}
			}
		case "FrameCommittedInBrowser":
			var a struct {
				Data struct {
					Frame     string `json:"frame"`
					Parent    string `json:"parent"`
					ProcessID int64  `json:"processId"`
				} `json:"data"`
			}
			if args(e, &a) && a.Data.Parent == "" && (mainFrame == "" || a.Data.Frame == mainFrame) && a.Data.ProcessID != 0 {
				mainFrame = a.Data.Frame
				framePids[a.Data.ProcessID] = true
			}
		}
	}
	// The navigation: the last start of a load of the top frame.
	origin, navigated := traceStart, false
	for i := range events {
		e := &events[i]
		if e.Name != "navigationStart" {
			continue
		}
		var a struct {
			Frame string `json:"frame"`
			Data  struct {
				URL           string `json:"documentLoaderURL"`
				MainFrame     bool   `json:"isLoadingMainFrame"`
				NavigationID  string `json:"navigationId"`
				OutermostMain *bool  `json:"isOutermostMainFrame"`
			} `json:"data"`
		}
		if !args(e, &a) || !a.Data.MainFrame || a.Data.URL == "" || (mainFrame != "" && a.Frame != mainFrame) {
			continue
		}
		if mainFrame == "" {
			mainFrame = a.Frame
		}
		origin, navigated = e.Ts, true
		r.top = top{frame: mainFrame, url: a.Data.URL, pid: e.Pid, tid: e.Tid, ts: traceStart}
		if rendererMain[thread{e.Pid, e.Tid}] {
			framePids[e.Pid] = true
		}
	}
	r.Navigated = navigated
	for t := range rendererMain {
		if len(framePids) == 0 || framePids[t.pid] {
			mainThreads[t] = true
		}
	}
	ms := func(ts float64) float64 { return round1((ts - origin) / 1000) }
	inFrame := func(frame string) bool { return mainFrame == "" || frame == mainFrame }

	// Requests.
	reqs := map[string]*request{}
	var order []string
	var docRequest string
	for i := range events {
		e := &events[i]
		switch e.Name {
		case "ResourceSendRequest", "ResourceReceiveResponse", "ResourceFinish":
		default:
			continue
		}
		var a struct {
			Data struct {
				RequestID      string  `json:"requestId"`
				URL            string  `json:"url"`
				Frame          string  `json:"frame"`
				RenderBlocking string  `json:"renderBlocking"`
				ResourceType   string  `json:"resourceType"`
				Encoded        int64   `json:"encodedDataLength"`
				DidFail        bool    `json:"didFail"`
				FinishTime     float64 `json:"finishTime"`
				Timing         *struct {
					RequestTime       float64 `json:"requestTime"`
					ReceiveHeadersEnd float64 `json:"receiveHeadersEnd"`
				} `json:"timing"`
			} `json:"data"`
		}
		if !args(e, &a) || a.Data.RequestID == "" {
			continue
		}
		q := reqs[a.Data.RequestID]
		if q == nil {
			if e.Ts < origin && navigated {
				continue // before the load
			}
			q = &request{start: e.Ts}
			reqs[a.Data.RequestID] = q
			order = append(order, a.Data.RequestID)
		}
		switch e.Name {
		case "ResourceSendRequest":
			if q.url == "" {
				q.url, q.frame = a.Data.URL, a.Data.Frame
				q.blocking = a.Data.RenderBlocking == "blocking" || a.Data.RenderBlocking == "in_body_parser_blocking"
				if navigated && docRequest == "" && a.Data.ResourceType == "Document" && inFrame(a.Data.Frame) {
					docRequest = a.Data.RequestID
				}
			}
		case "ResourceReceiveResponse":
			if a.Data.RequestID == docRequest && navigated && r.Metrics.TTFBMs == nil {
				at := e.Ts
				if t := a.Data.Timing; t != nil && t.RequestTime > 0 && t.ReceiveHeadersEnd > 0 {
					at = t.RequestTime*1e6 + t.ReceiveHeadersEnd*1000
				}
				v := max(ms(at), 0)
				r.Metrics.TTFBMs = &v
			}
			if a.Data.Encoded > q.bytes {
				q.bytes = a.Data.Encoded
			}
		case "ResourceFinish":
			q.end = e.Ts
			if a.Data.Encoded > 0 {
				q.bytes = a.Data.Encoded
			}
		}
	}

	// Paints. The URL of an image painted, by node: an LCP candidate of
	// type image names only its node.
	imageURL := map[int64]string{}
	for i := range events {
		e := &events[i]
		if e.Name != "LargestImagePaint::Candidate" && e.Name != "PaintImage" {
			continue
		}
		var a struct {
			Data struct {
				DOMNodeID int64  `json:"DOMNodeId"`
				NodeID    int64  `json:"nodeId"`
				ImageURL  string `json:"imageUrl"`
				URL       string `json:"url"`
			} `json:"data"`
		}
		if args(e, &a) {
			if a.Data.DOMNodeID > 0 && a.Data.ImageURL != "" {
				imageURL[a.Data.DOMNodeID] = a.Data.ImageURL
			} else if a.Data.NodeID > 0 && a.Data.URL != "" && imageURL[a.Data.NodeID] == "" {
				imageURL[a.Data.NodeID] = a.Data.URL
			}
		}
	}
	var fcp float64
	var lcp *Event
	var lcpData LCP
	for i := range events {
		e := &events[i]
		if e.Ts < origin {
			continue
		}
		var a struct {
			Frame string `json:"frame"`
			Data  struct {
				NodeID       int64  `json:"nodeId"`
				Type         string `json:"type"`
				ImageURL     string `json:"imageUrl"`
				URL          string `json:"url"`
				IsMainFrame  *bool  `json:"isMainFrame"`
				CandidateIdx int    `json:"candidateIndex"`
			} `json:"data"`
		}
		switch e.Name {
		case "firstContentfulPaint":
			if navigated && fcp == 0 && args(e, &a) && inFrame(a.Frame) {
				fcp = e.Ts
				v := ms(e.Ts)
				r.Metrics.FCPMs = &v
			}
		case "largestContentfulPaint::Candidate":
			if navigated && args(e, &a) && inFrame(a.Frame) && (a.Data.IsMainFrame == nil || *a.Data.IsMainFrame) {
				lcp = e
				u := a.Data.ImageURL
				if u == "" {
					u = a.Data.URL
				}
				if u == "" {
					u = imageURL[a.Data.NodeID]
				}
				lcpData = LCP{NodeID: a.Data.NodeID, Type: a.Data.Type, URL: cut(u)}
			}
		case "largestContentfulPaint::Invalidate":
			if args(e, &a) && inFrame(a.Frame) {
				lcp = nil
			}
		}
	}
	if lcp != nil {
		v := ms(lcp.Ts)
		r.Metrics.LCPMs = &v
		if lcpData.Type != "image" {
			lcpData.URL = ""
		}
		r.LCP = &lcpData
	}
	if !navigated {
		r.Warnings = append(r.Warnings, "no load of the page in the trace: ttfbMs, fcpMs and lcpMs need one (reload: true)")
	}

	// Layout shifts and CLS (the largest session window: shifts less than
	// 1 s apart, at most 5 s long, not after input).
	var windowStart, last, sum float64
	for i := range events {
		e := &events[i]
		if e.Name != "LayoutShift" || e.Ts < origin {
			continue
		}
		var a struct {
			Frame string `json:"frame"`
			Data  struct {
				Score         float64 `json:"score"`
				Weighted      float64 `json:"weighted_score_delta"`
				HadInput      bool    `json:"had_recent_input"`
				IsMainFrame   *bool   `json:"is_main_frame"`
				ImpactedNodes []struct {
					NodeID int64 `json:"node_id"`
				} `json:"impacted_nodes"`
			} `json:"data"`
		}
		if !args(e, &a) || a.Data.HadInput {
			continue
		}
		score := a.Data.Weighted
		if score == 0 {
			score = a.Data.Score
		}
		if score <= 0 || score > 100 {
			continue
		}
		if sum == 0 || e.Ts-last > 1e6 || e.Ts-windowStart > 5e6 {
			windowStart, sum = e.Ts, 0
		}
		sum += score
		last = e.Ts
		r.Metrics.CLS = max(r.Metrics.CLS, sum)
		s := Shift{StartMs: ms(e.Ts), Score: round4(score)}
		for _, n := range a.Data.ImpactedNodes {
			if n.NodeID > 0 && len(s.NodeIDs) < maxShiftNodes {
				s.NodeIDs = append(s.NodeIDs, n.NodeID)
			}
		}
		r.LayoutShifts = append(r.LayoutShifts, s)
	}
	r.Metrics.CLS = round4(r.Metrics.CLS)
	sort.SliceStable(r.LayoutShifts, func(i, j int) bool { return r.LayoutShifts[i].Score > r.LayoutShifts[j].Score })
	r.LayoutShifts = r.LayoutShifts[:min(len(r.LayoutShifts), maxShifts)]

	// Long tasks of the main thread, the script each ran most of, and
	// the total blocking time after the first contentful paint.
	var tasks []*Event
	for i := range events {
		e := &events[i]
		if e.Ph == "X" && e.Name == "RunTask" && e.Dur > longTaskMs*1000 && e.Ts >= origin && mainThreads[thread{e.Pid, e.Tid}] {
			tasks = append(tasks, e)
		}
	}
	blockFrom := origin
	if fcp > 0 {
		blockFrom = fcp
	}
	for _, t := range tasks {
		// The part before blockFrom does not count; the first 50 ms of
		// what is left do not either.
		if clipped := (t.Ts + t.Dur - max(t.Ts, blockFrom)) / 1000; clipped > longTaskMs {
			r.Metrics.TBTMs += clipped - longTaskMs
		}
	}
	r.Metrics.TBTMs = round1(r.Metrics.TBTMs)
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].Dur > tasks[j].Dur })
	for _, t := range tasks[:min(len(tasks), maxTasks)] {
		r.LongTasks = append(r.LongTasks, Task{StartMs: ms(t.Ts), DurationMs: round1(t.Dur / 1000), URL: cut(scriptOf(events, t))})
	}

	// Render-blocking requests (of the top frame, before the first
	// paint) and the largest ones.
	var all []Request
	for _, id := range order {
		q := reqs[id]
		if q.url == "" {
			continue
		}
		d := 0.0
		if q.end > q.start {
			d = round1((q.end - q.start) / 1000)
		}
		req := Request{URL: cut(q.url), Bytes: q.bytes, DurationMs: d}
		if q.blocking && inFrame(q.frame) && (fcp == 0 || q.start < fcp) && id != docRequest {
			r.RenderBlocking = append(r.RenderBlocking, req)
		}
		all = append(all, req)
	}
	sort.SliceStable(r.RenderBlocking, func(i, j int) bool { return r.RenderBlocking[i].DurationMs > r.RenderBlocking[j].DurationMs })
	r.RenderBlocking = r.RenderBlocking[:min(len(r.RenderBlocking), maxRequests*2)]
	sort.SliceStable(all, func(i, j int) bool { return all[i].Bytes > all[j].Bytes })
	for _, q := range all {
		if len(r.LargestRequests) == maxRequests || q.Bytes <= 0 {
			break
		}
		r.LargestRequests = append(r.LargestRequests, q)
	}
	if len(events) > 0 && traceEnd > traceStart && !first && len(mainThreads) == 0 {
		r.Warnings = append(r.Warnings, "the trace names no main thread of the page: no long tasks or blocking time")
	}
	return r
}

// scriptOf is the URL of the script that a task spent most of its time
// in: the longest of the events within it (on its thread) that name one.
func scriptOf(events []Event, t *Event) string {
	best, bestDur := "", -1.0
	i := sort.Search(len(events), func(i int) bool { return events[i].Ts >= t.Ts })
	for ; i < len(events) && events[i].Ts <= t.Ts+t.Dur; i++ {
		e := &events[i]
		if e.Pid != t.Pid || e.Tid != t.Tid || e == t {
			continue
		}
		switch e.Name {
		case "EvaluateScript", "FunctionCall", "TimerFire", "v8.compile", "v8.run", "EventDispatch", "FireAnimationFrame":
		default:
			continue
		}
		var a struct {
			Data struct {
				URL string `json:"url"`
			} `json:"data"`
		}
		if !args(e, &a) || a.Data.URL == "" {
			continue
		}
		if e.Dur > bestDur {
			best, bestDur = a.Data.URL, e.Dur
		}
	}
	return best
}

// cut keeps a URL from the page short (a data: URL can be megabytes).
func cut(u string) string {
	if len(u) <= maxURL {
		return u
	}
	i := maxURL
	for i > 0 && !utf8Start(u[i]) {
		i--
	}
	return u[:i] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func round1(v float64) float64 { return float64(int64(v*10+sign(v)*0.5)) / 10 }
func round4(v float64) float64 { return float64(int64(v*1e4+sign(v)*0.5)) / 1e4 }

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// Annotate returns data, a trace in the object format, with the
// TracingStartedInBrowser event DevTools' Performance panel reads the
// page's top frame and renderer from, when the trace lacks one and r
// found a load. A trace a debugger records on a tab holds only the tab's
// renderer process, so Chrome's browser process never writes that event.
func Annotate(data []byte, r *Report) []byte {
	t := r.top
	if t.frame == "" || bytes.Contains(data, []byte(`"TracingStartedInBrowser"`)) {
		return data
	}
	i := bytes.Index(data, []byte(`"traceEvents"`))
	if i < 0 {
		return data
	}
	j := bytes.IndexByte(data[i:], '[')
	if j < 0 {
		return data
	}
	at := i + j + 1
	ev, err := json.Marshal(map[string]any{
		"name": "TracingStartedInBrowser", "cat": "disabled-by-default-devtools.timeline", "ph": "I", "s": "t",
		"pid": t.pid, "tid": t.tid, "ts": t.ts,
		"args": map[string]any{"data": map[string]any{
			"frameTreeNodeId": 1, "persistentIds": true,
			"frames": []map[string]any{{"frame": t.frame, "url": t.url, "name": "", "processId": t.pid}},
		}},
	})
	if err != nil {
		return data
	}
	rest := bytes.TrimLeft(data[at:], " \t\r\n")
	if len(rest) > 0 && rest[0] != ']' {
		ev = append(ev, ',')
	}
	out := make([]byte, 0, len(data)+len(ev))
	out = append(out, data[:at]...)
	out = append(out, ev...)
	return append(out, data[at:]...)
}
