// handoff.show: a tab handed to the user (a sign-in, a CAPTCHA, a second
// factor) and taken back when the user says so.
//
// The tab's window comes forward — the one thing the bridge does that
// takes the user's focus — and the message shows in two places: over the
// page, in an extension frame (ui/handoff.html, placed by ui/overlay.js in
// a closed shadow root, put back if the page removes it), and on the
// extension's own page (ui/popup.html). Only those two extension pages can
// answer, with a trusted click on Done or Cancel: the frame is
// cross-origin to the page, so the page's scripts can neither read the
// message nor click the buttons, and guardVerbs below refuses every verb
// that would drive the tab — CDP input, page scripts, navigation — from
// any door until the hand-off ends, so the agent cannot press Done
// either. Nothing is read from the page meanwhile: the answer is the
// outcome and the tab's URL and title afterwards.
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";

const MAX_MS = 600_000;
const MAX_MESSAGE = 500;

// active: tabId -> the hand-off of that tab, or the question asked over
// it (handlers/ask.js: kind "ask"), which holds the tab the same way.
const active = new Map();

export async function show(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const message = typeof msg.message === "string" ? msg.message.trim().slice(0, MAX_MESSAGE) : "";
  if (!message) throw new BridgeError(Codes.invalidArgument, "message is required: say what the user should do, then press Done");
  if (active.has(tabId)) throw busy(active.get(tabId));
  const ms = Math.min(Math.max(Number.isInteger(msg.timeoutMs) ? msg.timeoutMs : MAX_MS, 1000), MAX_MS);
  const tab = await chrome.tabs.get(tabId);
  const h = { token: crypto.randomUUID(), tabId, windowId: tab.windowId, message, since: Date.now(), until: Date.now() + ms, title: tab.title || "", url: tab.url || "" };
  let finish;
  const outcome = new Promise((resolve) => { finish = resolve; });
  h.finish = (o) => finish(o);
  active.set(tabId, h);
  const timer = setTimeout(() => h.finish("timeout"), ms);
  // The daemon gave up (its caller cancelled): take the overlay down.
  const onAbort = () => h.finish("cancelled");
  ctx?.signal?.addEventListener("abort", onAbort);
  try {
    await bringForward(tab);
    await place(h);
    const result = await outcome;
    const now = await chrome.tabs.get(tabId).catch(() => null);
    return { outcome: result, tabId, url: now ? now.url || "" : "", title: now ? now.title || "" : "" };
  } finally {
    clearTimeout(timer);
    ctx?.signal?.removeEventListener("abort", onAbort);
    active.delete(tabId);
    await removeOverlay(tabId);
  }
}

// bringForward makes the tab the active one of a focused window.
export async function bringForward(tab) {
  await chrome.tabs.update(tab.id, { active: true });
  await chrome.windows.update(tab.windowId, { focused: true, drawAttention: true }).catch(() => {});
}

// place puts the overlay on the tab's current page. A page the extension
// may not script (the browser's error page, a chrome:// page) keeps only
// the extension's own page for Done and Cancel. h.page is the frame's
// page (ui/handoff.html unless said), h.frame its title and height.
export async function place(h) {
  const target = { tabId: h.tabId, frameIds: [0] };
  try {
    await chrome.scripting.executeScript({ target, files: ["ui/overlay.js"] });
    await chrome.scripting.executeScript({
      target,
      func: (src, corner, frame) => globalThis.__bbHandoffOverlay.show(src, corner, frame),
      args: [chrome.runtime.getURL(h.page || "ui/handoff.html") + "#" + h.token, h.corner || "top", h.frame || null],
    });
    h.overlay = true;
  } catch (err) {
    h.overlay = false;
    h.overlayError = String(err && err.message || err);
  }
}

export async function removeOverlay(tabId) {
  await chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    func: () => globalThis.__bbHandoffOverlay?.hide(),
  }).catch(() => {});
}

