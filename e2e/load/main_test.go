// Package load runs a crowd of agents against one bridge: concurrent
// sessions, MCP clients (`browser-bridge mcp` over stdio) and CLI
// processes (`browser-bridge call`) mixed, each in its own workspace and
// each sending a fixed mix of open, extract, click, type, screenshot and
// close against fixture pages that report every event they receive, with
// their session's token, to the test's server. A round then checks that
// nothing was lost, nothing doubled, and nothing landed in another
// session's tabs.
//
// BenchmarkLoad (go test -run '^$' -bench Load ./e2e/load/) runs 8
// sessions × 100 commands for 10 rounds and reports throughput, p50/p99
// per action and the daemon's memory per round; TestLoadIsExactlyOnce is
// its quick twin for CI (4 sessions × 20 commands).
package load

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var bridge *browsertest.Bridge

func TestMain(m *testing.M) {
	os.Exit(browsertest.MainWithDevTools(m, &bridge))
}

// pages serves /s/<token>/<page> and records what those pages receive.
type pages struct {
	*httptest.Server
	mu sync.Mutex
	// got[token][page] is what the page of that session received.
	got map[string]map[string]*received
	// busy makes every page log to its console and fetch /tick every
	// second while it is open (the soak's own busy pages, token "busy",
	// twice a second), so that the extension's recorder works the whole
	// time (BenchmarkSoak); ticks counts those fetches.
	busy  bool
	ticks int
}

// received is what one page saw: its loads, the clicks on its button and
// the values typed into its field (each value as the input event saw it).
type received struct {
	Loads  int
	Clicks int
	Typed  map[string]int
}

func newPages(tb testing.TB) *pages {
	p := &pages{got: map[string]map[string]*received{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	tb.Cleanup(p.Close)
	return p
}

// url is the address of page pg of the session with token.
func (p *pages) url(token, pg string) string { return p.URL + "/s/" + token + "/" + pg }

func (p *pages) entry(token, pg string) *received {
	if p.got[token] == nil {
		p.got[token] = map[string]*received{}
	}
	r := p.got[token][pg]
	if r == nil {
		r = &received{Typed: map[string]int{}}
		p.got[token][pg] = r
	}
	return r
}

// The page says which session and page it is, and posts every click on
// its button and every value typed into its field to /event.
const pageHTML = `<!doctype html><title>%[1]s</title>
<h1>token %[1]s</h1><p>This is the page of session %[2]s.</p>
<button id="press">Press</button> <input id="field" aria-label="Field">
<script>
const who = %[3]s;
const post = (kind, value) => fetch("/event", {method: "POST", keepalive: true, body: JSON.stringify({...who, kind, value})});
document.getElementById("press").addEventListener("click", () => post("click", ""));
document.getElementById("field").addEventListener("input", (e) => { if (String(e.inputType).startsWith("insert")) post("type", e.target.value); });
</script>%[4]s`

// busyScript keeps the page's console and network busy (pages.busy),
// one tick every so many milliseconds.
const busyScript = `<script>
let tick = 0;
setInterval(() => { tick++; console.log("tick", tick, location.pathname); fetch("/tick?n=" + tick).catch(() => {}); }, %d);
</script>`

func (p *pages) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/tick" {
		p.mu.Lock()
		p.ticks++
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"tick":%q}`, r.URL.Query().Get("n"))
		return
	}
	if r.URL.Path == "/event" {
		var ev struct{ Token, Page, Kind, Value string }
		if json.NewDecoder(r.Body).Decode(&ev) != nil {
			http.Error(w, "bad event", 400)
			return
		}
		p.mu.Lock()
		e := p.entry(ev.Token, ev.Page)
		switch ev.Kind {
		case "click":
			e.Clicks++
		case "type":
			e.Typed[ev.Value]++
		}
		p.mu.Unlock()
		return
	}
	token, pg, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/s/"), "/")
	if !ok || !strings.HasPrefix(r.URL.Path, "/s/") {
		http.NotFound(w, r)
		return
	}
	p.mu.Lock()
	p.entry(token, pg).Loads++
	extra := ""
	if p.busy {
		every := 1000
		if token == "busy" {
			every = 500
		}
		extra = fmt.Sprintf(busyScript, every)
	}
	p.mu.Unlock()
	who, _ := json.Marshal(map[string]string{"token": token, "page": pg})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, pageHTML, html.EscapeString(token+" page "+pg), html.EscapeString(token), who, extra)
}

// reset forgets what the pages received so far.
func (p *pages) reset() {
	p.mu.Lock()
	p.got = map[string]map[string]*received{}
	p.mu.Unlock()
}

// snapshot copies what the pages received.
func (p *pages) snapshot() map[string]map[string]received {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]map[string]received{}
	for tok, m := range p.got {
		out[tok] = map[string]received{}
		for pg, r := range m {
			c := *r
			c.Typed = map[string]int{}
			for v, n := range r.Typed {
				c.Typed[v] = n
			}
			out[tok][pg] = c
		}
	}
	return out
}
