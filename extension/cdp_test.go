package extension

import "testing"

// A batch whose check (a page script) takes longer than the idle detach
// (IDLE_MS, 5 s) must still send its commands attached: the whole batch
// holds the tab. Before it did, the idle timer that the attach set went
// off while the check waited on a busy page, and the input after it
// failed with "Debugger is not attached" (seen in the soak, under load,
// on a type). The stand-in debugger refuses a command sent while it is
// detached, as Chrome does; the check answers after 5.6 s.
func TestABatchKeepsTheDebuggerThroughASlowCheck(t *testing.T) {
	runWorker(t, `
openTabs.add(5);
let attached = false;
const sent = [];
chrome.debugger.getTargets = async () => [];
chrome.debugger.attach = async () => { attached = true; };
chrome.debugger.detach = async () => { attached = false; };
chrome.debugger.sendCommand = async (target, method) => {
  if (!attached) throw new Error("Debugger is not attached to the tab with id: " + target.tabId + ".");
  sent.push(method);
  return {};
};
chrome.scripting.executeScript = async () => { await tick(5600); return [{ frameId: 0, result: { value: { ok: true } } }]; };
const cdp = await load("handlers/cdp.js");
const out = await cdp.batch({
  tabId: 5,
  commands: [{ method: "Input.insertText", params: { text: "Ada" } }],
  check: { before: 0, files: ["page/act.js"], fn: "locateToType", frames: [{ frameId: 0, args: {} }] },
}, {});
if (!sent.includes("Input.insertText")) fail("the text was not sent after a slow check: sent " + JSON.stringify(sent) + ", answer " + JSON.stringify(out));
`)
}
