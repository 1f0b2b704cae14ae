// tab.viewport: the size a tab's page is laid out at
// (Emulation.setDeviceMetricsOverride), until reset or the tab closes.
//
// Chrome drops an emulation when the debugger session that set it ends,
// and the bridge detaches after IDLE_MS without use (handlers/cdp.js): the
// page would go back to the window's size behind the agent's back, and
// reads that need no debugger (extract) would see that. So while an
// override is set the tab's attachment is kept (cdp.js keep), and when
// the debugger attaches to the tab anew (the user pressed Cancel on the
// debugging bar, then an action came) the override is set again before
// anything else is sent. The cost: Chrome's "is debugging this browser"
// bar stays up while an override is set (README, viewport).
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";
import { ensureAttached, keep, sendCommand } from "./cdp.js";

const MIN = 200;
const MAX = 4000;

export async function set(msg) {
  const tabId = intArg(msg, "tabId");
  await ensureAttached(tabId);
  if (msg.reset) {
    keep(tabId, null);
    await sendCommand(tabId, "Emulation.clearDeviceMetricsOverride");
    return measure(tabId);
  }
  const { width, height } = msg;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < MIN || height < MIN || width > MAX || height > MAX) {
    throw new BridgeError(Codes.invalidArgument, `width and height must be whole numbers of CSS pixels between ${MIN} and ${MAX}`);
  }
  const scale = Number(msg.deviceScaleFactor) || 0; // 0: the screen's own
  const params = { width, height, deviceScaleFactor: scale, mobile: !!msg.mobile };
  const apply = () => sendCommand(tabId, "Emulation.setDeviceMetricsOverride", params);
  await apply();
  keep(tabId, apply);
  return measure(tabId);
}

// measure is the layout viewport's size in CSS px and the device pixels
// per CSS pixel, as the browser lays the page out now.
async function measure(tabId) {
  const m = await sendCommand(tabId, "Page.getLayoutMetrics");
  const css = m.cssVisualViewport || {};
  const dev = m.visualViewport || {};
  const ratio = css.clientWidth > 0 && dev.clientWidth > 0 ? dev.clientWidth / css.clientWidth : 1;
  const lay = m.cssLayoutViewport || {};
  return { width: Math.round(lay.clientWidth || 0), height: Math.round(lay.clientHeight || 0), deviceScaleFactor: Math.round(ratio * 1000) / 1000 };
}
