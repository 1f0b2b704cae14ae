package actions

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// reportOf runs a report of a click on tab 7 against a fake record of
// msgs and reqs, recorded (as the entries' times say) after the click
// began unless their time is set.
func reportOf(t *testing.T, action string, navigated bool, msgs []protocol.RecordMessage, reqs []protocol.RecordRequest) (*tool.Events, *fakebrowser.Browser) {
	t.Helper()
	fake := fakebrowser.New()
	env := engine(t, fake)
	in := input(t, `{"action":"reload","tabId":7}`)
	in.Action = action
	r := newRun(context.Background(), env, nil, "session:test", in, nil)
	rep := startReport(r)
	now := time.Now().UnixMilli()
	for i := range msgs {
		if msgs[i].Time == 0 {
			msgs[i].Time = now + 1
		}
	}
	for i := range reqs {
		if reqs[i].Time == 0 {
			reqs[i].Time = float64(now + 1)
		}
	}
	fake.Handle("record.console", fakebrowser.Reply(protocol.RecordConsoleResult{RecordInfo: protocol.RecordInfo{NextSince: len(msgs)}, Messages: msgs}))
	fake.Handle("record.network", fakebrowser.Reply(protocol.RecordNetworkResult{RecordInfo: protocol.RecordInfo{NextSince: len(reqs)}, Requests: reqs}))
	res := &tool.FillResult{Page: tool.Page{TabID: 7, URL: "https://app.test/next?token=s3cr3t"}}
	res.Navigated = navigated
	return rep.finish(res), fake
}

func msg(level, source, text string) protocol.RecordMessage {
	return protocol.RecordMessage{Message: protocol.Message{Level: level, Source: source, Text: text}}
}

func req(id, method, url string, status int, errText string) protocol.RecordRequest {
	return protocol.RecordRequest{RequestInfo: protocol.RequestInfo{RequestID: id, Method: method, URL: url, Status: status, Error: errText}}
}

func TestReportCountsErrorsAndFailedRequests(t *testing.T) {
	old := msg("error", "exception", "Uncaught before the click")
	old.Time = time.Now().Add(-time.Minute).UnixMilli()
	oldReq := req("1", "GET", "https://app.test/old", 500, "")
	oldReq.Time = float64(time.Now().Add(-time.Minute).UnixMilli())
	ev, _ := reportOf(t, "click", false, []protocol.RecordMessage{
		old,
		msg("log", "console", "clicked"),
		msg("error", "network", "GET https://app.test/api/items 500"),
		msg("error", "exception", "Uncaught TypeError: items.map is not a function; Authorization: Bearer abcdef123456"),
		msg("error", "console", "second error"),
	}, []protocol.RecordRequest{
		oldReq,
		req("10", "GET", "https://app.test/ok", 200, ""),
		req("11", "GET", "https://app.test/pending", 0, ""),
		req("12", "GET", "https://app.test/aborted", 0, "net::ERR_ABORTED"),
		req("20", "GET", "https://app.test/api/items?api_key=k3y", 500, ""),
		req("21", "POST", "https://app.test/api/save", 404, ""),
		req("22", "GET", "http://127.0.0.1:9/refused", 0, "net::ERR_CONNECTION_REFUSED"),
		req("23", "GET", "https://app.test/api/fourth", 503, ""),
	})
	if ev == nil {
		t.Fatal("no events")
	}
	if ev.Errors != 2 || !strings.HasPrefix(ev.FirstError, "Uncaught TypeError: items.map") || strings.Contains(ev.FirstError, "abcdef123456") {
		t.Errorf("errors %d, first %q: want 2, the TypeError, its token redacted", ev.Errors, ev.FirstError)
	}
	if len(ev.FailedRequests) != 3 {
		t.Fatalf("failed requests %+v, want the first three", ev.FailedRequests)
	}
	f := ev.FailedRequests[0]
	if f.RequestID != "20" || f.Method != "GET" || f.Status != 500 || strings.Contains(f.URL, "k3y") {
		t.Errorf("first failed request %+v, want 20, GET, 500, its key redacted", f)
	}
	if ev.FailedRequests[2].Error != "net::ERR_CONNECTION_REFUSED" {
		t.Errorf("the refused request: %+v", ev.FailedRequests[2])
	}
	if ev.Navigated != "" {
		t.Errorf("navigated %q for a click that did not", ev.Navigated)
	}
}

