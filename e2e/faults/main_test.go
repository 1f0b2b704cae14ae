//go:build unix

// Package faults holds the fault tests: each breaks one link of the chain
// (the native host, the daemon, the tab, the page, the extension's service
// worker, the browser itself, another debugger) while a command is in
// flight against a real Chromium, and checks that the command ends exactly
// once — one result or one coded error, before its deadline — and that
// nothing is left behind: windows, tabs, tab groups, debugger attachments,
// host processes, and the daemon's goroutines, file descriptors and memory.
//
// The browser is started by the test process itself with a debugging pipe
// the test owns (browsertest.Options.DebugPipe): that is how a test stops
// the extension's service worker, attaches a second debugger to a tab, or
// quits and restarts Chrome with the same profile. The shipped extension
// has no verb for any of it.
package faults

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var (
	bridge *browsertest.Bridge
	// pages serves the fixture pages (see fixtures); other is the same
	// server under another site name (localhost), so that a page there
	// runs in a renderer process of its own.
	pages *httptest.Server
	other string
)

func TestMain(m *testing.M) {
	pages = httptest.NewServer(http.HandlerFunc(fixtures))
	other = strings.Replace(pages.URL, "127.0.0.1", "localhost", 1)
	code := browsertest.MainWith(m, &bridge, browsertest.Options{DebugPipe: true})
	pages.Close()
	printTable()
	os.Exit(code)
}

// fixtures are the pages the faults happen on:
//
//	/page/<title>   a page with that title
//	/slow/<ms>      a page whose response takes ms milliseconds
//	/form           a field that navigates away once focused, a button that navigates away on mousedown
//	/loop           a page stuck in an endless script loop once loaded
//	/alerts         a button that opens alert() after alert() for ever
func fixtures(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	path := r.URL.Path
	switch {
	case strings.HasPrefix(path, "/page/"):
		title := html.EscapeString(strings.TrimPrefix(path, "/page/"))
		fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1><p>A page.</p>", title, title)
	case strings.HasPrefix(path, "/slow/"):
		ms, _ := strconv.Atoi(strings.TrimPrefix(path, "/slow/"))
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "<!doctype html><title>Slow</title><h1>Slow</h1>")
	case path == "/form":
		fmt.Fprint(w, `<!doctype html><title>Form</title>
<label>Name <input id="name" onfocus="location.href='/page/Away'"></label>
<button id="go" onmousedown="location.href='/page/Away'">Go</button>`)
	case path == "/loop":
		// The loop starts after the load, so open itself comes back.
		fmt.Fprint(w, `<!doctype html><title>Loop</title><h1>Loop</h1><button>Stuck</button>
<script>addEventListener("load", () => setTimeout(() => { for (;;) {} }, 200));</script>`)
	case path == "/alerts":
		fmt.Fprint(w, `<!doctype html><title>Alerts</title>
<button id="a" onclick="for (let i = 0; ; i++) alert('alert ' + i)">Alerts</button>`)
	default:
		http.NotFound(w, r)
	}
}

// row is one line of the fault table that TestMain prints at the end.
type row struct {
	scenario, got, took, leaked string
}

var (
	tableMu sync.Mutex
	table   []row
)

// report adds a row to the fault table.
func report(t *testing.T, scenario string, o outcome, leaked string) {
	t.Helper()
	took := o.Took.Round(time.Millisecond).String()
	if o.AfterFault != 0 {
		took += fmt.Sprintf(" (%s after the fault)", o.AfterFault.Round(time.Millisecond))
	}
	t.Logf("%s → %s in %s; leaked: %s", scenario, o.summary(), took, leaked)
	tableMu.Lock()
	defer tableMu.Unlock()
	table = append(table, row{scenario, o.summary(), took, leaked})
}

func printTable() {
	if len(table) == 0 {
		return
	}
	sort.SliceStable(table, func(i, j int) bool { return table[i].scenario < table[j].scenario })
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "scenario\twhat the agent got\ttook\tleaked")
	for _, r := range table {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.scenario, r.got, r.took, r.leaked)
	}
	w.Flush()
}
