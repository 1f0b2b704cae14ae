// Shared helpers for tab results and load waits.
import { BridgeError, Codes } from "../protocol.js";
import * as stops from "./stops.js";

// loadErrors: tabId -> the network error of the top frame's last
// navigation ("net::ERR_NAME_NOT_RESOLVED"), while the tab shows the
// browser's error page for it.
const loadErrors = new Map();
chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0) loadErrors.delete(d.tabId);
});
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  // ERR_ABORTED is a navigation replaced by another, not a failure.
  if (d.frameId === 0 && d.error && !/ERR_ABORTED/.test(d.error)) loadErrors.set(d.tabId, d.error);
});
chrome.tabs.onRemoved.addListener((tabId) => loadErrors.delete(tabId));

// WORKSPACE_PAGE is the quiet tab that keeps a workspace's window and
// its tab group open between the agent's pages (ui/workspace.html).
export const WORKSPACE_PAGE = chrome.runtime.getURL("ui/workspace.html");

// isWorkspacePage says whether the tab t shows the workspace page.
export function isWorkspacePage(t) {
  return (t.url || t.pendingUrl || "") === WORKSPACE_PAGE;
}

// info is the shape every tab result uses. A tab on the blocked page
// carries what the site rules stopped it from loading (stops.js), for
// the daemon's guard and the agent.
export function info(t) {
  const url = t.url || t.pendingUrl || "";
  const onBlocked = url.startsWith(chrome.runtime.getURL("ui/blocked.html"));
  const stopped = onBlocked ? stops.get(t.id) : undefined;
  // The blocked page follows the load the rules blocked, whose error
  // (ERR_BLOCKED_BY_CLIENT) may be reported after it: not the page's.
  const loadError = onBlocked ? undefined : loadErrors.get(t.id);
  return {
    ...(loadError ? { loadError } : {}),
    ...(stopped ? { stopped } : {}),
    // The workspace page: the bridge's, not the user's, though no
    // workspace owns it (the daemon closes a workspace's window that
    // holds nothing else).
    ...(isWorkspacePage(t) ? { workspacePage: true } : {}),
    // The tab whose page opened this one (a link to _blank, window.open).
    ...(Number.isInteger(t.openerTabId) ? { openerTabId: t.openerTabId } : {}),
    tabId: t.id,
    windowId: t.windowId,
    url,
    title: t.title || "",
    active: !!t.active,
    groupId: t.groupId ?? -1,
    incognito: !!t.incognito,
    status: t.status || "",
  };
}

// intArg reads a required integer parameter.
export function intArg(msg, name) {
  const v = msg[name];
  if (!Number.isInteger(v)) throw new BridgeError(Codes.invalidArgument, `${name} must be an integer`);
  return v;
}

// activating: tabId -> the promise of a tabs.update({active: true}) that
// tab.create started and did not wait for (see tabs.create).
const activating = new Map();

// activateBeside makes the tab active in the background; waitLoad waits for it.
export function activateBeside(tabId) {
  const p = chrome.tabs.update(tabId, { active: true }).then(() => true, () => false)
    .finally(() => { if (activating.get(tabId) === p) activating.delete(tabId); });
  activating.set(tabId, p);
}

// readying: tabId -> the promise of the work a page needs before the
// bridge acts on it (the action scripts' injection, handlers/readiness.js),
// which a wait for the tab's load waits for too. It never rejects.
const readying = new Map();

// readyBeside has waitLoad's answer for the tab wait for p as well, for
// at most READY_WAIT_MS (a page stuck on a script must not hold the load
// up).
export function readyBeside(tabId, p) {
  let timer;
  const capped = Promise.race([p, new Promise((resolve) => { timer = setTimeout(resolve, READY_WAIT_MS); })])
    .catch(() => {})
    .finally(() => {
      clearTimeout(timer);
      if (readying.get(tabId) === capped) readying.delete(tabId);
    });
  readying.set(tabId, capped);
}

const READY_WAIT_MS = 1000;

function loaded(t) {
  return t.status === "complete" && !t.pendingUrl;
}

// waitLoad resolves with the tab's info once it has finished loading, or
// with loaded: false when ms pass first. Meaning (is a timeout an error?)
// is the daemon's business. It stops when signal (the command's, see
// dispatch.js) is aborted.
export function waitLoad(tabId, ms, signal) {
  // The cancel may have come while the caller was still creating the tab.
  if (signal?.aborted) return Promise.reject(cancelled());
  return new Promise((resolve, reject) => {
    let done = false;
    const cleanup = () => {
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      if (done) return;
      cleanup();
      reject(cancelled());
    };
    // finish answers with t, the tab as the event or the look that saw
    // it loaded gave it (no further round trip to Chrome), or as it is now.
    const finish = (ok, t) => {
      if (done) return;
      cleanup();
      const answer = (t, active) => resolve({ ...info(t), ...(active ? { active: true } : {}), loaded: ok });
      const pending = activating.get(tabId);
      const readied = readying.get(tabId);
      if (pending || readied) {
        // The activation tab.create started and the page's readying:
        // done before the answer.
        Promise.all([pending, readied]).then(([active]) => t ? answer(t, !!active) : chrome.tabs.get(tabId).then((t) => answer(t, false), reject));
        return;
      }
      if (t) {
        answer(t, false);
        return;
      }
      chrome.tabs.get(tabId).then((t) => answer(t, false), reject);
    };
    const onUpdated = (id, _change, t) => {
      if (id === tabId && loaded(t)) finish(true, t);
    };
    const onRemoved = (id) => {
      if (id !== tabId || done) return;
      cleanup();
      reject(new BridgeError(Codes.tabNotFound, "the tab was closed while it loaded"));
    };
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
    signal?.addEventListener("abort", onAbort);
    const timer = setTimeout(() => finish(false), Math.max(0, ms || 0));
    // Events alone are not enough: the first file: load of a fresh browser
    // reaches "complete" without an onUpdated event we see (seen on
    // Chromium 156), so look at the tab every 100 ms as well.
    const check = () => chrome.tabs.get(tabId).then((t) => { if (loaded(t)) finish(true, t); }, (err) => {
      if (!done) { cleanup(); reject(err); }
    });
    const poll = setInterval(check, 100);
    check();
  });
}

// cancelled is the error of a command stopped by command.cancel. Nobody
// reads it (the daemon stopped waiting), but it ends the handler cleanly.
export function cancelled() {
  return new BridgeError(Codes.timeout, "the command was cancelled by the caller");
}
