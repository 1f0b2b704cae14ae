package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the model is sent, measured where it reads it: through
// `browser-bridge mcp` with the official SDK's client. A result's size is
// the bytes of its text content (what the model reads; structuredContent
// holds the same metadata for programs), and tokens are estimated at 4
// bytes each, the same count throughout (docs/reference.md, "What a
// result costs the model").

// econForm is the 10-step task's form (e2e/bench_test.go's benchForm).
const econForm = `<!doctype html><title>Order form</title>
<body style="margin:20px"><h1>Order</h1>
<form id="f">
<p><label>Name <input id="name"></label></p>
<p><label>Email <input id="email" type="email"></label></p>
<p><label>Country <select id="country"><option>Denmark</option><option>Norway</option><option>Sweden</option></select></label></p>
<p><label><input type="checkbox" id="agree"> I agree to the terms</label></p>
<p><label>Message <textarea id="msg"></textarea></label></p>
<p><button id="send" type="submit">Send order</button></p>
</form>
<p id="out"></p>
<script>
document.getElementById("f").addEventListener("submit", async (e) => {
  e.preventDefault();
  const q = new URLSearchParams({name: document.getElementById("name").value});
  const r = await fetch("/submit?" + q);
  document.getElementById("out").textContent = await r.text();
});
</script></body>`

