package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// door is how a session reaches the daemon: an MCP connection, or one CLI
// process per command.
type door interface {
	// call runs one action: its result, or its coded error; err is a
	// failure of the door itself (no answer, two answers, garbage).
	call(in map[string]any) (map[string]any, *protocol.Error, error)
	close()
}

// callTimeout is far beyond any deadline: a call that takes this long
// has hung.
const callTimeout = 90 * time.Second

// mcpDoor is `browser-bridge mcp` run as an agent runs it.
type mcpDoor struct{ cs *mcp.ClientSession }

func newMCPDoor(tb testing.TB, name string) *mcpDoor {
	tb.Helper()
	cmd := bridge.Command(context.Background(), "mcp")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		tb.Fatalf("connecting to browser-bridge mcp: %v", err)
	}
	return &mcpDoor{cs}
}

func (d *mcpDoor) call(in map[string]any) (map[string]any, *protocol.Error, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := d.cs.CallTool(ctx, &mcp.CallToolParams{Name: "use_user_browser", Arguments: in})
	if err != nil {
		return nil, nil, err
	}
	b, _ := json.Marshal(res.StructuredContent)
	if res.IsError {
		var e struct{ Error *protocol.Error }
		if json.Unmarshal(b, &e) != nil || e.Error == nil {
			return nil, nil, fmt.Errorf("a tool error without a code: %s", b)
		}
		return nil, e.Error, nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, fmt.Errorf("structured content %s: %w", b, err)
	}
	// The page's text comes once, in the text content (the structured
	// content holds only the metadata); keep it for the checks.
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	m["_text"] = text.String()
	return m, nil, nil
}

func (d *mcpDoor) close() { d.cs.Close() }

// cliDoor runs `browser-bridge call` per command as session (its
// BROWSER_BRIDGE_WORKSPACE).
type cliDoor struct{ vars []string }

func newCLIDoor(session string) *cliDoor {
	return &cliDoor{vars: append(append([]string(nil), bridge.Vars...), "BROWSER_BRIDGE_WORKSPACE="+session)}
}

func (d *cliDoor) call(in map[string]any) (map[string]any, *protocol.Error, error) {
	raw, _ := json.Marshal(in)
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bridge.Bin, "call", string(raw))
	cmd.Env = d.vars
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, nil, err
	}
	// Exactly one JSON value: a result, or {"error": …}.
	dec := json.NewDecoder(&stdout)
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, nil, fmt.Errorf("no JSON answer (%v); stderr %s", err, stderr.Bytes())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("more than one answer on stdout")
	}
	if e, ok := m["error"].(map[string]any); ok {
		code, _ := e["code"].(string)
		msg, _ := e["message"].(string)
		return nil, &protocol.Error{Code: code, Message: msg}, nil
	}
	return m, nil, nil
}

func (d *cliDoor) close() {}

// session is one agent of the crowd: its door, what it sent, and how long
// each command took.
type session struct {
	token string
	door  door
	mu    sync.Mutex
	lat   map[string][]time.Duration
	// What it did, to compare with what its pages received.
	loads    map[string]int    // page → opens
	clicks   map[string]int    // page → clicks
	typed    map[string]string // value → page
	failures []string          // commands without their result
	crossed  []string          // results that came from another tab
	commands int
}

func newSession(token string, d door) *session {
	return &session{token: token, door: d, lat: map[string][]time.Duration{}}
}

// step is one command of a cycle on the session's page.
var cycle = []string{"open", "click", "type", "extract", "screenshot", "click", "type", "extract", "screenshot", "close"}

