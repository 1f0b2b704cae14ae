package load

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var soakRounds = flag.Int("soak.rounds", 20, "BenchmarkSoak: rounds of BenchmarkLoad's crowd")

// BenchmarkSoak is BenchmarkLoad for longer (20 rounds; -load.sessions
// and -load.cycles apply), measured round by round together with what
// the load leaves in the user's browser: the round's throughput and p50
// per action; between rounds an uncontended open and close in a
// workspace of its own (the probe, medians of five); the profile's saved tab groups
// (groups, tab entries, entries of closed groups), its windows, and the
// Chromium processes' memory (PSS). The profile's state must stay flat:
// within 15 % of round 1's, the saved-group entries not growing at all.
//
//	go test -run '^$' -bench Soak -benchtime 1x -timeout 60m ./e2e/load/
func BenchmarkSoak(b *testing.B) {
	p := newPages(b)
	probeURL := p.url("probe", "probe")
	for i := 0; i < b.N; i++ {
		sessions := crowd(b, *loadSessions)
		var first soakRound
		b.Logf("round  cmds/s  open  click  type  extract  shot  close | probe open close (ms) | groups tabs orphans windows | chromium MiB")
		for r := 0; r < *soakRounds; r++ {
			seen := map[string]int{}
			for _, s := range sessions {
				for a, l := range s.lat {
					seen[s.token+a] = len(l)
				}
			}
			res, took := round(b, p, sessions, r, *loadCycles)
			for _, pr := range res.problems {
				b.Error(pr)
			}
			p50 := map[string]float64{}
			for _, a := range []string{"open", "click", "type", "extract", "screenshot", "close"} {
				var all []time.Duration
				for _, s := range sessions {
					all = append(all, s.lat[a][seen[s.token+a]:]...)
				}
				p50[a] = ms(quantile(all, 0.5))
			}
			open, closed := probe(b, probeURL)
			st := soakState(b)
			if r == 0 {
				first = st
			}
			b.Logf("%5d  %6.1f  %4.0f  %5.0f  %4.0f  %7.0f  %4.0f  %5.0f | %10.0f %5.0f | %6d %4d %7d %7d | %12d",
				r+1, float64(res.commands)/took.Seconds(), p50["open"], p50["click"], p50["type"], p50["extract"], p50["screenshot"], p50["close"],
				ms(open), ms(closed), st.groups, st.tabs, st.orphans, st.windows, st.pss>>20)
			if st.tabs > first.tabs || st.orphans > first.orphans || st.groups > first.groups {
				b.Errorf("round %d: the saved tab groups grew from %d groups, %d tab entries (%d of closed groups) after round 1 to %d, %d (%d)",
					r+1, first.groups, first.tabs, first.orphans, st.groups, st.tabs, st.orphans)
			}
			if beyond(st.windows, first.windows) {
				b.Errorf("round %d: %d windows, after round 1 %d", r+1, st.windows, first.windows)
			}
		}
		closeWorkspaces(b, sessions)
	}
}

// beyond says whether n is more than 15 % away from ref.
func beyond(n, ref int) bool {
	d := n - ref
	if d < 0 {
		d = -d
	}
	return d*100 > ref*15
}

// probeTimes is how many opens and closes a probe times: one alone
// scatters by more than the 15 % the probe is judged by (a renderer that
// starts slower, a garbage collection), so a round reports the median.
const probeTimes = 5

// probe times opens and closes in the probe's own workspace, with
// nothing else running, and returns the medians.
func probe(tb testing.TB, url string) (open, closed time.Duration) {
	tb.Helper()
	var opens, closes []time.Duration
	for range probeTimes {
		start := time.Now()
		o := bridge.MustCall(tb, map[string]any{"action": "open", "url": url, "browserWorkspaceId": "soak-probe"})
		opens = append(opens, time.Since(start))
		start = time.Now()
		bridge.MustCall(tb, map[string]any{"action": "close", "tabId": o["tabId"]})
		closes = append(closes, time.Since(start))
	}
	return quantile(opens, 0.5), quantile(closes, 0.5)
}

// soakRound is what the load left in the browser after a round.
type soakRound struct {
	groups, tabs, orphans, windows int
	pss                            int64
}

func soakState(tb testing.TB) soakRound {
	tb.Helper()
	var st soakRound
	if s, err := browsertest.ReadSavedTabGroups(bridge.Launch.Profile); err == nil {
		st.groups, st.tabs, st.orphans = len(s.Groups), len(s.Tabs), len(s.Orphans())
	} else {
		tb.Logf("the saved tab groups: %v", err)
	}
	st.windows = daemonNow(tb).Windows
	st.pss = treePSS(bridge.Launch.PID)
	return st
}

// treePSS is the proportional set size of the process pid and all its
// descendants (Chromium's browser, renderers, GPU and utility
// processes): shared pages counted once.
func treePSS(pid int) int64 {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			children[pp] = append(children[pp], p)
		}
	}
	var total int64
	todo := []int{pid}
	for len(todo) > 0 {
		p := todo[0]
		todo = append(todo[1:], children[p]...)
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", p))
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "Pss:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				total += kb << 10
			}
		}
	}
	return total
}
