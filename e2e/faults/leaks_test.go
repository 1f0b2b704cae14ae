//go:build unix

package faults

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// snap is what a fault could leave behind, seen from outside: the
// browser's windows, tabs and tab groups, the bridge's workspaces, the
// tabs a debugger is attached to (Target.getTargets' attached flag, which
// counts the extension's chrome.debugger sessions), the native host
// processes, and the daemon's goroutines, descriptors and memory.
type snap struct {
	Windows    int
	Tabs       []string // "url" of each tab, sorted
	Groups     int
	Workspaces []string
	Attached   []string // URLs of the pages a debugger is attached to
	Hosts      int
	DaemonPID  int
	Goroutines int
	FDs        int
	RSS        int64 // bytes
}

// take reads a snap.
func take(t *testing.T) snap {
	t.Helper()
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	var s snap
	groups := map[int]bool{}
	for _, w := range st["windows"].([]any) {
		s.Windows++
		for _, tab := range w.(map[string]any)["tabs"].([]any) {
			tm := tab.(map[string]any)
			s.Tabs = append(s.Tabs, sameNewTab(tm["url"].(string)))
			if g := int(tm["groupId"].(float64)); g >= 0 {
				groups[g] = true
			}
		}
	}
	s.Groups = len(groups)
	sort.Strings(s.Tabs)
	for _, w := range st["workspaces"].([]any) {
		s.Workspaces = append(s.Workspaces, w.(map[string]any)["id"].(string))
	}
	d := st["daemon"].(map[string]any)
	s.DaemonPID = int(d["pid"].(float64))
	s.Goroutines = int(d["goroutines"].(float64))
	s.FDs = int(d["fds"].(float64))
	s.RSS = rss(s.DaemonPID)
	s.Attached = attached(t)
	s.Hosts = len(hostPIDs())
	return s
}

// sameNewTab names the browser's new-tab page one way: after a restart
// Chromium shows the same tab as chrome://newtab/ or as
// chrome://new-tab-page-third-party/, which is no leak.
func sameNewTab(u string) string {
	if u == "chrome://new-tab-page-third-party/" {
		return "chrome://newtab/"
	}
	return u
}

// attached lists the pages some debugger is attached to.
func attached(t *testing.T) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts, err := bridge.CDP.Targets(ctx)
	if err != nil {
		t.Fatalf("listing targets: %v", err)
	}
	var out []string
	for _, x := range ts {
		if x.Type == "page" && x.Attached {
			out = append(out, x.URL)
		}
	}
	sort.Strings(out)
	return out
}

// rss is a process's resident memory.
func rss(pid int) int64 {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Tolerances of the daemon's counts between two snaps: a status call in
// flight, a connection being torn down, the runtime's own moods.
const (
	goroutineSlack = 3
	fdSlack        = 2
	rssSlack       = 24 << 20
)

// leakCheck says which parts of the state to compare.
type leakCheck struct {
	// newDaemon: the daemon was replaced, its counts start afresh.
	newDaemon bool
}

// leaks compares the state now with before, waiting up to 10 s for it to
// settle (the extension detaches an idle debugger after 5 s, a closed
// connection's goroutines take a moment to end). It fails the test on a
// leak and returns "nothing" otherwise.
func (before snap) leaks(t *testing.T, c leakCheck) string {
	t.Helper()
	var problems []string
	for deadline := time.Now().Add(10 * time.Second); ; {
		now := take(t)
		problems = before.diff(now, c)
		if len(problems) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if len(problems) > 0 {
		t.Errorf("left behind: %s", strings.Join(problems, "; "))
		return strings.Join(problems, "; ")
	}
	return "nothing"
}

func (before snap) diff(now snap, c leakCheck) []string {
	var p []string
	if now.Windows != before.Windows {
		p = append(p, fmt.Sprintf("windows %d → %d", before.Windows, now.Windows))
	}
	if strings.Join(now.Tabs, " ") != strings.Join(before.Tabs, " ") {
		p = append(p, fmt.Sprintf("tabs %v → %v", before.Tabs, now.Tabs))
	}
	if now.Groups != before.Groups {
		p = append(p, fmt.Sprintf("tab groups %d → %d", before.Groups, now.Groups))
	}
	if strings.Join(now.Workspaces, " ") != strings.Join(before.Workspaces, " ") {
		p = append(p, fmt.Sprintf("workspaces %v → %v", before.Workspaces, now.Workspaces))
	}
	if len(now.Attached) > 0 {
		p = append(p, fmt.Sprintf("debugger attached to %v", now.Attached))
	}
	if now.Hosts != 1 {
		p = append(p, fmt.Sprintf("%d native host processes", now.Hosts))
	}
	if c.newDaemon {
		return p
	}
	if now.DaemonPID != before.DaemonPID {
		p = append(p, fmt.Sprintf("the daemon was replaced (%d → %d)", before.DaemonPID, now.DaemonPID))
		return p
	}
	if now.Goroutines > before.Goroutines+goroutineSlack {
		p = append(p, fmt.Sprintf("daemon goroutines %d → %d", before.Goroutines, now.Goroutines))
	}
	if now.FDs > before.FDs+fdSlack {
		p = append(p, fmt.Sprintf("daemon file descriptors %d → %d", before.FDs, now.FDs))
	}
	if now.RSS > before.RSS+rssSlack {
		p = append(p, fmt.Sprintf("daemon memory %d MiB → %d MiB", before.RSS>>20, now.RSS>>20))
	}
	return p
}

// allPIDs lists every process.
func allPIDs() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// hostPIDs are the native hosts Chrome started for this bridge (found by
// their argument and their BROWSER_BRIDGE_HOME), zombies left out.
func hostPIDs() []int {
	var out []int
	for _, p := range allPIDs() {
		dir := "/proc/" + strconv.Itoa(p)
		cmd, _ := os.ReadFile(dir + "/cmdline")
		env, _ := os.ReadFile(dir + "/environ")
		if strings.Contains(string(cmd), "chrome-extension://") && strings.Contains(string(env), "BROWSER_BRIDGE_HOME="+bridge.Home+"\x00") && !zombie(p) {
			out = append(out, p)
		}
	}
	sort.Ints(out)
	return out
}

func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}

// closeWorkspace is an agent's own clean-up after its work.
func closeWorkspace(t *testing.T, ws string) {
	t.Helper()
	o := runNow(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	if o.Err != nil {
		t.Errorf("closing workspace %s: %s", ws, o.summary())
	}
}
