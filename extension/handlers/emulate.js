// tab.emulate: a device, CPU and network conditions and media features
// for a tab's page, through the debugger, until reset or the tab closes;
// and the one state of a tab's emulations that tab.viewport's size is a
// part of (handlers/viewport.js).
//
// Chrome drops an emulation when the debugger session that set it ends,
// and the bridge detaches after IDLE_MS without use (handlers/cdp.js): the
// page would go back to what it was behind the agent's back. So while
// anything is emulated the tab's attachment is kept (cdp.js keep), and
// when the debugger attaches to the tab anew (the user pressed Cancel on
// the debugging bar, then an action came) all of it is set again before
// anything else is sent. The cost: Chrome's "is debugging this browser"
// bar stays up meanwhile (docs/reference.md, emulate).
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";
import { emulationChange, ensureAttached, keep, sendCommand } from "./cdp.js";

const MIN = 200;
const MAX = 4000;

// states: tabId -> what is emulated in the tab: device (a size with its
// pixel ratio, mobile, touch and user agent: a preset's, or viewport's
// without a user agent), cpu (the slow-down rate), network, colorScheme,
// reducedMotion. A tab with nothing emulated has no entry.
const states = new Map();

// gens counts each tab's updates, so that a reapply begun before one
// sends nothing after it began (its commands would land after the
// update's and undo them: a reset's, say); skipped notes a reapply cut
// short that way, whose other parts the update then sets itself.
const gens = new Map();
const skipped = new Set();
chrome.tabs.onRemoved.addListener((tabId) => {
  states.delete(tabId);
  gens.delete(tabId);
  skipped.delete(tabId);
});

// The parts of a state, each set by its own commands.
const PARTS = ["device", "cpu", "network", "media"];
// EVERYTHING stands for "all may be set" to a reset, which clears every
// part whatever the state says: the debugger session may hold an
// emulation the state does not know of (the service worker restarted).
const EVERYTHING = { device: { userAgent: "?" }, cpu: 20, network: {}, colorScheme: "?", reducedMotion: "?" };

export async function set(msg) {
  const tabId = intArg(msg, "tabId");
  await ensureAttached(tabId);
  if (msg.reset) {
    await update(tabId, {}, PARTS, EVERYTHING);
    return report(tabId);
  }
  const s = { ...(states.get(tabId) || {}) };
  const parts = [];
  if (msg.device != null) {
    s.device = checkDevice(msg.device);
    parts.push("device");
  }
  if (msg.cpuThrottling != null) {
    const rate = Number(msg.cpuThrottling);
    if (!(rate >= 1 && rate <= 20)) throw new BridgeError(Codes.invalidArgument, "cpuThrottling must be a slow-down rate between 1 (none) and 20");
    s.cpu = rate === 1 ? undefined : rate;
    parts.push("cpu");
  }
  if (msg.network != null) {
    s.network = msg.network.name === "none" ? undefined : checkNetwork(msg.network);
    parts.push("network");
  }
  for (const [key, values] of [["colorScheme", ["light", "dark"]], ["reducedMotion", ["reduce", "no-preference"]]]) {
    if (msg[key] == null) continue;
    if (!values.includes(msg[key])) throw new BridgeError(Codes.invalidArgument, `${key} must be one of ${values.join(", ")}`);
    s[key] = msg[key];
    if (!parts.includes("media")) parts.push("media");
  }
  if (!parts.length) throw new BridgeError(Codes.invalidArgument, "give device, cpuThrottling, network, colorScheme, reducedMotion or reset");
  await update(tabId, s, parts, states.get(tabId) || {});
  return report(tabId);
}

// setDevice sets (or with null clears) the tab's size, pixel ratio,
// mobile and touch: viewport's part of the state, which replaces a
// device preset's (user agent included), and leaves the rest as it is.
export async function setDevice(tabId, device) {
  const s = { ...(states.get(tabId) || {}), device: device ? checkDevice(device) : undefined };
  await update(tabId, s, ["device"], device ? states.get(tabId) || {} : EVERYTHING);
}

// update sends the commands of the parts named, from the state was to s,
// and keeps s: reapplied whole whenever the debugger attaches anew. It
// runs apart from the tab's screenshots, which would undo it
// (cdp.js, emulationChange).
function update(tabId, s, parts, was) {
  return emulationChange(tabId, () => updateNow(tabId, s, parts, was));
}

async function updateNow(tabId, s, parts, was) {
  // A reapply under way (a new debugger session) stops sending at once:
  // its commands would land after these and undo them (a reset).
  gens.set(tabId, (gens.get(tabId) || 0) + 1);
  for (const part of parts) await APPLY[part](tabId, s, was);
  // A new debugging session began meanwhile, and its reapply was cut
  // short: the parts this update did not set are set on it now.
  if (skipped.delete(tabId)) for (const part of PARTS) if (!parts.includes(part)) await APPLY[part](tabId, s, {});
  const any = s.device || s.cpu || s.network || s.colorScheme || s.reducedMotion;
  if (any) {
    states.set(tabId, s);
    keep(tabId, () => reapply(tabId));
  } else {
    states.delete(tabId);
    keep(tabId, null);
  }
}

// reapply sets everything the tab's state holds, on a debugging session
// that has none of it.
async function reapply(tabId) {
  const s = states.get(tabId);
  if (!s) return;
  const gen = gens.get(tabId) || 0;
  const send = (...args) => {
    if ((gens.get(tabId) || 0) === gen) return sendCommand(...args);
    skipped.add(tabId);
    return Promise.resolve();
  };
  for (const part of PARTS) await APPLY[part](tabId, s, {}, send);
}

