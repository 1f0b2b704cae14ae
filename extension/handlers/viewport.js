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
    await clearDevice(tabId);
    return measure(tabId);
  }
  const { width, height } = msg;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < MIN || height < MIN || width > MAX || height > MAX) {
    throw new BridgeError(Codes.invalidArgument, `width and height must be whole numbers of CSS pixels between ${MIN} and ${MAX}`);
  }
  const scale = Number(msg.deviceScaleFactor) || 0; // 0: the screen's own
  const apply = () => emulateDevice(tabId, { width, height, deviceScaleFactor: scale, mobile: !!msg.mobile });
  await apply();
  keep(tabId, apply);
  return measure(tabId);
}

// emulateDevice lays the tab's page out as a device: its size and pixel
// ratio, and for a mobile one a touch screen too (touch events, a coarse
// pointer), since pages pick their phone layout and handlers by those as
// much as by width. The debugger must be attached. Mouse input is left as
// mouse input: the bridge's clicks and hovers stay what they were.
export async function emulateDevice(tabId, { width, height, deviceScaleFactor, mobile }) {
  // Touch first: the resize the new size fires then finds the pointer
  // already coarse, for a page that checks it on resize.
  await sendCommand(tabId, "Emulation.setTouchEmulationEnabled", mobile ? { enabled: true, maxTouchPoints: 5 } : { enabled: false });
  await sendCommand(tabId, "Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor, mobile });
}

// clearDevice undoes emulateDevice.
export async function clearDevice(tabId) {
  await sendCommand(tabId, "Emulation.clearDeviceMetricsOverride");
  await sendCommand(tabId, "Emulation.setTouchEmulationEnabled", { enabled: false });
}

// measure is the layout viewport's size in CSS px, as the browser lays
// the page out now, and the device pixels per CSS pixel and touch support
// the page itself sees (read in the extension's isolated world, which the
// page's scripts cannot redefine).
async function measure(tabId) {
  const m = await sendCommand(tabId, "Page.getLayoutMetrics");
  const lay = m.cssLayoutViewport || {};
  const [seen] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    func: () => ({ ratio: devicePixelRatio, touch: navigator.maxTouchPoints > 0 && matchMedia("(pointer: coarse)").matches }),
  }).catch(() => []);
  const page = (seen && seen.result) || { ratio: 1, touch: false };
  return { width: Math.round(lay.clientWidth || 0), height: Math.round(lay.clientHeight || 0), deviceScaleFactor: Math.round(page.ratio * 1000) / 1000, touch: page.touch };
}
