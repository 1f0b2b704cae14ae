package record

import (
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// nativePage checks, from its first script on and for 600 ms, that its
// fetch, console.log and setTimeout are the browser's own and stay the
// same functions, and takes the stack of a getter it hands console.log:
// what a page that looks for the recorder would do.
const nativePage = `<!doctype html><title>native</title><script>
console.info("first script ran");
const f0 = fetch, l0 = console.log, t0 = setTimeout;
const bad = [];
const native = (f) => Function.prototype.toString.call(f).includes("[native code]");
if (!native(f0) || !native(l0) || !native(t0)) bad.push("not native in the first script");
let stack = "";
console.log({ get probe() { stack = new Error().stack; return 1; } });
const started = performance.now();
(function check() {
  if (fetch !== f0 || console.log !== l0 || setTimeout !== t0) bad.push("swapped at " + Math.round(performance.now() - started) + " ms");
  if (performance.now() - started < 600) t0(check, 1);
  else { window.checked = JSON.stringify({ bad, stack }); document.title = "checked"; }
})();
</script><p>native</p>`

// A user's tab the bridge never touched: its page sees the browser's own
// functions at every moment from its first script, and no stack it takes
// names the extension. Once the bridge touches the tab, its next page is
// recorded from its first script; and the bridge's own tab is recorded
// from its first script too.
func TestAnUntouchedUsersTabSeesNothingOfTheRecorder(t *testing.T) {
	ctx := browsertest.Ctx(t, 30*time.Second)
	dev := bridge.SharedDevTools(t)
	session, st := usersTab(t, dev, site+"/native?user=1")
	dev.WaitPage(t, session, `document.title === "checked"`)
	var checked string
	if err := dev.Eval(ctx, session, `window.checked`, &checked); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(checked, `"bad":[]`) {
		t.Errorf("the user's untouched tab saw the recorder's functions: %s", checked)
	}
	if strings.Contains(checked, "chrome-extension://") {
		t.Errorf("a stack taken in the user's untouched tab names the extension: %s", checked)
	}

	// The touch: from now on, the tab's pages are recorded from their
	// first script.
	tab := int(st["tabId"].(float64))
	call(t, map[string]any{"action": "console", "tabId": tab})
	navigate(t, dev, session, site+"/native?user=2", `document.title === "checked"`)
	waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "info", "console", "first script ran")
	})

	own := bridge.OpenIn(t, workspace(t), site+"/native?own=1")
	waitFor(t, map[string]any{"action": "console", "tabId": own}, func(r map[string]any) bool {
		return has(list(r, "messages"), "info", "console", "first script ran") && has(list(r, "messages"), "log", "console", `"probe":1`)
	})
}
