// Readiness primitives: the content scripts, and each tab's network and
// navigation activity. What counts as ready is the daemon's business
// (internal/actions/readiness.go and react.go); these only report.
//
// Two kinds of script are put in pages ahead of the first action, only
// while the bridge is in use (the daemon calls readiness.enable when the
// extension says hello; disabling the bridge calls readiness.disable),
// never as static manifest entries that would run in every page forever:
//   - page/quiet.js, a content script registered for every frame from
//     document_start: it records when the DOM last changed, the last
//     input, the page's responses and the load event from the document's
//     start, so extract returns at once on a page that is quiet — any
//     page, the user's own tabs too, which an agent may read;
//   - the action scripts (page/dom.js, page/locate.js, page/act.js, about
//     80 KB), only in the bridge's own tabs (policy.js bridgeTab: the tabs
//     it opened, the tabs their pages opened, the tabs it loaded a page
//     into), injected into each top-frame document as it commits: they
//     only define the functions the daemon's page.run calls (and note the
//     DOM's and the mouse's last moves), so the first click or type on a
//     freshly opened page does not wait for them to be injected and
//     compiled. The pages of the user's own browsing are spared them —
//     their parsing, a mouse-move listener and a DOM observer in every
//     page — until an action needs them there (page.run injects what is
//     missing).
// persistAcrossSessions: false drops quiet.js when Chrome restarts, so a
// bridge that is no longer used leaves nothing behind; the daemon
// registers it again on its next hello.
import { bridgeTab } from "./policy.js";
import { intArg, readyBeside } from "./tabinfo.js";
import { SCRIPTS as RECORD_SCRIPTS } from "./record.js";

// quiet.js, and the developer tools' recorder (handlers/record.js), which
// must run before a page's own scripts; in the bridge's tabs the recorder
// also counts what the page schedules (timers, frames, requests, scripts),
// which quiet.js reports for the readiness rule.
const SCRIPTS = [
  {
    id: "browser-bridge-quiet",
    js: ["page/quiet.js"],
    matches: ["<all_urls>"],
    runAt: "document_start",
    allFrames: true,
    // about:blank, srcdoc and data frames inherit their creator's origin:
    // track them too.
    matchOriginAsFallback: true,
    persistAcrossSessions: false,
    world: "ISOLATED",
  },
  ...RECORD_SCRIPTS,
];

// The action scripts, and the ID under which an older extension
// registered them for every page (enable drops that registration). Each
// begins with V8's compile hint //# allFunctionsCalledOnLoad: its
// functions are compiled when it is injected, at the commit, which the
// load wait covers anyway, instead of one by one when the first action
// calls them, on a freshly loaded page's busy main thread.
const ACT_FILES = ["page/dom.js", "page/locate.js", "page/act.js"];
const OLD_ACT_ID = "browser-bridge-act";

// actIn says whether the action scripts go into the bridge's tabs as
// their documents commit: between enable and disable. A worker Chrome
// restarted learns it from quiet.js's registration, which enable made.
let actIn = false;
const actKnown = chrome.scripting.getRegisteredContentScripts({ ids: [SCRIPTS[0].id] })
  .then((s) => { actIn = actIn || s.length > 0; })
  .catch(() => {});

chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId !== 0) return;
  // A wait for the tab's load (open) answers once the scripts are in, as
  // it did when Chrome ran them before the load event: the first action
  // after an open must not wait for them to compile.
  readyBeside(d.tabId, (async () => {
    await actKnown;
    if (!actIn || !(await bridgeTab(d.tabId))) return;
    // The committed document itself: a later one of the tab gets its own.
    const target = d.documentId ? { tabId: d.tabId, documentIds: [d.documentId] } : { tabId: d.tabId, frameIds: [0] };
    // injectImmediately: not at document_idle, which the first action may
    // come before. A page the extension may not script (the browser's own,
    // the Web Store) refuses: nothing to do there.
    await chrome.scripting.executeScript({ target, files: ACT_FILES, injectImmediately: true }).catch(() => {});
  })());
});

export async function enable() {
  actIn = true;
  try {
    await chrome.scripting.unregisterContentScripts({ ids: [OLD_ACT_ID] });
  } catch (_) { /* not registered: the usual case */ }
  const have = new Set((await chrome.scripting.getRegisteredContentScripts({ ids: SCRIPTS.map((s) => s.id) })).map((s) => s.id));
  const missing = SCRIPTS.filter((s) => !have.has(s.id));
  if (!missing.length) return { ok: true, registered: false };
  for (const script of missing) {
    try {
      await chrome.scripting.registerContentScripts([script]);
    } catch (err) {
      // Two reads racing to register: the loser sees "Duplicate script ID".
      if (!/duplicate/i.test(String(err && err.message))) throw err;
    }
  }
  return { ok: true, registered: true };
}

