// tab.history: a step in a tab's history (back, forward) or a reload, and
// the wait for the page it leads to.
//
// The step is asked for (chrome.tabs.reload, or for back and forward the
// debugger, see goTo), which answers before anything has happened: the tab still says "complete" for
// the page it is leaving, so a wait for the load right after would see the
// old page. So the wait starts from the navigation itself, as
// webNavigation reports it for the top frame:
//   - onCommitted: a new document (or one restored from the back/forward
//     cache, which commits too but may never go through "loading"): then
//     the usual wait for the load (waitLoad), which answers at once for a
//     restored page that is complete already;
//   - onReferenceFragmentUpdated / onHistoryStateUpdated: the step stayed
//     in the document (a #fragment or a history.pushState entry): there
//     is no load to wait for;
//   - onErrorOccurred: the page could not be loaded; the tab shows the
//     browser's error page (tab info's loadError).
// A "leave page?" dialog dismissed meanwhile keeps the page: the answer
// says started: false, stayed: true; nothing at all within waitMs,
// started: false. Every wait is bounded by
// waitMs and the command's cancel.
import { BridgeError, Codes } from "../protocol.js";
import { cancelled, info, intArg, waitLoad } from "./tabinfo.js";
import { ensureAttached, sendCommand } from "./cdp.js";

const STEPS = new Set(["back", "forward", "reload"]);

export async function step(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const step = msg.step;
  if (!STEPS.has(step)) throw new BridgeError(Codes.invalidArgument, "step must be back, forward or reload");
  const waitMs = Math.max(0, Number(msg.waitMs) || 0);
  const deadline = Date.now() + waitMs;
  const started = navigationOf(tabId, ctx?.signal);
  try {
    if (step === "reload") await chrome.tabs.reload(tabId, { bypassCache: !!msg.bypassCache });
    else await goTo(tabId, step === "back" ? -1 : 1);
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve({ kind: "late" }), waitMs); });
    const first = await Promise.race([started.promise, late]);
    clearTimeout(timer);
    if (first.kind === "late" || first.kind === "stayed") {
      return { ...info(await chrome.tabs.get(tabId)), loaded: false, started: false, ...(first.kind === "stayed" ? { stayed: true } : {}) };
    }
    if (first.kind === "same") {
      return { ...info(await chrome.tabs.get(tabId)), loaded: true, started: true, sameDocument: true };
    }
    const loaded = await waitLoad(tabId, Math.max(1, deadline - Date.now()), ctx?.signal);
    return { ...loaded, started: true };
  } finally {
    started.cancel();
  }
}

// goTo goes offset entries from the tab's current history entry.
// chrome.tabs.goBack/goForward are Chrome's Back button, which skips the
// pages nobody interacted with (its history manipulation intervention):
// after open A, open B, back would skip A and find nothing, or skip B on
// the way to the page before it. The agent asks for the page it was on,
// so the step goes through the debugger to the entry next to the current
// one, whatever Chrome's button would skip.
async function goTo(tabId, offset) {
  await ensureAttached(tabId);
  const h = await sendCommand(tabId, "Page.getNavigationHistory");
  const entries = Array.isArray(h.entries) ? h.entries : [];
  const i = h.currentIndex + offset;
  if (!Number.isInteger(i) || i < 0 || i >= entries.length) {
    const where = offset < 0 ? "back to: it is at the first page of its history" : "forward to: it is at the last page of its history";
    throw new BridgeError(Codes.invalidArgument, `tab ${tabId} has no page to go ${where}; open a URL instead`, [tabId]);
  }
  await sendCommand(tabId, "Page.navigateToHistoryEntry", { entryId: entries[i].id });
}

// navigationOf resolves with the first navigation of the tab's top frame
// from now on: {kind: "commit"} (a new or restored document, or an error
// page), or {kind: "same"} (a step within the document). It rejects when
// signal is aborted or the tab closes.
function navigationOf(tabId, signal) {
  const listeners = [];
  let done;
  let fail;
  const promise = new Promise((resolve, reject) => { done = resolve; fail = reject; });
  promise.catch(() => {});
  const on = (event, kind) => {
    const l = (d) => {
      if (d.tabId === tabId && d.frameId === 0) done({ kind });
    };
    event.addListener(l);
    listeners.push([event, l]);
  };
  on(chrome.webNavigation.onCommitted, "commit");
  on(chrome.webNavigation.onErrorOccurred, "commit");
  on(chrome.webNavigation.onReferenceFragmentUpdated, "same");
  on(chrome.webNavigation.onHistoryStateUpdated, "same");
  // A "leave page?" dialog (beforeunload) holds the navigation until it
  // is answered; dismissed (by the bridge, unless the call's dialog says
  // accept, or by the user), the page stays and no navigation comes. The
  // bridge's debugger sees it close when it answered it.
  const closed = (source, method, params) => {
    if (source.tabId === tabId && method === "Page.javascriptDialogClosed" && params && params.result === false) done({ kind: "stayed" });
  };
  chrome.debugger.onEvent.addListener(closed);
  const removed = (id) => {
    if (id === tabId) fail(new BridgeError(Codes.tabNotFound, "the tab was closed while it loaded"));
  };
  chrome.tabs.onRemoved.addListener(removed);
  const abort = () => fail(cancelled());
  signal?.addEventListener("abort", abort, { once: true });
  if (signal?.aborted) abort();
  return {
    promise,
    cancel: () => {
      for (const [event, l] of listeners) event.removeListener(l);
      chrome.tabs.onRemoved.removeListener(removed);
      chrome.debugger.onEvent.removeListener(closed);
      signal?.removeEventListener("abort", abort);
    },
  };
}
