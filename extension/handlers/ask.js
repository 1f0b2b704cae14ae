// ask.show: the "ask before irreversible steps" mode's question
// (internal/actions/ask.go): may the agent press “Place order”, send this
// form, go to that other site? The daemon decides what to ask; this shows
// the question and waits for the user's answer.
//
// It is shown as the hand-off's message is (handlers/handoff.js): the
// tab's window comes forward and the question shows over the page in an
// extension frame (ui/ask.html, placed by ui/overlay.js in a closed shadow
// root) that the page's scripts can neither read nor click, and on the
// extension's own page. With no tab (a new tab is to be opened), or on a
// page the extension may not script, it shows in a small window of the
// extension's own instead. The question holds its tab like a hand-off:
// handoff.js's guard refuses every verb that would drive it — CDP input,
// page scripts, navigation — from any door, so the agent cannot press
// Allow. Only a trusted click on Allow or Decline in the extension's
// pages answers.
import { BridgeError, Codes } from "../protocol.js";
import * as handoff from "./handoff.js";

const MAX_MS = 600_000;
const MAX_MESSAGE = 500;
const KINDS = new Set(["submit", "payment", "navigation"]);

const text = (v, n) => (typeof v === "string" ? v.trim().slice(0, n) : "");

export async function show(msg, ctx) {
  const kind = msg.kind;
  if (!KINDS.has(kind)) throw new BridgeError(Codes.invalidArgument, "kind must be submit, payment or navigation");
  const message = text(msg.message, MAX_MESSAGE);
  if (!message) throw new BridgeError(Codes.invalidArgument, "message is required: the question to ask the user");
  const ms = Math.min(Math.max(Number.isInteger(msg.timeoutMs) ? msg.timeoutMs : 60_000, 1000), MAX_MS);
  const tab = Number.isInteger(msg.tabId) && msg.tabId > 0 ? await chrome.tabs.get(msg.tabId) : null;
  const h = {
    kind: "ask",
    ask: kind,
    token: crypto.randomUUID(),
    tabId: tab ? tab.id : null,
    windowId: tab ? tab.windowId : null,
    message,
    detail: text(msg.detail, MAX_MESSAGE),
    since: Date.now(),
    until: Date.now() + ms,
    title: tab ? tab.title || "" : "",
    url: tab ? tab.url || "" : "",
    page: "ui/ask.html",
    frame: { title: "Browser Bridge: your agent asks you first", height: 200 },
    outcomes: ["allowed", "declined"],
  };
  let resolve;
  const outcome = new Promise((r) => { resolve = r; });
  // A tab closed under the question, or the question's own window
  // closed (handoff.js says "cancelled"), is a no.
  h.finish = (o) => resolve(o === "allowed" || o === "timeout" ? o : "declined");
  if (tab) handoff.hold(tab.id, h);
  const timer = setTimeout(() => h.finish("timeout"), ms);
  // The daemon gave up (its caller cancelled): take the question down.
  const onAbort = () => h.finish("timeout");
  ctx?.signal?.addEventListener("abort", onAbort);
  let own = null; // the extension's own window, when it shows the question
  try {
    if (tab) {
      await handoff.bringForward(tab);
      await handoff.place(h);
    }
    if (!tab || !h.overlay) {
      h.overlay = false;
      own = await chrome.windows.create({ url: chrome.runtime.getURL("ui/ask.html?window=1#" + h.token), type: "popup", width: 440, height: 260, focused: true });
      const ownTab = own.tabs && own.tabs[0];
      if (ownTab) handoff.hold(ownTab.id, h);
      if (!tab) h.windowId = own.id;
    }
    return { outcome: await outcome, overlay: !!h.overlay };
  } finally {
    clearTimeout(timer);
    ctx?.signal?.removeEventListener("abort", onAbort);
    handoff.release(h);
    if (tab && h.overlay) await handoff.removeOverlay(tab.id);
    if (own) await chrome.windows.remove(own.id).catch(() => {});
  }
}

