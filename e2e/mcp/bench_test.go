package mcp

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// BenchmarkStatusRoundTrip measures what the MCP layer adds to a call: a
// status round trip through `browser-bridge mcp` (JSON-RPC over stdio,
// decoding, shaping) against the same call made directly with
// internal/client, as the CLI does. Both go through the same daemon to the
// same browser. Each reports the median of its calls; mcp also reports
// its median as a multiple of client's (x-client-median).
//
//	go test ./e2e/mcp -run '^$' -bench StatusRoundTrip -benchtime 200x
func BenchmarkStatusRoundTrip(b *testing.B) {
	var direct, viaMCP time.Duration
	b.Run("client", func(b *testing.B) {
		c, err := client.Connect(context.Background(), paths.ForHome(bridge.Home), "session:bench")
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		in := map[string]any{"action": "status"}
		direct = medianOf(b, func() error {
			_, err := c.Call(context.Background(), in, tool.StatusDeadline, nil)
			return err
		})
	})
	b.Run("mcp", func(b *testing.B) {
		cs := startMCP(b, nil)
		args := map[string]any{"action": "status"}
		callTool(b, cs, args) // the first call connects to the daemon
		viaMCP = medianOf(b, func() error {
			callTool(b, cs, args)
			return nil
		})
		if direct > 0 {
			b.ReportMetric(float64(viaMCP)/float64(direct), "x-client-median")
		}
	})
	if direct > 0 && viaMCP > 0 {
		b.Logf("status median: client %s, mcp %s, ratio mcp/client %.2f", direct, viaMCP, float64(viaMCP)/float64(direct))
	}
}

// medianOf runs f b.N times and reports the median duration of one run.
func medianOf(b *testing.B, f func() error) time.Duration {
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	m := times[len(times)/2]
	b.ReportMetric(float64(m.Microseconds()), "median-µs")
	return m
}
