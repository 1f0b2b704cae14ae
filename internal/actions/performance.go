package actions

import (
	"fmt"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/redact"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"github.com/browser-bridge/browser-bridge/internal/trace"
)

func init() { register("performance", performance) }

// maxTraceBytes bounds a trace the daemon reads (a busy page's 30 s can
// reach tens of megabytes).
const maxTraceBytes = 256 << 20

// performance records a trace of the tab (its reload, or the next
// durationMs) through the debugger, keeps it as a file DevTools'
// Performance panel opens, and derives the load's metrics and what held
// it up from the trace's events (internal/trace; docs/reference.md,
// "performance"). Chrome's debugging bar shows while it records.
func performance(r *run) (*tool.PerformanceResult, error) {
	if err := r.in.Performance.CheckPerformance(); err != nil {
		return nil, err
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	if err := r.answerer().answerOpenDialogs(t.TabID); err != nil {
		return nil, err
	}
	reload := r.in.DurationMs == 0
	what := "the reload"
	if !reload {
		what = fmt.Sprintf("the next %d ms", r.in.DurationMs)
	}
	stop := r.keepTelling("recording a performance trace of "+what+" (the browser shows its debugging bar meanwhile)", 5*time.Second)
	// A dialog the page opens meanwhile (an alert while it loads) is
	// answered as the call's dialog parameter says, as reload does.
	var rec protocol.TraceRecordResult
	err = r.answerer().unheld(t.TabID, func() (err error) {
		rec, err = r.b.TraceRecord(r.ctx, protocol.TraceRecordParams{TabID: t.TabID, Reload: &reload, DurationMs: r.in.DurationMs, WaitMs: min(r.loadWait(), 30000)})
		return err
	})
	stop()
	if err != nil {
		return nil, err
	}
	data, err := readTrace(r, t.TabID, rec.Stream)
	if err != nil {
		return nil, err
	}
	rep, err := trace.Analyze(data)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "the browser's trace could not be read: %v; run performance again, with a shorter durationMs if the page is busy", err)
	}
	data = trace.Annotate(data, rep)
	path, err := r.env.Screenshots.Write(data, ".json")
	if err != nil {
		return nil, err
	}
	// The tab as it is after the trace (a reload may have gone elsewhere).
	if now, err := r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: t.TabID}); err == nil {
		t = now
	}
	// The trace's page is judged again: a reload that went to a site the
	// rules deny must not be described (its elements, its URLs).
	denied := offLimits(r.siteRules())
	if denied(t.URL) {
		return nil, protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d went to %s during the trace, which the site rules deny; the trace is not described", protocol.Tab(t.TabID), redact.URL(t.URL))
	}
	res := &tool.PerformanceResult{
		Page:       pageOf(t),
		Metrics:    tool.PerfMetrics(rep.Metrics),
		TracePath:  path,
		TraceBytes: len(data),
		Outcome:    tool.Outcome{Navigated: reload, Warnings: rep.Warnings},
	}
	if reload && rec.Loaded != nil && !*rec.Loaded {
		res.Warnings = append(res.Warnings, "the page had not finished loading when the trace ended")
	}
	// The elements the trace names by node ID, described by the browser.
	var ids []int64
	if rep.LCP != nil && rep.LCP.NodeID > 0 {
		ids = append(ids, rep.LCP.NodeID)
	}
	for _, s := range rep.LayoutShifts {
		ids = append(ids, s.NodeIDs...)
	}
	names := map[int64]string{}
	if len(ids) > 0 {
		if nodes, err := r.b.TraceNodes(r.ctx, protocol.TraceNodesParams{TabID: t.TabID, NodeIDs: ids}); err == nil {
			for _, n := range nodes.Nodes {
				names[n.NodeID] = describeNode(n)
			}
		}
	}
	if l := rep.LCP; l != nil {
		res.LCP = &tool.PerfElement{Element: names[l.NodeID], URL: perfURL(l.URL, denied)}
	}
	for _, s := range rep.LayoutShifts {
		ps := tool.PerfShift{StartMs: s.StartMs, Score: s.Score}
		for _, id := range s.NodeIDs {
			if n := names[id]; n != "" {
				ps.Elements = append(ps.Elements, n)
			}
		}
		res.LayoutShifts = append(res.LayoutShifts, ps)
	}
	for _, k := range rep.LongTasks {
		k.URL = perfURL(k.URL, denied)
		res.LongTasks = append(res.LongTasks, tool.PerfTask(k))
	}
	// A request to a denied site (a frame of a user's page) is left out;
	// the others' URLs are redacted like network's.
	for _, q := range rep.RenderBlocking {
		if !denied(q.URL) {
			q.URL = redact.URL(q.URL)
			res.RenderBlocking = append(res.RenderBlocking, tool.PerfRequest(q))
		}
	}
	for _, q := range rep.LargestRequests {
		if !denied(q.URL) {
			q.URL = redact.URL(q.URL)
			res.LargestRequests = append(res.LargestRequests, tool.PerfRequest(q))
		}
	}
	return res, nil
}

// perfURL is a URL the trace names, as the result shows it: redacted, or
// left out when the site rules deny it.
func perfURL(u string, denied func(...string) bool) string {
	if u == "" || denied(u) {
		return ""
	}
	return redact.URL(u)
}

// readTrace reads the trace's stream to its end, at most maxTraceBytes.
func readTrace(r *run, tabID int, handle string) ([]byte, error) {
	var buf strings.Builder
	for {
		chunk, err := r.b.TraceRead(r.ctx, protocol.TraceReadParams{TabID: tabID, Handle: handle})
		if err != nil {
			return nil, err
		}
		buf.WriteString(chunk.Data)
		if chunk.EOF {
			return []byte(buf.String()), nil
		}
		if buf.Len() > maxTraceBytes {
			r.b.TraceRead(r.ctx, protocol.TraceReadParams{TabID: tabID, Handle: handle, Close: true})
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "the trace is over %d MB: trace a shorter durationMs", maxTraceBytes>>20)
		}
	}
}

// describeNode names an element as a result does: its role and name
// ("button \"Buy\""), else its tag, id and the start of its text. All of
// it comes from the page.
func describeNode(n protocol.TraceNode) string {
	role := n.Role
	switch role {
	case "", "generic", "none", "StaticText", "InlineTextBox", "paragraph":
		role = ""
	}
	if role != "" && n.Name != "" {
		return fmt.Sprintf("%s %q", role, n.Name)
	}
	s := n.Tag
	if s == "" {
		s = "node"
	}
	if n.ID != "" {
		s += "#" + n.ID
	}
	if n.Text != "" {
		s += fmt.Sprintf(" %q", n.Text)
	}
	return s
}