const APPLY = {
  async device(tabId, s, was, send = sendCommand) {
    const d = s.device;
    if (!d) {
      if (was.device) {
        await send(tabId, "Emulation.clearDeviceMetricsOverride");
        await send(tabId, "Emulation.setTouchEmulationEnabled", { enabled: false });
      }
    } else {
      // Touch first: the resize the new size fires then finds the
      // pointer already coarse, for a page that checks it on resize.
      // Mouse input is left as mouse input: the bridge's clicks and
      // hovers stay what they were.
      await send(tabId, "Emulation.setTouchEmulationEnabled", d.touch ? { enabled: true, maxTouchPoints: 5 } : { enabled: false });
      await send(tabId, "Emulation.setDeviceMetricsOverride", { width: d.width, height: d.height, deviceScaleFactor: d.deviceScaleFactor, mobile: d.mobile });
    }
    if (d && d.userAgent) {
      await send(tabId, "Emulation.setUserAgentOverride", { userAgent: userAgent(d.userAgent), platform: d.platform || undefined });
    } else if (was.device && was.device.userAgent) {
      await send(tabId, "Emulation.setUserAgentOverride", { userAgent: "" }); // the browser's own again
    }
  },
  async cpu(tabId, s, was, send = sendCommand) {
    if (s.cpu || was.cpu) await send(tabId, "Emulation.setCPUThrottlingRate", { rate: s.cpu || 1 });
  },
  async network(tabId, s, was, send = sendCommand) {
    const n = s.network;
    if (!n && !was.network) return;
    const kbps = (v) => (v > 0 ? (v * 1000) / 8 : -1); // bytes per second; -1: not limited
    // Chrome applies the conditions to a session with the Network domain
    // on only.
    if (n) await send(tabId, "Network.enable");
    await send(tabId, "Network.emulateNetworkConditions", n
      ? { offline: !!n.offline, latency: n.latencyMs || 0, downloadThroughput: kbps(n.downloadKbps), uploadThroughput: kbps(n.uploadKbps) }
      : { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    // Its events are of no use to the bridge: off again once lifted.
    if (!n) await send(tabId, "Network.disable");
  },
  async media(tabId, s, was, send = sendCommand) {
    if (!s.colorScheme && !s.reducedMotion && !was.colorScheme && !was.reducedMotion) return;
    await send(tabId, "Emulation.setEmulatedMedia", {
      features: [
        { name: "prefers-color-scheme", value: s.colorScheme || "" },
        { name: "prefers-reduced-motion", value: s.reducedMotion || "" },
      ],
    });
  },
};

// userAgent is a preset's user agent with "Chrome/VERSION" made the
// browser's own version, as a real phone's Chrome would say.
function userAgent(ua) {
  const own = (navigator.userAgent.match(/Chrome\/[\d.]+/) || ["Chrome/130.0.0.0"])[0];
  return ua.replace("Chrome/VERSION", own);
}

function checkDevice(d) {
  const { width, height } = d;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < MIN || height < MIN || width > MAX || height > MAX) {
    throw new BridgeError(Codes.invalidArgument, `width and height must be whole numbers of CSS pixels between ${MIN} and ${MAX}`);
  }
  return {
    name: typeof d.name === "string" ? d.name : "",
    width,
    height,
    deviceScaleFactor: Number(d.deviceScaleFactor) || 0, // 0: the screen's own
    mobile: !!d.mobile,
    touch: !!(d.touch ?? d.mobile),
    userAgent: typeof d.userAgent === "string" ? d.userAgent : "",
    platform: typeof d.platform === "string" ? d.platform : "",
  };
}

function checkNetwork(n) {
  const num = (v) => (Number.isFinite(Number(v)) && Number(v) >= 0 ? Number(v) : 0);
  return { name: String(n.name || "custom"), offline: !!n.offline, latencyMs: num(n.latencyMs), downloadKbps: num(n.downloadKbps), uploadKbps: num(n.uploadKbps) };
}

// report is what is emulated in the tab now: the layout viewport's size
// in CSS px as the browser lays the page out, the device pixels per CSS
// pixel, touch support and user agent the page itself sees (read in the
// extension's isolated world, which the page's scripts cannot redefine),
// and the state's conditions.
export async function report(tabId) {
  const m = await sendCommand(tabId, "Page.getLayoutMetrics");
  const lay = m.cssLayoutViewport || {};
  const [seen] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    func: () => ({ ratio: devicePixelRatio, touch: navigator.maxTouchPoints > 0 && matchMedia("(pointer: coarse)").matches, ua: navigator.userAgent }),
  }).catch(() => []);
  const page = (seen && seen.result) || { ratio: 1, touch: false, ua: "" };
  const s = states.get(tabId) || {};
  const out = {
    width: Math.round(lay.clientWidth || 0),
    height: Math.round(lay.clientHeight || 0),
    deviceScaleFactor: Math.round(page.ratio * 1000) / 1000,
    touch: page.touch,
    userAgent: page.ua,
  };
  if (s.device && s.device.name) out.device = { ...s.device, userAgent: s.device.userAgent ? userAgent(s.device.userAgent) : "" };
  if (s.device && !s.device.name) out.viewport = true;
  if (s.cpu) out.cpuThrottling = s.cpu;
  if (s.network) out.network = s.network;
  if (s.colorScheme) out.colorScheme = s.colorScheme;
  if (s.reducedMotion) out.reducedMotion = s.reducedMotion;
  return out;
}