// econList is a page with a 200-item list: ticking an item's box marks it
// done in its text.
func econList() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Tasks</title><body><h1>Tasks</h1><h2>This week</h2><ul>`)
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, `<li><label><input type="checkbox" id="c%d"> <span>Task %d: water the plants in room %d</span></label></li>`, i, i, i)
	}
	b.WriteString(`</ul><script>document.addEventListener("change", e => {
  const s = e.target.parentElement.querySelector("span");
  s.textContent = s.textContent.replace(/^Task/, e.target.checked ? "Done" : "Task");
});</script></body>`)
	return b.String()
}

// econSite serves the form, its answer, the list, and the large page of
// e2e/read.
func econSite(t testing.TB) *httptest.Server {
	big, err := os.ReadFile("../read/testdata/big.html")
	if err != nil {
		t.Fatal(err)
	}
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/form", page(econForm))
	mux.HandleFunc("/list", page(econList()))
	mux.HandleFunc("/big", page(string(big)))
	mux.HandleFunc("/submit", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "Thank you, %s", r.URL.Query().Get("name"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// economy is what one run of the tasks sent the model, in bytes of text.
type economy struct {
	task      int   // the 10-step form task, all results (open included)
	click     int   // the task's click
	typed     int   // the task's first type
	smallRead int   // the task's first extract (of the form)
	large     int   // the large page read to its end, all calls
	listFull  int   // the list task, reading in full after each tick
	listDiff  int   // the same with changes: true
	steps     []int // each step of the 10-step task
	log       []string
}

// measureEconomy runs the tasks through a new MCP session.
func measureEconomy(t testing.TB) economy {
	srv := econSite(t)
	cs := startMCP(t, nil)
	const run = "mcp-economy"
	t.Cleanup(func() { callTool(t, cs, map[string]any{"action": "close", "closeWorkspace": true, "runId": run}) })
	var e economy
	call := func(in map[string]any) (*mcp.CallToolResult, int) {
		t.Helper()
		in["runId"] = run
		res := callTool(t, cs, in)
		if res.IsError {
			t.Fatalf("%v: %s", in, text(res))
		}
		n := len(text(res))
		e.log = append(e.log, fmt.Sprintf("%-8s %5d B: %s", in["action"], n, abbreviate(text(res))))
		return res, n
	}

	// The 10-step form task.
	res, n := call(map[string]any{"action": "open", "url": srv.URL + "/form"})
	e.steps = append(e.steps, n)
	tab := num(t, structured(t, res), "tabId")
	steps := []map[string]any{
		{"action": "extract", "tabId": tab},
		{"action": "type", "tabId": tab, "label": "Name", "value": "Ada"},
		{"action": "type", "tabId": tab, "label": "Email", "value": "ada@example.com"},
		{"action": "select", "tabId": tab, "label": "Country", "option": "Norway"},
		{"action": "check", "tabId": tab, "label": "I agree"},
		{"action": "type", "tabId": tab, "label": "Message", "value": "Two widgets, please."},
		{"action": "press", "tabId": tab, "keys": "Tab"},
		{"action": "click", "tabId": tab, "role": "button", "name": "Send order"},
		{"action": "extract", "tabId": tab, "include": []string{"markdown"}, "waitFor": map[string]any{"text": "Thank you"}},
	}
	var last string
	for i, s := range steps {
		res, n := call(s)
		e.steps = append(e.steps, n)
		switch i {
		case 0:
			e.smallRead = n
		case 1:
			e.typed = n
		case 7:
			e.click = n
		}
		last = text(res)
	}
	if !strings.Contains(last, "Thank you, Ada") {
		t.Errorf("the task's last read misses the answer:\n%s", last)
	}
	for _, n := range e.steps {
		e.task += n
	}

	// The large page, read to its end.
	res, _ = call(map[string]any{"action": "open", "url": srv.URL + "/big"})
	big := num(t, structured(t, res), "tabId")
	for offset, calls := 0, 0; calls < 50; calls++ {
		in := map[string]any{"action": "extract", "tabId": big}
		if offset > 0 {
			in["offset"] = offset
		}
		res, n := call(in)
		e.large += n
		next, ok := structured(t, res)["nextOffset"].(float64)
		if !ok {
			break
		}
		offset = int(next)
	}

	// The list task: read, then tick three items and read after each, in
	// full and with changes: true.
	for _, changes := range []bool{false, true} {
		res, _ := call(map[string]any{"action": "open", "url": srv.URL + "/list"})
		list := num(t, structured(t, res), "tabId")
		sum := 0
		read := func() string {
			in := map[string]any{"action": "extract", "tabId": list}
			if changes {
				in["changes"] = true
			}
			res, n := call(in)
			sum += n
			return text(res)
		}
		read()
		for _, item := range []int{7, 93, 150} {
			_, n := call(map[string]any{"action": "check", "tabId": list, "selector": fmt.Sprintf("#c%d", item)})
			sum += n
			if got := read(); !strings.Contains(got, fmt.Sprintf("Done %d:", item)) {
				t.Errorf("the read after ticking item %d misses it (changes %v):\n%s", item, changes, abbreviate(got))
			}
		}
		if changes {
			e.listDiff = sum
		} else {
			e.listFull = sum
		}
	}
	return e
}

// abbreviate is s on one line, cut for a log.
func abbreviate(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if r := []rune(s); len(r) > 300 {
		return string(r[:300]) + "…"
	}
	return s
}

// tok estimates tokens at 4 bytes each.
func tok(n int) int { return (n + 3) / 4 }

// The targets (docs/reference.md, "What a result costs the model"): the
// 10-step task in at most 700 tokens, a click in at most 120 bytes, the
// form's read in at most 600, the large page read to its end in at most
// 150 KB, and the list task with changes: true in at most 40 % of its
// tokens with full reads.
func TestMCPResultsAreLean(t *testing.T) {
	e := measureEconomy(t)
	t.Logf("results:\n%s", strings.Join(e.log, "\n"))
	t.Logf("10-step task %d B (%d tok), steps %v; click %d B; small read %d B; large page %d B; list task: full reads %d tok, changes %d tok (%.0f %%)",
		e.task, tok(e.task), e.steps, e.click, e.smallRead, e.large, tok(e.listFull), tok(e.listDiff), 100*float64(e.listDiff)/float64(e.listFull))
	if tok(e.task) > 700 {
		t.Errorf("the 10-step task comes to %d tokens (%d B), over 700", tok(e.task), e.task)
	}
	if e.click > 120 {
		t.Errorf("the click's result is %d bytes, over 120", e.click)
	}
	if e.smallRead > 600 {
		t.Errorf("the form's read is %d bytes, over 600", e.smallRead)
	}
	if e.large > 150_000 {
		t.Errorf("the large page read to its end is %d bytes, over 150 KB", e.large)
	}
	if e.listDiff*100 > e.listFull*40 {
		t.Errorf("the list task with changes: true is %d tokens, over 40 %% of its %d with full reads", tok(e.listDiff), tok(e.listFull))
	}
}

// BenchmarkMCPEconomy reports what the tasks send the model through MCP,
// side by side in one run: bytes of text per result and tokens (4 bytes
// each) of the whole 10-step task and of the list task with full reads and
// with changes: true.
//
//	go test ./e2e/mcp -run '^$' -bench MCPEconomy -benchtime 1x
func BenchmarkMCPEconomy(b *testing.B) {
	var e economy
	for b.Loop() {
		e = measureEconomy(b)
	}
	b.ReportMetric(float64(tok(e.task)), "task-tok")
	b.ReportMetric(float64(e.click), "click-B")
	b.ReportMetric(float64(e.typed), "type-B")
	b.ReportMetric(float64(e.smallRead), "read-B")
	b.ReportMetric(float64(e.large)/1000, "large-KB")
	b.ReportMetric(float64(tok(e.listFull)), "list-full-tok")
	b.ReportMetric(float64(tok(e.listDiff)), "list-changes-tok")
	b.Logf("results:\n%s", strings.Join(e.log, "\n"))
}