// run sends cycles×10 commands of round r.
func (s *session) run(p *pages, r, cycles int) {
	s.loads, s.clicks, s.typed = map[string]int{}, map[string]int{}, map[string]string{}
	s.failures, s.crossed = nil, nil
	for k := 0; k < cycles; k++ {
		pg := fmt.Sprintf("r%d-%d", r, k)
		tab := -1
		for j, action := range cycle {
			in := map[string]any{"action": action}
			switch action {
			case "open":
				in["url"] = p.url(s.token, pg)
			case "click":
				in["selector"] = "#press"
			case "type":
				in["selector"], in["value"], in["clear"] = "#field", fmt.Sprintf("%s:%s:%d", s.token, pg, j), true
			case "screenshot":
				in["mode"] = "viewport"
			}
			if action != "open" {
				if tab < 0 {
					s.fail(in, "no tab: the open failed")
					continue
				}
				in["tabId"] = tab
			}
			start := time.Now()
			res, cerr, err := s.door.call(in)
			took := time.Since(start)
			s.mu.Lock()
			s.lat[action] = append(s.lat[action], took)
			s.commands++
			s.mu.Unlock()
			switch {
			case err != nil:
				s.fail(in, err.Error())
				continue
			case cerr != nil:
				s.fail(in, cerr.Code+": "+cerr.Message)
				continue
			}
			if action == "open" {
				tab = int(res["tabId"].(float64))
				s.loads[pg]++
				if res["title"] != s.token+" page "+pg {
					s.cross(in, res)
				}
				continue
			}
			if id, ok := res["tabId"].(float64); ok && int(id) != tab {
				s.cross(in, res)
			}
			switch action {
			case "click":
				s.clicks[pg]++
			case "type":
				s.typed[in["value"].(string)] = pg
			case "extract":
				if b, _ := json.Marshal(res); !bytes.Contains(b, []byte("This is the page of session "+s.token+".")) {
					s.cross(in, res)
				}
			case "screenshot":
				if res["title"] != s.token+" page "+pg {
					s.cross(in, res)
				}
			}
		}
	}
}

func (s *session) fail(in map[string]any, why string) {
	s.failures = append(s.failures, fmt.Sprintf("%v: %s", in, why))
}

func (s *session) cross(in map[string]any, res map[string]any) {
	b, _ := json.Marshal(res)
	if len(b) > 300 {
		b = b[:300]
	}
	s.crossed = append(s.crossed, fmt.Sprintf("%v → %s", in, b))
}

// tally is a round's verdict.
type tally struct {
	commands, failed, lost, duplicated, cross int
	problems                                  []string
}

// judge compares what the sessions did with what their pages received.
func judge(sessions []*session, got map[string]map[string]received) tally {
	var t tally
	mine := map[string]bool{}
	for _, s := range sessions {
		mine[s.token] = true
		t.commands += s.commands
		t.failed += len(s.failures)
		t.problems = append(t.problems, s.failures...)
		t.cross += len(s.crossed)
		t.problems = append(t.problems, s.crossed...)
		pages := got[s.token]
		for pg, n := range s.loads {
			t.count(n, pages[pg].Loads, fmt.Sprintf("%s %s loads", s.token, pg))
		}
		for pg, n := range s.clicks {
			t.count(n, pages[pg].Clicks, fmt.Sprintf("%s %s clicks", s.token, pg))
		}
		for v, pg := range s.typed {
			t.count(1, pages[pg].Typed[v], fmt.Sprintf("%s typed %q", s.token, v))
		}
		// What the session's pages got that it never sent: another
		// session's doing.
		for pg, r := range pages {
			if s.loads[pg] == 0 && r.Loads > 0 {
				t.cross++
				t.problems = append(t.problems, fmt.Sprintf("%s: page %s loaded, never opened", s.token, pg))
			}
			if s.clicks[pg] == 0 && r.Clicks > 0 {
				t.cross++
				t.problems = append(t.problems, fmt.Sprintf("%s: page %s clicked %d times by someone else", s.token, pg, r.Clicks))
			}
			for v, n := range r.Typed {
				if s.typed[v] != pg {
					t.cross += n
					t.problems = append(t.problems, fmt.Sprintf("%s: page %s got %q, which it never typed there", s.token, pg, v))
				}
			}
		}
	}
	for tok := range got {
		if !mine[tok] {
			t.cross++
			t.problems = append(t.problems, "events of an unknown session "+tok)
		}
	}
	return t
}

func (t *tally) count(want, got int, what string) {
	switch {
	case got < want:
		t.lost += want - got
		t.problems = append(t.problems, fmt.Sprintf("lost: %s %d of %d", what, got, want))
	case got > want:
		t.duplicated += got - want
		t.problems = append(t.problems, fmt.Sprintf("duplicated: %s %d, want %d", what, got, want))
	}
}

func (t tally) clean() bool { return t.failed+t.lost+t.duplicated+t.cross == 0 }

// crowd is the sessions of a load run: half MCP agents, half CLI
// sessions, each in its own workspace (its session's).
func crowd(tb testing.TB, n int) []*session {
	tb.Helper()
	var out []*session
	for i := 0; i < n; i++ {
		var s *session
		if i%2 == 0 {
			s = newSession(fmt.Sprintf("mcp%d", i), newMCPDoor(tb, fmt.Sprintf("load agent %d", i)))
		} else {
			tok := fmt.Sprintf("cli%d", i)
			s = newSession(tok, newCLIDoor("session:load-"+tok))
		}
		out = append(out, s)
	}
	tb.Cleanup(func() {
		for _, s := range out {
			s.door.close()
		}
	})
	return out
}

