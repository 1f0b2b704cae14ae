package record

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// benchClient is a connection to the daemon, as an MCP server has one:
// the calls' times are the chain's (daemon → host → extension → back),
// not a CLI process's start.
func benchClient(b *testing.B) func(map[string]any) json.RawMessage {
	ctx := context.Background()
	c, err := client.Connect(ctx, paths.ForHome(bridge.Home), "session:bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return func(in map[string]any) json.RawMessage {
		b.Helper()
		out, err := c.Call(ctx, in, 60*time.Second, nil)
		if err != nil {
			b.Fatalf("%v: %v", in, err)
		}
		return out
	}
}

type record struct {
	TabID     int               `json:"tabId"`
	NextSince int               `json:"nextSince"`
	Dropped   int               `json:"dropped"`
	Messages  []json.RawMessage `json:"messages"`
	Requests  []json.RawMessage `json:"requests"`
}

func decode(b *testing.B, raw json.RawMessage) record {
	var r record
	if err := json.Unmarshal(raw, &r); err != nil {
		b.Fatal(err)
	}
	return r
}

// median times fn n times and returns the median, in ms.
func median(n int, fn func()) float64 {
	ds := make([]float64, 0, n)
	for range n {
		t := time.Now()
		fn()
		ds = append(ds, float64(time.Since(t).Microseconds())/1000)
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// BenchmarkConsoleAndNetworkCalls times a console and a network call on a
// page that logged 1,000 messages and made 1,000 requests (the network
// ring keeps the newest 500), medians of b.N calls each. Run with:
// go test -run '^$' -bench ConsoleAndNetwork ./e2e/record/
func BenchmarkConsoleAndNetworkCalls(b *testing.B) {
	call := benchClient(b)
	tab := decode(b, call(map[string]any{"action": "open", "url": site + "/many?n=1000&reqs=1000"})).TabID
	defer call(map[string]any{"action": "close", "tabId": tab})
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		c := decode(b, call(map[string]any{"action": "console", "tabId": tab}))
		n := decode(b, call(map[string]any{"action": "network", "tabId": tab}))
		if c.NextSince >= 1000 && n.NextSince >= 1000 {
			break
		}
		if time.Now().After(end) {
			b.Fatalf("the page recorded %d messages and %d requests, want 1,000 each", c.NextSince, n.NextSince)
		}
	}
	for _, c := range []struct {
		name string
		in   map[string]any
		want func(record) bool
	}{
		{"network", map[string]any{"action": "network", "tabId": tab}, func(r record) bool { return len(r.Requests) == 500 }},
		{"console", map[string]any{"action": "console", "tabId": tab}, func(r record) bool { return len(r.Messages) == 1000 }},
		{"console-since", map[string]any{"action": "console", "tabId": tab, "since": 500}, func(r record) bool { return len(r.Messages) == 500 }},
		{"console-errors", map[string]any{"action": "console", "tabId": tab, "level": "error"}, func(r record) bool { return true }},
		{"network-since", map[string]any{"action": "network", "tabId": tab, "since": 990}, func(r record) bool { return true }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var size int
			med := median(b.N, func() {
				out := call(c.in)
				size = len(out)
				if !c.want(decode(b, out)) {
					b.Fatalf("%s: unexpected result of %d bytes", c.name, len(out))
				}
			})
			b.ReportMetric(med, "median-ms")
			b.ReportMetric(float64(size), "result-B")
		})
	}
}

// BenchmarkFiftyTabsLogging opens 50 tabs whose pages each log 10,000
// lines, and reports the memory the daemon (its RSS) and the extension's
// service worker (its JS heap, Runtime.getHeapUsage) hold then: bounded,
// since each tab's ring keeps 1,000 messages. Closing the tabs gives the
// records back. Run with:
// go test -run '^$' -bench FiftyTabs -benchtime 1x ./e2e/record/
func BenchmarkFiftyTabsLogging(b *testing.B) {
	ctx := browsertest.Ctx(b, 10*time.Minute)
	call := benchClient(b)
	dev := bridge.SharedDevTools(b)
	sw, err := dev.WaitTarget(ctx, "service_worker", "chrome-extension://"+bridge.Launch.ExtensionID)
	if err != nil {
		b.Fatal(err)
	}
	swSession, err := dev.Attach(ctx, sw.TargetID)
	if err != nil {
		b.Fatal(err)
	}
	heap := func() float64 {
		var h struct {
			UsedSize float64 `json:"usedSize"`
		}
		dev.Call(ctx, swSession, "HeapProfiler.collectGarbage", nil, nil)
		if err := dev.Call(ctx, swSession, "Runtime.getHeapUsage", nil, &h); err != nil {
			b.Fatal(err)
		}
		return h.UsedSize / (1 << 20)
	}
	rss := func() float64 {
		s, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", bridge.DaemonPID(b)))
		if err != nil {
			return 0
		}
		for _, line := range strings.Split(string(s), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
		return 0
	}
	for range b.N {
		heap0, rss0 := heap(), rss()
		ws := "bench-fifty"
		// One tab at a time, each until its 10,000 lines are in: tabs of
		// one site may share a renderer, whose one main thread a page
		// logging 10,000 lines keeps busy.
		dropped := 0
		for i := range 50 {
			tab := decode(b, call(map[string]any{"action": "open", "browserWorkspaceId": ws, "url": fmt.Sprintf("%s/many?n=10000&after=1&i=%d", site, i)})).TabID
			// Done when its last line is in (or after a minute).
			for end := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
				raw := call(map[string]any{"action": "console", "tabId": tab, "level": "log"})
				if strings.Contains(string(raw), "line 9999 of") || time.Now().After(end) {
					dropped += decode(b, raw).Dropped
					break
				}
			}
			if i == 9 {
				b.ReportMetric(heap(), "sw-heap-10tabs-MiB")
			}
		}
		b.ReportMetric(heap0, "sw-heap-before-MiB")
		b.ReportMetric(heap(), "sw-heap-50tabs-MiB")
		b.ReportMetric(rss0, "daemon-rss-before-MiB")
		b.ReportMetric(rss(), "daemon-rss-50tabs-MiB")
		b.ReportMetric(float64(dropped)/50, "dropped-per-tab")
		call(map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
		time.Sleep(time.Second)
		b.ReportMetric(heap(), "sw-heap-closed-MiB")
	}
}
