package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

const benchPage = `<!doctype html><title>Bench</title>
<body style="margin:20px"><button id="b" onclick="this.dataset.n=(+this.dataset.n||0)+1">Press me</button>
<input id="i" aria-label="Field"><p>` + "Some text to render. " + `</p></body>`

// benchForm is the page of the 10-step task: a form whose submit posts
// through fetch and shows the server's answer, as single-page apps do.
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

// taskSteps are the steps of the 10-step task after its open, on tab t:
// read the form, fill it in, send it, read the answer.
func taskSteps(t any) []map[string]any {
	return []map[string]any{
		{"action": "extract", "tabId": t},
		{"action": "type", "tabId": t, "label": "Name", "value": "Ada"},
		{"action": "type", "tabId": t, "label": "Email", "value": "ada@example.com"},
		{"action": "select", "tabId": t, "label": "Country", "option": "Norway"},
		{"action": "check", "tabId": t, "label": "I agree"},
		{"action": "type", "tabId": t, "label": "Message", "value": "Two widgets, please."},
		{"action": "press", "tabId": t, "keys": "Tab"},
		{"action": "click", "tabId": t, "role": "button", "name": "Send order"},
		{"action": "extract", "tabId": t, "include": []string{"markdown"}},
	}
}

// benchTall is a page of the given height in CSS pixels, bands of text.
func benchTall(h int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Tall</title><body style='margin:0'>")
	for y := 0; y < h; y += 100 {
		fmt.Fprintf(&b, "<div style='height:100px;background:hsl(%d,60%%,85%%)'>Band at %d px: a line of text to draw</div>", (y/100*37)%360, y)
	}
	return b.String()
}

// tallHeight is the full-page screenshot's page, as tall as the page the
// stitching's speed was first measured on.
const tallHeight = 55000