export async function disable() {
  actIn = false;
  for (const { id } of [...SCRIPTS, { id: OLD_ACT_ID }]) {
    try {
      await chrome.scripting.unregisterContentScripts({ ids: [id] });
    } catch (_) { /* not registered: nothing to do */ }
  }
  return { ok: true };
}

// Network activity, per tab: the requests in flight (their start times, by
// request ID) and the time of the last start or end. Only what brings a
// page its content counts — documents, scripts, styles, fetch/XHR, plugins
// — and, but for frame documents, only the top frame's: images, media and
// fonts do not change what a reader sees, beacons and CSP reports answer
// nothing, and ad frames load without end. WebSockets and EventSource
// streams stay open for good ("websocket", "other"). Nothing about a
// request is kept but its time: no URL, no header.
//
// The listeners are registered when the worker starts, so the record
// covers every request since then; a worker that Chrome restarted (the
// native port normally keeps it alive, see E2E.md) knows nothing of
// requests begun before, which watchedMs tells the daemon.
const NET_TYPES = ["main_frame", "sub_frame", "stylesheet", "script", "xmlhttprequest", "object"];
const net = new Map(); // tabId -> {inflight: Map(requestId -> start), last}
const navigating = new Map(); // tabId -> start of a top-frame navigation not yet committed
const watchStart = performance.now();
// A request with no end event (a tab that went away mid-load) is forgotten
// after this long.
const FORGET_MS = 120_000;

function counts(d) {
  return d.tabId >= 0 && (d.frameId === 0 || d.type === "sub_frame");
}

function tabNet(tabId) {
  let n = net.get(tabId);
  if (!n) {
    n = { inflight: new Map(), last: 0 };
    net.set(tabId, n);
  }
  return n;
}

function started(d) {
  if (!counts(d)) return;
  const n = tabNet(d.tabId);
  n.last = performance.now();
  n.inflight.set(d.requestId, n.last);
}

function ended(d) {
  const n = net.get(d.tabId);
  if (!n || !n.inflight.delete(d.requestId)) return;
  n.last = performance.now();
}

// webRequest is optional to the rest of the extension: without it (an
// older manifest), readiness.net reports watching: false and the daemon
// keeps to its DOM-only rule.
const webRequest = globalThis.chrome?.webRequest;
if (webRequest) {
  const filter = { urls: ["<all_urls>"], types: NET_TYPES };
  webRequest.onBeforeRequest.addListener(started, filter);
  webRequest.onCompleted.addListener(ended, filter);
  webRequest.onErrorOccurred.addListener(ended, filter);
}
chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0) navigating.set(d.tabId, performance.now());
});
const navigated = (d) => {
  if (d.frameId === 0) navigating.delete(d.tabId);
};
chrome.webNavigation.onCommitted.addListener(navigated);
chrome.webNavigation.onErrorOccurred.addListener(navigated);
chrome.tabs.onRemoved.addListener((tabId) => {
  net.delete(tabId);
  navigating.delete(tabId);
});
chrome.tabs.onReplaced.addListener((_added, removed) => {
  net.delete(removed);
  navigating.delete(removed);
});

// netState reports the tab's activity: inflightMs, the ages of the
// requests in flight (youngest first, at most 20); quietMs, the time since
// the last request started or ended (since the record began when none
// did); navigatingMs, the age of a top-frame navigation not yet committed
// (absent when none is); watchedMs, how long the record has been kept.
export async function netState(msg) {
  const tabId = intArg(msg, "tabId");
  const now = performance.now();
  const n = net.get(tabId);
  const ages = [];
  if (n) {
    for (const [id, start] of n.inflight) {
      if (now - start > FORGET_MS) n.inflight.delete(id);
      else ages.push(Math.round(now - start));
    }
  }
  ages.sort((a, b) => a - b);
  const out = {
    watching: !!webRequest,
    inflightMs: ages.slice(0, 20),
    quietMs: Math.round(now - (n && n.last ? n.last : watchStart)),
    watchedMs: Math.round(now - watchStart),
  };
  const nav = navigating.get(tabId);
  if (nav !== undefined) out.navigatingMs = Math.round(now - nav);
  return out;
}