// A new page in the tab (the user signed in and was sent on) gets the
// overlay again; a closed tab ends the hand-off.
chrome.webNavigation.onDOMContentLoaded.addListener((d) => {
  const h = active.get(d.tabId);
  if (h && d.frameId === 0) place(h);
});
chrome.webNavigation.onCompleted.addListener((d) => {
  const h = active.get(d.tabId);
  if (h && d.frameId === 0) place(h);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  active.get(tabId)?.finish("cancelled");
});

// ---- For the questions (handlers/ask.js) ----

// hold makes h the holder of tab key (a question holds its tab, and the
// tab of its own window when it has one); a tab held already is
// handoff_in_progress.
export function hold(key, h) {
  if (active.has(key) && active.get(key) !== h) throw busy(active.get(key));
  active.set(key, h);
}

// release lets go of every tab h holds.
export function release(h) {
  for (const [key, v] of active) if (v === h) active.delete(key);
}

// ---- For the extension's pages (handlers/userpage.js) ----

function byToken(token) {
  for (const h of active.values()) if (typeof token === "string" && h.token === token) return h;
  return null;
}

// list is the hand-offs now, for the extension's page (which may answer).
export function list() {
  return [...new Set(active.values())].map((h) => ({ token: h.token, kind: h.kind || "handoff", ask: h.ask, detail: h.detail, tabId: h.tabId, windowId: h.windowId, message: h.message, since: h.since, until: h.until, title: h.title, url: h.url, overlay: h.overlay !== false }));
}

// get is what the overlay frame shows.
export function get(token) {
  const h = byToken(token);
  if (!h) return { gone: true };
  return { message: h.message, until: h.until, corner: h.corner || "top", kind: h.kind || "handoff", ask: h.ask, detail: h.detail };
}

// answer is the user's Done or Cancel, from the overlay frame or the
// extension's page.
export function answer(token, outcome) {
  const h = byToken(token);
  if (!h) return { gone: true };
  const outcomes = h.outcomes || ["done", "cancelled"];
  if (!outcomes.includes(outcome)) throw new BridgeError(Codes.invalidArgument, `outcome must be ${outcomes.join(" or ")}`);
  h.finish(outcome);
  return { ok: true };
}

// move puts the overlay in the other corner (top or bottom), for what it
// covers.
export async function move(token) {
  const h = byToken(token);
  if (!h) return { gone: true };
  h.corner = h.corner === "bottom" ? "top" : "bottom";
  await place(h);
  return { corner: h.corner };
}

// ---- The guard ----

// READ_ONLY are the verbs that may touch a handed-off tab: they read what
// Chrome knows about it, or end the bridge's hold on it.
const READ_ONLY = new Set(["tab.get", "tab.list", "tab.waitLoad", "tab.frames", "tab.opened", "tab.audit", "cdp.detach", "browser.state", "bridge.ping", "command.cancel", "handoff.show", "policy.set", "ask.show"]);

// guardVerbs wraps the handlers of dispatch.js's table so that a verb
// naming a handed-off tab (tabId, tabIds, or its window for window.close)
// fails with handoff_in_progress before it runs.
export function guardVerbs(handlers) {
  for (const [verb, h] of Object.entries(handlers)) {
    if (READ_ONLY.has(verb)) continue;
    handlers[verb] = (msg, ctx) => {
      const held = heldBy(verb, msg);
      if (held) throw busy(held);
      return h(msg, ctx);
    };
  }
}

function heldBy(verb, msg) {
  if (!msg || active.size === 0) return null;
  const ids = Array.isArray(msg.tabIds) ? msg.tabIds : [msg.tabId];
  for (const id of ids) if (active.has(id)) return active.get(id);
  if (verb === "window.close") {
    for (const h of active.values()) if (h.windowId === msg.windowId) return h;
  }
  return null;
}

function busy(h) {
  if (h.kind === "ask") return new BridgeError(Codes.handoffInProgress, `tab ${h.tabId} waits for the user's answer ("${h.message}"); the bridge does not drive it until the user allows or declines, or the question times out`, [h.tabId]);
  return new BridgeError(Codes.handoffInProgress, `tab ${h.tabId} is in the user's hands (handoff: "${h.message}"); the bridge does not drive it until the user presses Done or Cancel, or the hand-off times out`, [h.tabId]);
}
