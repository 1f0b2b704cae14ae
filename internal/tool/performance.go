package tool

import "time"

// performance (docs/reference.md#performance): a trace of
// the tab's reload, or of what happens next, and what it says.
func init() {
	declare(Spec{
		Name:        "performance",
		After:       "network",
		Result:      PerformanceResult{},
		Summary:     "trace a reload: load metrics and what slowed it.",
		Doc:         "records a performance trace of the tab's reload (or of the next DurationMs) and returns its metrics, LCP element, layout shifts, long tasks, render-blocking and largest requests, and the trace file's path.",
		Kind:        KindNavigate,
		Params:      []string{"reload", "durationMs", "dialog"},
		Deadline:    PerformanceDeadline,
		ChangesPage: true,
	})
}

// PerformanceDeadline is performance's deadline: a 30 s trace, and the
// time to read and analyse it.
const PerformanceDeadline = 90 * time.Second

// MaxTraceMs bounds performance's durationMs.
const MaxTraceMs = 30000

// Performance is performance's parameters; Input embeds it.
type Performance struct {
	Reload     *bool `json:"reload,omitempty" jsonschema:"performance: trace a reload (default)."`
	DurationMs int   `json:"durationMs,omitempty" jsonschema:"performance: trace the next ms instead (max 30000)."`
}

// CheckPerformance checks performance's parameters.
func (p Performance) CheckPerformance() error {
	if p.DurationMs < 0 || p.DurationMs > MaxTraceMs {
		return invalid("durationMs must be 1 to %d", MaxTraceMs)
	}
	if p.Reload != nil && *p.Reload && p.DurationMs > 0 {
		return invalid("give reload: true or durationMs, not both")
	}
	if p.Reload != nil && !*p.Reload && p.DurationMs == 0 {
		return invalid("reload: false needs durationMs (how long to trace)")
	}
	return nil
}

// PerformanceResult is what a trace of the tab says: times in ms from the
// navigation's start. Element names and URLs are the page's.
type PerformanceResult struct {
	Page
	Metrics         PerfMetrics   `json:"metrics"`
	LCP             *PerfElement  `json:"lcp,omitempty" content:"page"`
	LayoutShifts    []PerfShift   `json:"layoutShifts,omitempty" content:"page"`
	LongTasks       []PerfTask    `json:"longTasks,omitempty" content:"page"`
	RenderBlocking  []PerfRequest `json:"renderBlocking,omitempty" content:"page"`
	LargestRequests []PerfRequest `json:"largestRequests,omitempty" content:"page"`
	// TracePath is the trace file (JSON trace format, mode 0600), which
	// DevTools' Performance panel opens.
	TracePath  string `json:"tracePath"`
	TraceBytes int    `json:"traceBytes"`
	Outcome
}

// PerfMetrics are the load's metrics; absent: not in the trace.
type PerfMetrics struct {
	TTFBMs *float64 `json:"ttfbMs,omitempty"`
	FCPMs  *float64 `json:"fcpMs,omitempty"`
	LCPMs  *float64 `json:"lcpMs,omitempty"`
	CLS    float64  `json:"cls"`
	TBTMs  float64  `json:"tbtMs"`
}

// PerfElement is an element of the page: its role and name, or its tag
// and text; URL for an image.
type PerfElement struct {
	Element string `json:"element,omitempty"`
	URL     string `json:"url,omitempty"`
}

// PerfShift is one layout shift and the elements it moved.
type PerfShift struct {
	StartMs  float64  `json:"startMs"`
	Score    float64  `json:"score"`
	Elements []string `json:"elements,omitempty"`
}

// PerfTask is one long task of the page's main thread.
type PerfTask struct {
	StartMs    float64 `json:"startMs"`
	DurationMs float64 `json:"durationMs"`
	URL        string  `json:"url,omitempty"`
}

// PerfRequest is one request.
type PerfRequest struct {
	URL        string  `json:"url"`
	Bytes      int64   `json:"bytes,omitempty"`
	DurationMs float64 `json:"durationMs"`
}
