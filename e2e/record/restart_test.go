package record

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// inWorker evaluates expr (awaited) in the extension's service worker
// through the test's DevTools connection and returns its value as JSON.
func inWorker(t *testing.T, d *browsertest.DevTools, ctx context.Context, expr string) string {
	t.Helper()
	sw, err := d.WaitTarget(ctx, "service_worker", bridge.ExtensionURL(""))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Attach(ctx, sw.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Call(ctx, "", "Target.detachFromTarget", map[string]any{"sessionId": s}, nil)
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	if err := d.Call(ctx, s, "Runtime.evaluate", map[string]any{"expression": "(async () => JSON.stringify(await (" + expr + ")))()", "awaitPromise": true, "returnByValue": true}, &res); err != nil {
		t.Fatal(err)
	}
	return res.Result.Value
}

// The console record survives a restart of the extension's service
// worker (Chrome stops an idle one): what the page logged before is
// still there after, and the copy that outlives the worker holds no
// secret the page logged.
func TestConsoleSurvivesAWorkerRestart(t *testing.T) {
	d := bridge.SharedDevTools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tab := bridge.OpenIn(t, workspace(t), site+"/keep")
	waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "warning", "console", "kept line 2")
	})
	// The copy is written a moment later: wait for it, then look at it.
	var stored string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if stored = inWorker(t, d, ctx, `chrome.storage.session.get(null)`); strings.Contains(stored, "kept line 2") {
			break
		}
	}
	if !strings.Contains(stored, "kept line 2") {
		t.Errorf("the console record was not stored: %s", stored)
	}
	for _, secret := range []string{password, jwt} {
		if strings.Contains(stored, secret) {
			t.Errorf("the stored copy holds the secret %q", secret)
		}
	}
	// Stop the worker, as Chrome stops an idle one.
	if err := d.StopServiceWorker(ctx, bridge.ExtensionURL("")); err != nil {
		t.Fatal(err)
	}
	// The page logs again, which wakes a new worker.
	page := d.PageSession(t, ctx, site+"/keep")
	if err := d.Call(ctx, page, "Runtime.evaluate", map[string]any{"expression": `console.log("logged after the restart")`}, nil); err != nil {
		t.Fatal(err)
	}
	woke := time.Now()
	res := waitWithin(t, 40*time.Second, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "log", "console", "logged after the restart")
	})
	t.Logf("console answered after the restart in %v", time.Since(woke).Round(time.Millisecond))
	msgs := list(res, "messages")
	if !has(msgs, "log", "console", "kept line 1") || !has(msgs, "warning", "console", "kept line 2 password: [redacted") {
		b, _ := json.Marshal(msgs)
		t.Errorf("after the worker's restart console lost the lines logged before: %s", b)
	}
	if res["note"] != nil {
		t.Errorf("the restored record says it does not cover the load: %v", res["note"])
	}
	// The requests were not kept: network says so.
	if net := call(t, map[string]any{"action": "network", "tabId": tab}); !strings.Contains(fmt.Sprint(net["note"]), "restarted") {
		t.Errorf("network after the restart does not say its earlier requests were not kept: %v", net["note"])
	}
}