// round runs every session's commands of round r at once and judges them
// once the pages' last events are in.
func round(tb testing.TB, p *pages, sessions []*session, r, cycles int) (tally, time.Duration) {
	p.reset()
	start := time.Now()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Go(func() { s.run(p, r, cycles) })
	}
	wg.Wait()
	took := time.Since(start)
	// The pages post their events with fetch: the last ones may still be
	// on their way.
	var t tally
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		t = judge(sessions, p.snapshot())
		if t.clean() || time.Now().After(deadline) {
			break
		}
	}
	for _, s := range sessions {
		s.commands = 0
	}
	return t, took
}

// daemonState is what status says of the daemon, and its memory.
type daemonState struct {
	PID, Goroutines, FDs, Windows int
	RSS                           int64
	Heap                          int64 // the Go runtime's live heap objects, garbage not yet swept included
}

func daemonNow(tb testing.TB) daemonState {
	tb.Helper()
	st := bridge.MustCall(tb, map[string]any{"action": "status"})
	d := st["daemon"].(map[string]any)
	ds := daemonState{PID: int(d["pid"].(float64)), Goroutines: int(d["goroutines"].(float64)), FDs: int(d["fds"].(float64)),
		Windows: len(st["windows"].([]any))}
	if h, ok := d["heapBytes"].(float64); ok {
		ds.Heap = int64(h)
	}
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(ds.PID) + "/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			ds.RSS = kb << 10
		}
	}
	return ds
}

// quantile of sorted durations.
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(q * float64(len(s)-1))
	return s[i]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// TestLoadIsExactlyOnce is BenchmarkLoad's quick twin: 4 sessions (two
// MCP agents, two CLI sessions) × 20 commands at once; nothing lost,
// doubled or done in another session's tabs, and no window left.
func TestLoadIsExactlyOnce(t *testing.T) {
	p := newPages(t)
	before := daemonNow(t)
	sessions := crowd(t, 4)
	res, took := round(t, p, sessions, 0, 2)
	t.Logf("%d commands in %s: %d failed, %d lost, %d duplicated, %d in another session's tabs", res.commands, took.Round(time.Millisecond), res.failed, res.lost, res.duplicated, res.cross)
	for _, pr := range res.problems {
		t.Error(pr)
	}
	for _, a := range []string{"open", "click", "type", "extract", "screenshot", "close"} {
		var all []time.Duration
		for _, s := range sessions {
			all = append(all, s.lat[a]...)
		}
		t.Logf("%-10s p50 %6.1f ms  p99 %6.1f ms", a, ms(quantile(all, 0.5)), ms(quantile(all, 0.99)))
	}
	if res.commands != 4*20 {
		t.Errorf("%d commands ran, want 80", res.commands)
	}
	// Each session's workspace kept its window between its pages; closing
	// the workspaces leaves none.
	closeWorkspaces(t, sessions)
	after := daemonNow(t)
	if after.Windows != before.Windows {
		t.Errorf("windows %d → %d", before.Windows, after.Windows)
	}
}

// closeWorkspaces closes each session's own workspace, as the session's
// clean-up does when it ends: its window lives as long as the workspace.
func closeWorkspaces(tb testing.TB, sessions []*session) {
	tb.Helper()
	for _, s := range sessions {
		if _, cerr, err := s.door.call(map[string]any{"action": "close", "closeWorkspace": true}); err != nil || cerr != nil {
			tb.Errorf("closing the workspace of %s: %v %v", s.token, err, cerr)
		}
	}
}

// The judge itself: a lost click, a doubled type and a click in another
// session's page are each counted where they belong.
func TestJudgeCountsLostDuplicatedAndCrossEffects(t *testing.T) {
	a := &session{token: "a", loads: map[string]int{"p": 1}, clicks: map[string]int{"p": 2}, typed: map[string]string{"a:p:1": "p"}}
	b := &session{token: "b", loads: map[string]int{"q": 1}, clicks: map[string]int{}, typed: map[string]string{}}
	got := map[string]map[string]received{
		"a": {"p": {Loads: 1, Clicks: 1, Typed: map[string]int{"a:p:1": 2}}},
		"b": {"q": {Loads: 1, Clicks: 1, Typed: map[string]int{}}},
	}
	res := judge([]*session{a, b}, got)
	if res.lost != 1 || res.duplicated != 1 || res.cross != 1 {
		t.Fatalf("lost %d, duplicated %d, cross %d; want 1 each: %v", res.lost, res.duplicated, res.cross, res.problems)
	}
}
