package actions

import (
	"time"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/redact"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// What an action set off (docs/cli.md, "What an action set off"): once a
// page action has settled, the recorder (extension/handlers/record.js)
// is asked what it holds of the action's tab since the action began —
// page errors, failed requests — for the result's events. Two lines of
// RunOn hook it in: startReport before the action's handler, finish
// after it. Nothing is asked of the browser before the action has passed
// its guards (a paused bridge, a denied page, a tab not the agent's), so
// the report starts no recording the action would not.

// reported are the actions whose results say what they set off. Those
// that are navigations themselves do not report their own load.
var reported = map[string]bool{
	"click": true, "type": true, "press": true, "select": true, "check": true, "fill": true, "drag": true,
	"hover": true, "scroll": true, "reload": true, "back": true, "forward": true, "open": true,
}

var navigations = map[string]bool{"reload": true, "back": true, "forward": true, "open": true}

const (
	// reportMin is the youngest an action is when its report is read
	// for the last time: an error the page threw as it took the input
	// reaches the record at the end of the page's task
	// (extension/page/record.js), which a click that settled at once
	// may beat.
	reportMin = 100 * time.Millisecond
	// reportGrace is the least time after the settle before the last
	// read, for an action that took longer than reportMin: the page's
	// error record leaves at the end of its task, and on a busy machine
	// that task ends after a slow action's settle.
	reportGrace = 40 * time.Millisecond
	// reportInflight is how long after its settle an action waits for
	// the requests it started to come back (a failed one is the point of
	// the report), reportPoll how often it looks.
	reportInflight = 300 * time.Millisecond
	reportPoll     = 25 * time.Millisecond
	// reportMaxFailed is how many failed requests a report names.
	reportMaxFailed = 3
	// reportErrorChars cuts the first error's text.
	reportErrorChars = 200
)

// reportKey names a tab's mark in Env.reportMarks: where the tab's record
// stood at the end of the last report ([messages, requests]), so that
// the next report reads only what is newer; the entries from before an
// action's start are then told apart by their time.
type reportKey struct {
	instance string
	tab      int
}

// report is an action under way, for its report.
type report struct {
	r       *run
	started time.Time
	off     bool // not an action that reports
}

// startReport notes when the action began.
func startReport(r *run) *report {
	return &report{r: r, started: time.Now(), off: !reported[r.in.Action]}
}

// finish is what the action set off, read once it has settled; nil when
// nothing did (or the record cannot be read: the report is never the
// reason an action fails).
func (rep *report) finish(res any) *tool.Events {
	p, ok := res.(tool.Paged)
	if rep.off || !ok || p.PageOf().TabID == 0 || rep.r.ctx.Err() != nil {
		return nil
	}
	page := *p.PageOf()
	key := reportKey{rep.r.instance, page.TabID}
	var mark [2]int
	if v, ok := rep.r.env.reportMarks.Load(key); ok {
		mark = v.([2]int)
	}
	settled := time.Now()
	ev, next, pending, err := rep.read(page.TabID, mark)
	for err == nil && (pending || time.Since(rep.started) < reportMin || time.Since(settled) < reportGrace) && time.Since(settled) < reportInflight {
		wait := reportPoll
		if !pending {
			wait = max(reportMin-time.Since(rep.started), reportGrace-time.Since(settled), time.Millisecond)
		}
		select {
		case <-time.After(wait):
		case <-rep.r.ctx.Done():
			return nil
		}
		ev, next, pending, err = rep.read(page.TabID, mark)
	}
	if err != nil {
		return nil
	}
	rep.r.env.reportMarks.Store(key, next)
	if o, ok := res.(tool.Outcomer); ok && o.Out().Navigated && !navigations[rep.r.in.Action] {
		ev.Navigated = redact.URL(page.URL)
	}
	if ev.Errors == 0 && len(ev.FailedRequests) == 0 && ev.Navigated == "" {
		return nil
	}
	return ev
}

// read gathers the tab's errors and failed requests since the action
// began: those after mark (where the last report left the record) that
// were recorded since the action's start. next is where the record
// stands now; pending says a request the action started is under way.
func (rep *report) read(tabID int, mark [2]int) (ev *tool.Events, next [2]int, pending bool, err error) {
	r := rep.r
	// All: the console's default keeps only what came after the tab's
	// last navigation, and an error the action's page threw just before
	// it navigated is the action's too.
	c, err := r.b.RecordConsole(r.ctx, protocol.RecordConsoleParams{TabID: tabID, Since: mark[0], All: true})
	if err == nil && c.NextSince < mark[0] { // a new record under the same tab ID
		c, err = r.b.RecordConsole(r.ctx, protocol.RecordConsoleParams{TabID: tabID, All: true})
	}
	if err != nil {
		return nil, next, false, err
	}
	n, err := r.b.RecordNetwork(r.ctx, protocol.RecordNetworkParams{TabID: tabID, Since: mark[1]})
	if err == nil && n.NextSince < mark[1] {
		n, err = r.b.RecordNetwork(r.ctx, protocol.RecordNetworkParams{TabID: tabID})
	}
	if err != nil {
		return nil, next, false, err
	}
	next = [2]int{c.NextSince, n.NextSince}
	from := float64(rep.started.UnixMilli())
	denied := offLimits(r.siteRules())
	ev = &tool.Events{}
	for _, m := range c.Messages {
		// A failed request's own console line ("network") is reported as
		// the request.
		if m.Level != "error" || m.Source == "network" || float64(m.Time) < from || denied(m.URL, m.FrameURL) {
			continue
		}
		if ev.Errors++; ev.Errors == 1 {
			ev.FirstError = cut(redact.Loose(m.Text), reportErrorChars)
		}
	}
	for _, q := range n.Requests {
		// A request the page gave up on (a navigation cancels the
		// fetches under way) failed no one.
		if q.Status == 0 && q.Error == "" && q.Time >= from && q.Type != "websocket" && !denied(q.URL, q.FrameURL) {
			pending = true
		}
		if (q.Status < 400 && q.Error == "") || q.Error == "net::ERR_ABORTED" || q.Time < from || denied(q.URL, q.FrameURL) {
			continue
		}
		if len(ev.FailedRequests) == reportMaxFailed {
			continue
		}
		ev.FailedRequests = append(ev.FailedRequests, tool.FailedRequest{RequestID: q.RequestID, Method: q.Method,
			URL: redact.URL(q.URL), Status: q.Status, Error: q.Error})
	}
	return ev, next, pending, nil
}

// cut is s at most n characters long, marked with … when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
