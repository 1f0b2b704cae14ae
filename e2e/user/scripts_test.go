package user

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// The action scripts (page/dom.js, locate.js, act.js) go into the
// bridge's own tabs as their pages commit, and into a tab of the user's
// own browsing only when an action needs them there; page/quiet.js, the
// readiness record, is in both. The test looks into the extension's
// isolated world of each page (scriptsIn).
func TestActionScriptsGoOnlyIntoTheBridgesTabs(t *testing.T) {
	ctx := browsertest.Ctx(t, 60*time.Second)
	d := devtools(t)

	// A tab of the user's own, loaded while the bridge is connected.
	run := fmt.Sprint(time.Now().UnixNano()) // a page of this run's own
	userURL := site + "/page?own=" + run
	userPage, userTarget, err := d.Open(ctx, userURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Call(context.Background(), "", "Target.closeTarget", map[string]any{"targetId": userTarget}, nil)
	})
	// (The new target shows about:blank, complete, before the page.)
	if err := d.WaitEval(ctx, userPage, `location.href === `+jsString(userURL)+` && document.readyState === "complete"`); err != nil {
		t.Fatal(err)
	}
	if got := scriptsIn(ctx, t, d, userPage); !got.Quiet || got.Act {
		t.Fatalf("in a tab of the user's own browsing before any action: %+v, want quiet.js and no action scripts", got)
	}

	// A tab the bridge opened has them as soon as open returns.
	ws := bridge.Workspace(t, "scripts")
	bridgeURL := site + "/page?bridge=" + run
	bridge.OpenIn(t, ws, bridgeURL)
	bridgePage := pageSession(t, ctx, bridgeURL)
	if got := scriptsIn(ctx, t, d, bridgePage); !got.Quiet || !got.Act {
		t.Fatalf("in the bridge's tab right after open: %+v, want quiet.js and the action scripts", got)
	}

	// An action on the user's tab puts them there, and works.
	userTab := tabAt(t, userURL)
	bridge.MustCall(t, map[string]any{"action": "type", "tabId": userTab, "selector": "#name", "value": "Ada"})
	var value string
	if err := d.Eval(ctx, userPage, `document.querySelector("#name").value`, &value); err != nil || value != "Ada" {
		t.Fatalf("the user's field holds %q (%v), want Ada", value, err)
	}
	if got := scriptsIn(ctx, t, d, userPage); !got.Act {
		t.Fatalf("in the user's tab after an action there: %+v, want the action scripts", got)
	}
}

// pageScripts says which of the extension's scripts a page's isolated
// world holds (their __bb.loaded marks).
type pageScripts struct {
	Quiet bool `json:"quiet"`
	Act   bool `json:"act"`
}

// scriptsIn looks into the isolated worlds of session's top frame (which
// Runtime.enable lists) for the extension's scripts.
func scriptsIn(ctx context.Context, t *testing.T, d *browsertest.DevTools, session string) pageScripts {
	t.Helper()
	events, stop := d.Watch("Runtime.executionContextCreated")
	defer stop()
	if err := d.Call(ctx, session, "Runtime.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	defer d.Call(context.Background(), session, "Runtime.disable", nil, nil)
	// The contexts that exist are announced before enable answers.
	var got pageScripts
	for {
		select {
		case e := <-events:
			var c struct {
				Context struct {
					ID      int `json:"id"`
					AuxData struct {
						Type string `json:"type"`
					} `json:"auxData"`
				} `json:"context"`
			}
			if e.SessionID != session || json.Unmarshal(e.Params, &c) != nil || c.Context.AuxData.Type != "isolated" {
				continue
			}
			var r struct {
				Result struct {
					Value *pageScripts `json:"value"`
				} `json:"result"`
			}
			expr := `(() => { const d = Object.getOwnPropertyDescriptor(globalThis, "__bb"); return d ? {quiet: !!d.value.loaded.quiet, act: !!d.value.loaded.act} : null; })()`
			if err := d.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "contextId": c.Context.ID, "returnByValue": true}, &r); err == nil && r.Result.Value != nil {
				got.Quiet = got.Quiet || r.Result.Value.Quiet
				got.Act = got.Act || r.Result.Value.Act
			}
		default:
			return got
		}
	}
}

// tabAt is the ID of the tab that shows url, from status.
func tabAt(t *testing.T, url string) int {
	t.Helper()
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	for _, tab := range browsertest.StatusTabs(st) {
		if tab["url"] == url {
			return browsertest.Num(t, tab, "tabId")
		}
	}
	t.Fatalf("no tab shows %s in status: %v", url, st)
	return 0
}
