// tab.viewport: the size a tab's page is laid out at
// (Emulation.setDeviceMetricsOverride), until reset or the tab closes.
// It is the device part of the tab's emulations (handlers/emulate.js),
// which keeps it, with the debugger attached, and sets it again when the
// debugger attaches anew; a viewport replaces a device preset of emulate,
// and its reset undoes that part only.
import { intArg } from "./tabinfo.js";
import { ensureAttached } from "./cdp.js";
import { report, setDevice } from "./emulate.js";

export async function set(msg) {
  const tabId = intArg(msg, "tabId");
  await ensureAttached(tabId);
  // A mobile viewport is a phone's: touch events and a coarse pointer
  // too, since pages pick their phone layout and handlers by those as
  // much as by width.
  await setDevice(tabId, msg.reset ? null : { width: msg.width, height: msg.height, deviceScaleFactor: msg.deviceScaleFactor, mobile: !!msg.mobile });
  const { width, height, deviceScaleFactor, touch } = await report(tabId);
  return { width, height, deviceScaleFactor, touch };
}
