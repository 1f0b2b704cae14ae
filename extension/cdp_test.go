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

// Chrome sets a tab's device emulation aside while it captures and puts
// back, when the capture answers, what it set aside. An emulation change
// that stopped waiting for a capture (after APART_WAIT_MS, 10 s) is then
// undone by the capture's end; it must be made again once the capture
// has ended, and only the latest of two such changes (seen in CI under
// load: a phone's size kept with the pixel ratio lost). The stand-in
// debugger models the capture: it keeps the width as it was when the
// capture began and restores it 10.5 s later, when it answers.
func TestAnEmulationChangeOutlastedByACaptureIsMadeAgain(t *testing.T) {
	t.Parallel()
	runWorker(t, `
let width = 0;
const set = [];
chrome.debugger.sendCommand = async (target, method, params) => {
  if (method === "Emulation.setDeviceMetricsOverride") { width = params.width; set.push(params.width); }
  if (method === "Page.captureScreenshot") { const was = width; await tick(10500); width = was; return { data: "" }; }
  return {};
};
const cdp = await load("handlers/cdp.js");
const change = (w) => cdp.emulationChange(5, () => cdp.sendCommand(5, "Emulation.setDeviceMetricsOverride", { width: w }));
const shot = cdp.sendCommand(5, "Page.captureScreenshot", {});
await tick(10);
const first = change(412);
await tick(10);
const second = change(800);
await Promise.all([first, second]);
if (width !== 800) fail("after waiting for the capture, the changes left width " + width + ", want 800");
await shot;
await tick(100);
if (width !== 800) fail("the capture's end undid the change for good: width " + width + ", want 800");
if (set.filter((w) => w === 412).length !== 1) fail("the change a later one replaced was made again: " + JSON.stringify(set));
`)
}

// A command Chrome refuses unsent because the debugger let go of the tab
// after the attach ("not attached") is sent again on a new attachment,
// once: the action it serves does not fail on a tab that is still there.
// The stand-in debugger drops its attachment at the first command, as
// Chrome does when it lets a debugger go, and then refuses commands until
// the next attach.
func TestACommandTheDebuggerDroppedIsSentAgain(t *testing.T) {
	t.Parallel()
	runWorker(t, `
openTabs.add(5);
let attached = false, attaches = 0, dropped = false;
const sent = [];
chrome.debugger.getTargets = async () => [];
chrome.debugger.attach = async () => { attached = true; attaches++; };
chrome.debugger.sendCommand = async (target, method) => {
  if (method === "Page.getLayoutMetrics" && !dropped) { dropped = true; attached = false; }
  if (!attached) throw new Error("Debugger is not attached to the tab with id: " + target.tabId + ".");
  sent.push(method);
  return method === "Page.getLayoutMetrics" ? { cssContentSize: { width: 800, height: 600 } } : {};
};
const cdp = await load("handlers/cdp.js");
let out;
try {
  out = await cdp.send({ tabId: 5, method: "Page.getLayoutMetrics" }, {});
} catch (e) {
  fail("the command failed: " + e.message);
}
if (!out || !out.cssContentSize) fail("the command answered " + JSON.stringify(out));
if (attaches !== 2) fail("attached " + attaches + " times, want 2 (again after the drop)");
if (sent.filter((m) => m === "Page.getLayoutMetrics").length !== 1) fail("the command reached the page " + JSON.stringify(sent));
`)
}