func TestReportIsAbsentWhenNothingHappened(t *testing.T) {
	ev, fake := reportOf(t, "click", false, []protocol.RecordMessage{msg("log", "console", "fine"), msg("warning", "console", "meh")},
		[]protocol.RecordRequest{req("1", "GET", "https://app.test/ok", 200, "")})
	if ev != nil {
		t.Errorf("events %+v, want none", ev)
	}
	if len(fake.Calls("record.console")) == 0 {
		t.Error("the record was not read")
	}
	// An action that does not report (extract, say) reads no record.
	ev, fake = reportOf(t, "extract", false, []protocol.RecordMessage{msg("error", "exception", "boom")}, nil)
	if ev != nil || len(fake.Calls("record.console")) != 0 {
		t.Errorf("extract reported %+v", ev)
	}
}

func TestReportNamesAClicksNavigationNotAReloads(t *testing.T) {
	ev, _ := reportOf(t, "click", true, nil, nil)
	if ev == nil || ev.Navigated != "https://app.test/next?token=%5Bredacted%2C+6+chars%5D" {
		t.Errorf("a click that navigated: %+v", ev)
	}
	if ev, _ := reportOf(t, "reload", true, nil, nil); ev != nil {
		t.Errorf("a reload reported its own load: %+v", ev)
	}
}

func TestReportOfAnUnreadableRecordIsNone(t *testing.T) {
	fake := fakebrowser.New()
	env := engine(t, fake)
	r := newRun(context.Background(), env, nil, "session:test", input(t, `{"action":"click","tabId":7,"x":1,"y":1}`), nil)
	rep := startReport(r)
	start := time.Now()
	if ev := rep.finish(&tool.FillResult{Page: tool.Page{TabID: 7}}); ev != nil {
		t.Errorf("events %+v from no record", ev)
	}
	if d := time.Since(start); d >= reportMin {
		t.Errorf("an unreadable record cost %v", d)
	}
}

// TestReportWaitsForARequestUnderWay: a request the action started that
// is still out when the action settles is waited for, within
// reportInflight, and reported once it failed.
func TestReportWaitsForARequestUnderWay(t *testing.T) {
	fake := fakebrowser.New()
	env := engine(t, fake)
	r := newRun(context.Background(), env, nil, "session:test", input(t, `{"action":"reload","tabId":7}`), nil)
	r.in.Action = "click"
	rep := startReport(r)
	at := float64(time.Now().UnixMilli() + 1)
	reads := 0
	fake.Handle("record.console", fakebrowser.Reply(protocol.RecordConsoleResult{}))
	fake.Handle("record.network", fakebrowser.Typed(func(_ context.Context, p protocol.RecordNetworkParams) (any, error) {
		reads++
		q := req("30", "GET", "https://app.test/api/slow", 0, "")
		if reads >= 3 {
			q.Status = 502
		}
		q.Time = at
		return protocol.RecordNetworkResult{RecordInfo: protocol.RecordInfo{NextSince: 1}, Requests: []protocol.RecordRequest{q}}, nil
	}))
	ev := rep.finish(&tool.FillResult{Page: tool.Page{TabID: 7}})
	if ev == nil || len(ev.FailedRequests) != 1 || ev.FailedRequests[0].Status != 502 {
		t.Fatalf("events %+v after %d reads, want the slow request's 502", ev, reads)
	}
}
