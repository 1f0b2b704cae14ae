package load

import (
	"flag"
	"fmt"
	"testing"
	"time"
)

var (
	loadSessions = flag.Int("load.sessions", 8, "BenchmarkLoad: concurrent sessions (half MCP agents, half CLI sessions)")
	loadCycles   = flag.Int("load.cycles", 10, "BenchmarkLoad: cycles of 10 commands per session and round")
	loadRounds   = flag.Int("load.rounds", 10, "BenchmarkLoad: rounds, between which the daemon's memory is read")
)

// BenchmarkLoad is a crowd of agents on one bridge: 8 sessions at once,
// MCP agents and CLI sessions mixed, each in its own workspace, each 100
// commands a round (10 × open, click, type, extract, screenshot, click,
// type, extract, screenshot, close) on pages of its own, for 10 rounds.
// It fails on any command lost, doubled or done in another session's tab,
// and reports throughput, p50/p99 per action (ms, as each door sees it: an
// MCP round trip, or a whole CLI process) and the daemon's resident memory
// after the first and the last round, which must stay flat.
//
//	go test -run '^$' -bench Load ./e2e/load/
func BenchmarkLoad(b *testing.B) {
	p := newPages(b)
	for i := 0; i < b.N; i++ {
		sessions := crowd(b, *loadSessions)
		start := daemonNow(b)
		var rss []int64
		var total time.Duration
		commands := 0
		for r := 0; r < *loadRounds; r++ {
			res, took := round(b, p, sessions, r, *loadCycles)
			total += took
			commands += res.commands
			d := daemonNow(b)
			rss = append(rss, d.RSS)
			b.Logf("round %d: %d commands in %s (%.1f/s); daemon %d MiB, %d goroutines, %d fds; %d failed, %d lost, %d duplicated, %d in another session's tabs",
				r+1, res.commands, took.Round(time.Millisecond), float64(res.commands)/took.Seconds(), d.RSS>>20, d.Goroutines, d.FDs,
				res.failed, res.lost, res.duplicated, res.cross)
			for _, pr := range res.problems {
				b.Error(pr)
			}
		}
		b.ReportMetric(float64(commands)/total.Seconds(), "commands/s")
		for _, a := range []string{"open", "click", "type", "extract", "screenshot", "close"} {
			var all []time.Duration
			for _, s := range sessions {
				all = append(all, s.lat[a]...)
			}
			b.ReportMetric(ms(quantile(all, 0.5)), a+"-p50-ms")
			b.ReportMetric(ms(quantile(all, 0.99)), a+"-p99-ms")
		}
		first, last := rss[0], rss[len(rss)-1]
		b.ReportMetric(float64(first)/(1<<20), "rss-round1-MiB")
		b.ReportMetric(float64(last)/(1<<20), "rss-last-MiB")
		// Flat: what the first round grew to is the working set; ten
		// rounds later it may not have grown by more than a quarter.
		if last > first+first/4 {
			b.Errorf("the daemon's memory grew from %d MiB after round 1 to %d MiB after round %d", first>>20, last>>20, len(rss))
		}
		closeWorkspaces(b, sessions)
		end := daemonNow(b)
		if end.Windows != start.Windows {
			b.Errorf("windows %d → %d after the load", start.Windows, end.Windows)
		}
		b.Logf("daemon memory by round (MiB): %v", mib(rss))
	}
}

func mib(bs []int64) string {
	s := ""
	for i, b := range bs {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprint(b >> 20)
	}
	return s
}
