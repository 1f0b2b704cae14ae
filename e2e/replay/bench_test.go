package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// benchForm is the page of the 10-step task (as in e2e's
// BenchmarkActionVsRawCDP): a form whose submit posts through fetch and
// shows the server's answer.
const benchForm = `<!doctype html><title>Order form</title>
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

// BenchmarkTaskCaptures runs the 10-step task (open a form, read it, type
// three fields, select, check, press Tab, submit, read the answer) with
// the timeline's pictures on and off, alternating in one run, and reports
// the medians and their ratio (on/off). After a run with pictures on it
// waits, untimed, until the recorder has caught up, so that one run's
// pictures never fall into the next run's time.
//
//	go test -run '^$' -bench TaskCaptures -benchtime=15x ./e2e/replay/
func BenchmarkTaskCaptures(b *testing.B) {
	ctx := context.Background()
	mux := http.NewServeMux()
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, benchForm) })
	mux.HandleFunc("/submit", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond) // a server's think time
		fmt.Fprintf(w, "Thank you, %s: your order is placed.", r.URL.Query().Get("name"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := client.Connect(ctx, paths.ForHome(bridge.Home), "session:bench")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	call := func(in map[string]any) (map[string]any, error) {
		res, err := c.Call(ctx, in, time.Minute, nil)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", in["action"], err)
		}
		var m map[string]any
		return m, json.Unmarshal(res, &m)
	}
	const ws = "bench-replay"
	defer call(map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	defer bridge.Run(b, "replay", "--on")
	// A first tab keeps the workspace's window, so each run's tab is
	// the active one of a window that stays.
	if _, err := call(map[string]any{"action": "open", "url": srv.URL + "/form", "browserWorkspaceId": ws}); err != nil {
		b.Fatal(err)
	}
	task := func() (time.Duration, error) {
		start := time.Now()
		m, err := call(map[string]any{"action": "open", "url": srv.URL + "/form", "browserWorkspaceId": ws})
		if err != nil {
			return 0, err
		}
		t := m["tabId"]
		var last map[string]any
		for _, s := range []map[string]any{
			{"action": "extract", "tabId": t},
			{"action": "type", "tabId": t, "label": "Name", "value": "Ada"},
			{"action": "type", "tabId": t, "label": "Email", "value": "ada@example.com"},
			{"action": "select", "tabId": t, "label": "Country", "option": "Norway"},
			{"action": "check", "tabId": t, "label": "I agree"},
			{"action": "type", "tabId": t, "label": "Message", "value": "Two widgets, please."},
			{"action": "press", "tabId": t, "keys": "Tab"},
			{"action": "click", "tabId": t, "role": "button", "name": "Send order"},
			{"action": "extract", "tabId": t, "include": []string{"markdown"}},
		} {
			if last, err = call(s); err != nil {
				return 0, err
			}
		}
		d := time.Since(start)
		if !strings.Contains(fmt.Sprint(last["markdown"]), "Thank you") {
			b.Logf("the last read came before the answer")
		}
		_, err = call(map[string]any{"action": "close", "tabId": t})
		return d, err
	}
	steps := func() int {
		tl, _ := store().Read(ws)
		return len(tl.Entries)
	}
	var on, off []time.Duration
	for i := 0; i < b.N; i++ {
		for _, capturing := range []bool{i%2 == 0, i%2 != 0} {
			if r := bridge.Run(b, "replay", map[bool]string{true: "--on", false: "--off"}[capturing]); r.Exit != 0 {
				b.Fatalf("replay: %s", r.Stdout)
			}
			before := steps()
			d, err := task()
			if err != nil {
				b.Fatal(err)
			}
			if capturing {
				on = append(on, d)
				// 10 steps: the open and nine (the close of a tab the
				// registry no longer holds goes to the session).
				for deadline := time.Now().Add(30 * time.Second); steps() < before+10 && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
			} else {
				off = append(off, d)
			}
		}
	}
	mOn, mOff := median(on), median(off)
	b.ReportMetric(float64(mOn.Microseconds())/1000, "on-ms")
	b.ReportMetric(float64(mOff.Microseconds())/1000, "off-ms")
	b.ReportMetric(float64(mOn)/float64(mOff), "ratio")
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