// BenchmarkActionVsRawCDP measures actions through the whole chain
// (client → daemon → host → extension → page) next to the same work on
// the same page done by raw CDP over --remote-debugging-pipe in a second
// Chromium, alternating the two in one run. Each sub-benchmark reports
// the medians and their ratio (bridge/raw):
//
//   - open: a new tab in the workspace, loaded (raw: Target.createTarget,
//     attach, Page.enable, Page.navigate, Page.loadEventFired);
//   - navigate: open with tabId, loaded (raw: Page.navigate to the load
//     event in the same tab);
//   - extract-settled: extract of a small page that finished loading a
//     second ago (raw: Runtime.evaluate of document.body.innerText);
//   - extract-first: extract of a small static page issued as soon as its
//     open returned (the open is not timed; raw: the same evaluate on a
//     page its session just loaded, which knows no readiness);
//   - click, type, screenshot: on the loaded small page;
//   - type-fresh: type into a field of a page opened just before (not
//     timed), so the debugger is not yet attached (raw: on a page its
//     session loaded; rawalt: attaching a new session first, as the
//     bridge must);
//   - screenshot-full: the whole of a 55,000 px page (raw: getLayoutMetrics
//     and one captureScreenshot of the whole page at scale 1; rawalt: the
//     same at the scale of the bridge's image);
//   - task-10: open a form, read it, type three fields, select, check,
//     press Tab, submit, read the answer (raw: the same with CDP, waiting
//     for the answer by polling).
//
// Run it on a quiet machine, with a count of iterations:
//
//	go test -run '^$' -bench ActionVsRawCDP -benchtime=20x ./e2e/
func BenchmarkActionVsRawCDP(b *testing.B) {
	ctx := context.Background()
	tall := benchTall(tallHeight)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, benchPage) })
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, benchForm) })
	mux.HandleFunc("/tall", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, tall) })
	mux.HandleFunc("/submit", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond) // a server's think time
		fmt.Fprintf(w, "Thank you, %s: your order is placed.", r.URL.Query().Get("name"))
	})
	srv := httptest.NewServer(mux)
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
			return nil, fmt.Errorf("%v: %w", in["action"], err)
		}
		var m map[string]any
		return m, jsonUnmarshal(res, &m)
	}
	// Three windows, so the tabs that iterations open and close never make
	// the small page's or the tall page's tab a background one (input to a
	// background tab is slow, see E2E.md).
	const ws, wsNew, wsTall = "bench", "bench-new", "bench-tall"
	o, err := call(map[string]any{"action": "open", "url": srv.URL, "browserWorkspaceId": ws})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []string{ws, wsNew, wsTall} {
		defer call(map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": w})
	}
	if _, err := call(map[string]any{"action": "open", "url": srv.URL + "/?warm", "browserWorkspaceId": wsNew}); err != nil {
		b.Fatal(err)
	}
	tab := o["tabId"]
	// Give the raw browser the bridge tab's viewport, so pages lay out
	// and screenshots come out the same.
	shot, err := call(map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"})
	if err != nil {
		b.Fatal(err)
	}
	metrics := map[string]any{"width": shot["width"], "height": shot["height"], "deviceScaleFactor": 1, "mobile": false}
	rawPage := func(url string) (*browsertest.RawPage, error) {
		p, err := raw.NewPage(ctx, true)
		if err != nil {
			return nil, err
		}
		if err := p.Call(ctx, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
			return nil, err
		}
		if url != "" {
			return p, p.Navigate(ctx, url)
		}
		return p, nil
	}
	if err := raw.Call(ctx, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
		b.Fatal(err)
	}
	if err := raw.Navigate(ctx, srv.URL+"/"); err != nil {
		b.Fatal(err)
	}
	// The bridge's tabs opened for one iteration are closed after it (not
	// timed).
	closeTab := func(m map[string]any) {
		if m != nil {
			call(map[string]any{"action": "close", "tabId": m["tabId"]})
		}
	}
	timed := func(f func() error) (time.Duration, error) {
		t0 := time.Now()
		err := f()
		return time.Since(t0), err
	}

	rawClick := func(p *browsertest.RawPage, sel string) error {
		var pt struct{ X, Y float64 }
		if err := p.Eval(ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {X: r.x + r.width/2, Y: r.y + r.height/2}; })()`, sel), &pt); err != nil {
			return err
		}
		for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
			if err := p.Call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": pt.X, "y": pt.Y, "button": "left", "clickCount": 1}, nil); err != nil {
				return err
			}
		}
		return nil
	}
	rawType := func(p *browsertest.RawPage, sel, text string) error {
		if err := p.Eval(ctx, fmt.Sprintf(`(() => { const i = document.querySelector(%q); i.focus(); i.select(); return true; })()`, sel), nil); err != nil {
			return err
		}
		return p.Call(ctx, "Input.insertText", map[string]any{"text": text}, nil)
	}
	rawRead := func(p *browsertest.RawPage) (string, error) {
		var s string
		return s, p.Eval(ctx, "document.body.innerText", &s)
	}
	rawDefault := raw.Page()
	// fresh and rawFresh time f on a small page opened just before (not
	// timed), in a tab of its own, closed after.
	fresh := func(kind string, i int, f func(tab any) error) (time.Duration, error) {
		m, err := call(map[string]any{"action": "open", "url": fmt.Sprintf("%s/?%s=%d", srv.URL, kind, i), "browserWorkspaceId": wsNew})
		if err != nil {
			return 0, err
		}
		defer closeTab(m)
		return timed(func() error { return f(m["tabId"]) })
	}
	rawFresh := func(kind string, i int, f func(p *browsertest.RawPage) error) (time.Duration, error) {
		p, err := rawPage(fmt.Sprintf("%s/?%s=%d", srv.URL, kind, i))
		if err != nil {
			return 0, err
		}
		defer p.Close(ctx)
		return timed(func() error { return f(p) })
	}
	// read extracts the small page in tab and checks its text.
	read := func(tab any) error {
		m, err := call(map[string]any{"action": "extract", "tabId": tab})
		if err == nil && !strings.Contains(fmt.Sprint(m["markdown"]), "Some text") {
			err = fmt.Errorf("extract lacks the page's text: %v", m)
		}
		return err
	}
	rawReadOf := func(p *browsertest.RawPage) error { _, err := rawRead(p); return err }

	type op struct {
		name   string
		bridge func(i int) (time.Duration, error)
		raw    func(i int) (time.Duration, error)
	}
	// alts are second raw CDP ways of some ops, reported as rawalt-ms.
	alts := map[string]func(i int) (time.Duration, error){}
	ops := []op{
		{"open", func(i int) (time.Duration, error) {
			var m map[string]any
			d, err := timed(func() (err error) {
				m, err = call(map[string]any{"action": "open", "url": fmt.Sprintf("%s/?open=%d", srv.URL, i), "browserWorkspaceId": wsNew})
				return err
			})
			closeTab(m)
			return d, err
		}, func(i int) (time.Duration, error) {
			var p *browsertest.RawPage
			d, err := timed(func() (err error) {
				p, err = raw.NewPage(ctx, false)
				if err == nil {
					err = p.Navigate(ctx, fmt.Sprintf("%s/?open=%d", srv.URL, i))
				}
				return err
			})
			if p != nil {
				p.Close(ctx)
			}
			return d, err
		}},
		{"navigate", func(i int) (time.Duration, error) {
			return timed(func() error {
				_, err := call(map[string]any{"action": "open", "tabId": tab, "url": fmt.Sprintf("%s/?nav=%d", srv.URL, i)})
				return err
			})
		}, func(i int) (time.Duration, error) {
			return timed(func() error { return rawDefault.Navigate(ctx, fmt.Sprintf("%s/?nav=%d", srv.URL, i)) })
		}},
		{"extract-settled", func(i int) (time.Duration, error) {
			if i == 0 {
				time.Sleep(time.Second) // the last navigation's page settles
			}
			return timed(func() error { return read(tab) })
		}, func(i int) (time.Duration, error) {
			return timed(func() error { return rawReadOf(rawDefault) })
		}},
		{"extract-first", func(i int) (time.Duration, error) {
			return fresh("first", i, read)
		}, func(i int) (time.Duration, error) {
			return rawFresh("first", i, rawReadOf)
		}},
		{"click", func(i int) (time.Duration, error) {
			return timed(func() error {
				_, err := call(map[string]any{"action": "click", "tabId": tab, "selector": "#b"})
				return err
			})
		}, func(i int) (time.Duration, error) {
			return timed(func() error { return rawClick(rawDefault, "#b") })
		}},
		{"type", func(i int) (time.Duration, error) {
			return timed(func() error {
				_, err := call(map[string]any{"action": "type", "tabId": tab, "selector": "#i", "value": "hello", "clear": true})
				return err
			})
		}, func(i int) (time.Duration, error) {
			return timed(func() error { return rawType(rawDefault, "#i", "hello") })
		}},
		{"type-fresh", func(i int) (time.Duration, error) {
			return fresh("fresh", i, func(tab any) error {
				_, err := call(map[string]any{"action": "type", "tabId": tab, "selector": "#i", "value": "hello"})
				return err
			})
		}, func(i int) (time.Duration, error) {
			return rawFresh("fresh", i, func(p *browsertest.RawPage) error { return rawType(p, "#i", "hello") })
		}},
		{"screenshot", func(i int) (time.Duration, error) {
			return timed(func() error {
				_, err := call(map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"})
				return err
			})
		}, func(i int) (time.Duration, error) {
			return timed(func() error {
				return rawDefault.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "jpeg", "quality": 70}, nil)
			})
		}},
	}

	// The tall page, in its own tab on both sides.
	tallTab, err := call(map[string]any{"action": "open", "url": srv.URL + "/tall", "browserWorkspaceId": wsTall})
	if err != nil {
		b.Fatal(err)
	}
	rawTall, err := rawPage(srv.URL + "/tall")
	if err != nil {
		b.Fatal(err)
	}
	defer rawTall.Close(ctx)
	// The raw side captures the whole page in one go, at scale 1 (what a
	// CDP client's "full page" does; alt: at the scale of the bridge's
	// image, which the bridge bounds to 32,000 px, for the same pixels).
	var shotScale float64
	rawFull := func(scale func() float64) func(i int) (time.Duration, error) {
		return func(i int) (time.Duration, error) {
			return timed(func() error {
				var lm struct {
					CSSContentSize struct{ Width, Height float64 } `json:"cssContentSize"`
				}
				if err := rawTall.Call(ctx, "Page.getLayoutMetrics", nil, &lm); err != nil {
					return err
				}
				return rawTall.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "jpeg", "quality": 70, "captureBeyondViewport": true,
					"clip": map[string]any{"x": 0, "y": 0, "width": lm.CSSContentSize.Width, "height": lm.CSSContentSize.Height, "scale": scale()}}, nil)
			})
		}
	}
	ops = append(ops, op{"screenshot-full", func(i int) (time.Duration, error) {
		return timed(func() error {
			m, err := call(map[string]any{"action": "screenshot", "tabId": tallTab["tabId"]})
			if err == nil && m["height"].(float64) < 10000 {
				err = fmt.Errorf("the full-page screenshot is %v px tall", m["height"])
			}
			if err == nil {
				shotScale = m["height"].(float64) / tallHeight
			}
			return err
		})
	}, rawFull(func() float64 { return 1 })})
	alts["screenshot-full"] = rawFull(func() float64 { return shotScale })
	// type-fresh's second raw way attaches to the page in the timing, as
	// the bridge must (its debugger is attached only for input): the
	// page was loaded by a session that has gone.
	alts["type-fresh"] = func(i int) (time.Duration, error) {
		p, err := rawPage(fmt.Sprintf("%s/?freshalt=%d", srv.URL, i))
		if err != nil {
			return 0, err
		}
		defer p.Close(ctx)
		if err := p.Detach(ctx); err != nil {
			return 0, err
		}
		return timed(func() error {
			if err := p.Attach(ctx); err != nil {
				return err
			}
			return rawType(p, "#i", "hello")
		})
	}

	missed := 0 // task-10 reads that came before the server's answer
	ops = append(ops, op{"task-10", func(i int) (time.Duration, error) {
		var m map[string]any
		d, err := timed(func() error {
			var err error
			m, err = call(map[string]any{"action": "open", "url": srv.URL + "/form", "browserWorkspaceId": wsNew})
			if err != nil {
				return err
			}
			var last map[string]any
			for _, s := range taskSteps(m["tabId"]) {
				if last, err = call(s); err != nil {
					return err
				}
			}
			if !strings.Contains(fmt.Sprint(last["markdown"]), "Thank you, Ada") {
				missed++ // read before the page had its data
			}
			return nil
		})
		closeTab(m)
		return d, err
	}, func(i int) (time.Duration, error) {
		var p *browsertest.RawPage
		d, err := timed(func() (err error) {
			if p, err = rawPage(srv.URL + "/form"); err != nil {
				return err
			}
			if _, err := rawRead(p); err != nil {
				return err
			}
			for _, f := range [][2]string{{"#name", "Ada"}, {"#email", "ada@example.com"}} {
				if err := rawType(p, f[0], f[1]); err != nil {
					return err
				}
			}
			if err := p.Eval(ctx, `(() => { const s = document.querySelector("#country"); s.value = "Norway"; s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil); err != nil {
				return err
			}
			if err := rawClick(p, "#agree"); err != nil {
				return err
			}
			if err := rawType(p, "#msg", "Two widgets, please."); err != nil {
				return err
			}
			for _, typ := range []string{"keyDown", "keyUp"} {
				if err := p.Call(ctx, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9}, nil); err != nil {
					return err
				}
			}
			if err := rawClick(p, "#send"); err != nil {
				return err
			}
			// Raw CDP has no readiness: poll for the answer.
			for {
				s, err := rawRead(p)
				if err != nil || strings.Contains(s, "Thank you, Ada") {
					return err
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
		if p != nil {
			p.Close(ctx)
		}
		return d, err
	}})

	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			// Raw pages opened and closed by other iterations may have
			// left these in the background.
			rawDefault.Call(ctx, "Page.bringToFront", nil, nil)
			var ours, base, alt2 []time.Duration
			for i := 0; i < b.N; i++ {
				d, err := op.bridge(i)
				if err != nil {
					b.Fatal(err)
				}
				r, err := op.raw(i)
				if err != nil {
					b.Fatal(err)
				}
				ours, base = append(ours, d), append(base, r)
				if alt := alts[op.name]; alt != nil {
					a, err := alt(i)
					if err != nil {
						b.Fatal(err)
					}
					alt2 = append(alt2, a)
				}
			}
			mo, mb := median(ours), median(base)
			b.ReportMetric(ms(mo), "bridge-ms")
			b.ReportMetric(ms(mb), "rawcdp-ms")
			b.ReportMetric(float64(mo)/float64(mb), "ratio")
			if len(alt2) > 0 {
				b.ReportMetric(ms(median(alt2)), "rawalt-ms")
				b.ReportMetric(float64(mo)/float64(median(alt2)), "ratio-alt")
			}
			if op.name == "task-10" {
				b.ReportMetric(float64(missed), "missed-answer")
			}
		})
	}
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
