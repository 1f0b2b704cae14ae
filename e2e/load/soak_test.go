package load

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/daemon"
)

var (
	soakFor    = flag.Duration("soak.for", 60*time.Minute, "BenchmarkSoak: how long the crowd runs")
	soakWindow = flag.Duration("soak.window", 10*time.Minute, "BenchmarkSoak: the span each line of its table covers")
)

// BenchmarkSoak is BenchmarkLoad's crowd for an hour (-soak.for; the
// -load.sessions and -load.cycles flags apply), on pages that log to
// their console and fetch every second while open, beside one
// long-lived such page per session (twice a second, each in a window of
// its own) whose console and network are all read after every round: the
// extension's recorder works the whole time. It prints a line per 10
// minutes (-soak.window): throughput; p50 and p99 of open, click and
// extract; an uncontended open and close in a workspace of its own (the
// probe, medians of five); the service worker's heap after a garbage
// collection, the daemon's resident memory, its Go heap (live at its
// last collection) and goroutines, and the Chromium processes' PSS; the
// profile's saved tab groups (groups, tab entries, entries of closed
// groups) and its windows. With BROWSER_BRIDGE_HEAP_PROFILE set, the
// daemon's heap profile at each window's end is kept beside it
// (keepHeapProfile).
//
// After the first window every figure should stay within 15 % of its
// median over the later windows; the lines that do not are named at the
// end. Memory that grows beyond that, saved-group entries that grow at
// all and windows that move by more than 15 % fail the run; the times
// and throughput are only reported, since a shared machine's load moves
// them (docs/controls.md, soak).
//
//	go test -run '^$' -bench Soak -benchtime 1x -timeout 75m -v ./e2e/load/
func BenchmarkSoak(b *testing.B) {
	p := newPages(b)
	p.mu.Lock()
	p.busy = true
	p.mu.Unlock()
	probeURL := p.url("probe", "probe")
	for i := 0; i < b.N; i++ {
		sessions := crowd(b, *loadSessions)
		busy := openBusy(b, p, *loadSessions)
		b.Logf("| window (min) | commands/s | open p50 | p99 | click p50 | p99 | extract p50 | p99 (ms) | probe open | close (ms) | worker heap (MiB) | daemon RSS (MiB) | daemon heap | goroutines | Chromium PSS (MiB) | saved groups | tab entries | of closed groups | windows | page ticks |")
		var rows []soakRow
		start := time.Now()
		r := 0
		for w := 1; time.Since(start) < *soakFor; w++ {
			end := start.Add(time.Duration(w) * *soakWindow)
			row := soakRow{window: w, minutes: time.Since(start).Minutes()}
			seen := map[string]int{}
			for _, s := range sessions {
				for a, l := range s.lat {
					seen[s.token+a] = len(l)
				}
			}
			var commands int
			var took time.Duration
			for ; time.Now().Before(end); r++ {
				res, d := round(b, p, sessions, r, *loadCycles)
				for _, pr := range res.problems {
					b.Error(pr)
				}
				commands += res.commands
				took += d
				// Every busy page is read each round: each has a
				// workspace of its own, which the daemon would close
				// after 30 minutes unused.
				for _, tab := range busy {
					readBusy(b, tab)
				}
			}
			row.throughput = float64(commands) / took.Seconds()
			row.lat = map[string][2]float64{}
			for _, a := range []string{"open", "click", "extract"} {
				var all []time.Duration
				for _, s := range sessions {
					all = append(all, s.lat[a][seen[s.token+a]:]...)
				}
				row.lat[a] = [2]float64{ms(quantile(all, 0.5)), ms(quantile(all, 0.99))}
			}
			row.probeOpen, row.probeClose = probe(b, probeURL)
			row.state = soakState(b)
			row.heap = workerHeap(b)
			ds := daemonNow(b)
			row.rss, row.goHeap, row.goroutines = ds.RSS, ds.Heap, ds.Goroutines
			keepHeapProfile(b, w)
			p.mu.Lock()
			row.ticks = p.ticks
			p.mu.Unlock()
			row.minutes = time.Since(start).Minutes()
			b.Log(row.line())
			rows = append(rows, row)
		}
		judgeSoak(b, rows)
		closeWorkspaces(b, sessions)
		for i := range busy {
			bridge.MustCall(b, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": busyWorkspace(i)})
		}
	}
}

// soakRow is one window of a soak: what the crowd did in it and what it
// left behind at its end.
type soakRow struct {
	window                int
	minutes               float64 // since the start, at the window's end
	throughput            float64 // commands/s while the crowd ran
	lat                   map[string][2]float64
	probeOpen, probeClose time.Duration
	state                 soakRound
	heap, rss             int64
	goHeap                int64 // the daemon's Go heap, reported, not judged: it holds garbage not yet collected
	goroutines            int
	ticks                 int // the busy pages' fetches so far
}

func (r soakRow) line() string {
	return fmt.Sprintf("| %d (%.0f) | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %d | %d | %d | %d | %d | %d | %d |",
		r.window, r.minutes, r.throughput, r.lat["open"][0], r.lat["open"][1], r.lat["click"][0], r.lat["click"][1],
		r.lat["extract"][0], r.lat["extract"][1], ms(r.probeOpen), ms(r.probeClose),
		float64(r.heap)/(1<<20), float64(r.rss)/(1<<20), float64(r.goHeap)/(1<<20), r.goroutines, r.state.pss>>20,
		r.state.groups, r.state.tabs, r.state.orphans, r.state.windows, r.ticks)
}

// keepHeapProfile copies the daemon's heap profile, when the daemon
// writes one (daemon.HeapProfileEnv), beside it with the window's
// number, so that two windows can be compared
// (go tool pprof -base heap.pprof.w2 heap.pprof.w6).
func keepHeapProfile(tb testing.TB, window int) {
	tb.Helper()
	path := os.Getenv(daemon.HeapProfileEnv)
	if path == "" {
		return
	}
	b, err := os.ReadFile(path)
	if err == nil {
		err = os.WriteFile(fmt.Sprintf("%s.w%d", path, window), b, 0o600)
	}
	if err != nil {
		tb.Logf("the daemon's heap profile: %v", err)
	}
}

// openBusy opens n of the busy pages, kept open for the whole soak, each
// in a workspace (so a window) of its own: each is then its window's
// shown tab. Chrome runs a hidden tab's timers once a minute after five
// minutes, so busy pages that shared a window logged once a minute, not
// twice a second, and their records took hours to fill up to their
// bounds instead of minutes: the worker's heap grew all through the
// soak's hour.
func openBusy(tb testing.TB, p *pages, n int) []int {
	tb.Helper()
	var tabs []int
	for i := range n {
		res := bridge.MustCall(tb, map[string]any{"action": "open", "url": p.url("busy", strconv.Itoa(i)), "browserWorkspaceId": busyWorkspace(i)})
		tabs = append(tabs, int(res["tabId"].(float64)))
	}
	return tabs
}

// busyWorkspace is the workspace of the i-th busy page.
func busyWorkspace(i int) string { return fmt.Sprintf("soak-busy-%d", i) }

// readBusy reads a busy page's console and network, as an agent
// debugging it would, and checks that both still have its latest ticks.
func readBusy(tb testing.TB, tab int) {
	tb.Helper()
	c := bridge.MustCall(tb, map[string]any{"action": "console", "tabId": tab})
	n := bridge.MustCall(tb, map[string]any{"action": "network", "tabId": tab})
	cb, _ := json.Marshal(c)
	nb, _ := json.Marshal(n)
	if !strings.Contains(string(cb), "tick") || !strings.Contains(string(nb), "/tick") {
		tb.Errorf("the busy tab %d's console or network has no tick: %.300s / %.300s", tab, cb, nb)
	}
}

// workerHeap is the extension service worker's used JavaScript heap
// after a garbage collection, read through the test's own debugging
// connection (0, logged, when it cannot be read).
func workerHeap(tb testing.TB) int64 {
	tb.Helper()
	ctx := browsertest.Ctx(tb, 20*time.Second)
	d := bridge.SharedDevTools(tb)
	ts, err := d.Targets(ctx)
	if err != nil {
		tb.Logf("the service worker's heap: %v", err)
		return 0
	}
	for _, t := range ts {
		if t.Type != "service_worker" || !strings.HasPrefix(t.URL, "chrome-extension://") {
			continue
		}
		s, err := d.Attach(ctx, t.TargetID)
		if err != nil {
			tb.Logf("the service worker's heap: %v", err)
			return 0
		}
		defer d.Call(ctx, "", "Target.detachFromTarget", map[string]any{"sessionId": s}, nil)
		var heap struct {
			UsedSize float64 `json:"usedSize"`
		}
		d.Call(ctx, s, "HeapProfiler.collectGarbage", nil, nil)
		if err := d.Call(ctx, s, "Runtime.getHeapUsage", nil, &heap); err != nil {
			tb.Logf("the service worker's heap: %v", err)
			return 0
		}
		return int64(heap.UsedSize)
	}
	tb.Logf("the service worker's heap: no service worker of the extension is running")
	return 0
}

// judgeSoak names every figure of a window after the first that is more
// than 15 % from its median over those windows; memory beyond that, or
// more than 15 % above where it was in the second window at the end, and
// saved-group entries that grew at all fail the run.
func judgeSoak(tb testing.TB, rows []soakRow) {
	tb.Helper()
	if len(rows) < 3 {
		tb.Logf("%d windows: too few to judge flatness (the first is left out)", len(rows))
		return
	}
	later := rows[1:]
	type figure struct {
		name string
		of   func(soakRow) float64
		fail bool
	}
	figures := []figure{
		{"commands/s", func(r soakRow) float64 { return r.throughput }, false},
		{"open p50", func(r soakRow) float64 { return r.lat["open"][0] }, false},
		{"open p99", func(r soakRow) float64 { return r.lat["open"][1] }, false},
		{"click p50", func(r soakRow) float64 { return r.lat["click"][0] }, false},
		{"click p99", func(r soakRow) float64 { return r.lat["click"][1] }, false},
		{"extract p50", func(r soakRow) float64 { return r.lat["extract"][0] }, false},
		{"extract p99", func(r soakRow) float64 { return r.lat["extract"][1] }, false},
		{"worker heap", func(r soakRow) float64 { return float64(r.heap) }, true},
		{"daemon RSS", func(r soakRow) float64 { return float64(r.rss) }, true},
		{"Chromium PSS", func(r soakRow) float64 { return float64(r.state.pss) }, true},
		{"windows", func(r soakRow) float64 { return float64(r.state.windows) }, true},
	}
	flat := true
	for _, f := range figures {
		var vs []float64
		for _, r := range later {
			vs = append(vs, f.of(r))
		}
		med := median(vs)
		// A steady climb stays near its own median: memory is also
		// judged by where it ends against where it began.
		if first, last := vs[0], vs[len(vs)-1]; f.fail && first > 0 && last > first*1.15 {
			flat = false
			tb.Errorf("%s grew from %.4g in window 2 to %.4g in window %d", f.name, first, last, len(rows))
		}
		for _, r := range later {
			v := f.of(r)
			if med == 0 || (v <= med*1.15 && v >= med*0.85) {
				continue
			}
			flat = false
			msg := fmt.Sprintf("window %d: %s %.4g is %+.0f %% from its median %.4g", r.window, f.name, v, (v/med-1)*100, med)
			if f.fail && v > med {
				tb.Error(msg)
			} else {
				tb.Log("not flat: " + msg)
			}
		}
	}
	first := rows[0].state
	for _, r := range rows[1:] {
		if st := r.state; st.tabs > first.tabs || st.orphans > first.orphans || st.groups > first.groups {
			flat = false
			tb.Errorf("window %d: the saved tab groups grew from %d groups, %d tab entries (%d of closed groups) after window 1 to %d, %d (%d)",
				r.window, first.groups, first.tabs, first.orphans, st.groups, st.tabs, st.orphans)
		}
	}
	if flat {
		tb.Logf("every figure of windows 2–%d is within 15 %% of its median", len(rows))
	}
}

func median(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
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
