package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

const benchPage = `<!doctype html><title>Bench</title>
<body style="margin:20px"><button id="b" onclick="this.dataset.n=(+this.dataset.n||0)+1">Press me</button>
<input id="i" aria-label="Field"><p>` + "Some text to render. " + `</p></body>`

// BenchmarkActionVsRawCDP measures click, type and screenshot through the
// whole chain (client → daemon → host → extension → page) next to the same
// operation on the same page done by raw CDP over --remote-debugging-pipe
// in a second Chromium, alternating the two in one run. It reports the
// medians and their ratio (bridge/raw).
func BenchmarkActionVsRawCDP(b *testing.B) {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, benchPage) }))
	defer srv.Close()
	raw, err := browsertest.StartRawCDP()
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()

	c, err := client.Connect(ctx, paths.ForHome(bridge.Home), "session:bench")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	call := func(in map[string]any) (map[string]any, error) {
		res, err := c.Call(ctx, in, time.Minute, nil)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		return m, jsonUnmarshal(res, &m)
	}
	o, err := call(map[string]any{"action": "open", "url": srv.URL, "browserWorkspaceId": "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer call(map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "bench"})
	tab := o["tabId"]
	// Give the raw page the bridge tab's viewport, so screenshots match.
	shot, err := call(map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"})
	if err != nil {
		b.Fatal(err)
	}
	if err := raw.Call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{"width": shot["width"], "height": shot["height"], "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		b.Fatal(err)
	}
	if err := raw.Navigate(ctx, srv.URL+"/"); err != nil {
		b.Fatal(err)
	}

	rawClick := func() error {
		var p struct{ X, Y float64 }
		if err := raw.Eval(ctx, `(() => { const r = document.querySelector("#b").getBoundingClientRect(); return {X: r.x + r.width/2, Y: r.y + r.height/2}; })()`, &p); err != nil {
			return err
		}
		for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
			if err := raw.Call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": p.X, "y": p.Y, "button": "left", "clickCount": 1}, nil); err != nil {
				return err
			}
		}
		return nil
	}
	rawType := func() error {
		if err := raw.Eval(ctx, `(() => { const i = document.querySelector("#i"); i.focus(); i.select(); return true; })()`, nil); err != nil {
			return err
		}
		return raw.Call(ctx, "Input.insertText", map[string]any{"text": "hello"}, nil)
	}
	rawShot := func() error {
		return raw.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "jpeg", "quality": 70}, nil)
	}
	ops := []struct {
		name   string
		bridge map[string]any
		raw    func() error
	}{
		{"click", map[string]any{"action": "click", "tabId": tab, "selector": "#b"}, rawClick},
		{"type", map[string]any{"action": "type", "tabId": tab, "selector": "#i", "value": "hello", "clear": true}, rawType},
		{"screenshot", map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"}, rawShot},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			var ours, base []time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := call(op.bridge); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := op.raw(); err != nil {
					b.Fatal(err)
				}
				ours, base = append(ours, t1.Sub(t0)), append(base, time.Since(t1))
			}
			mo, mb := median(ours), median(base)
			b.ReportMetric(ms(mo), "bridge-ms")
			b.ReportMetric(ms(mb), "rawcdp-ms")
			b.ReportMetric(float64(mo)/float64(mb), "ratio")
		})
	}
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
