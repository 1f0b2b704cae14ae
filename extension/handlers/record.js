// The developer tools' records (docs/design.md#actions): per tab, what its pages said
// (console messages, uncaught exceptions, unhandled rejections, failed
// loads, CSP violations) and the requests they made, kept in rings in the
// service worker's memory — never on disk — and read by the daemon's
// console and network actions (record.console, record.network), which
// redact secrets before anything reaches the agent (internal/redact).
// The console record also survives a restart of the worker (Chrome
// stops an idle one): a redacted copy of it is kept in
// chrome.storage.session (see "Surviving a restart" below).
//
// Sources, none of which needs the debugger or shows its banner:
//   - webRequest, for every request of a recorded tab: method, URL, type,
//     status, headers, timing, errors, fromCache, and request bodies;
//   - page/record-main.js in the page's world and page/record.js in the
//     isolated world (see those files): console calls, exceptions,
//     rejections, and the text bodies of fetch/XHR responses the page
//     read; record.js adds CSP violations. Their records are the page's
//     own words and are filed under the tab Chrome names as the sender.
//
// Which tabs: the bridge's own (policy.js bridgeTab: the tabs it opened,
// those their pages opened, those it loaded a page into) from their first
// load, across navigations; any other tab from the first time the bridge
// touches it (dispatch.js calls touch for every command naming a tab) —
// then its record says it did not begin with the page's load.
//
// Bounds, per tab: MSG_MAX messages, REQ_MAX requests, BODY_TAB_MAX bytes
// of bodies (each at most BODY_MAX); a URL longer than URL_MAX and a
// header value longer than VALUE_MAX keep a marked prefix. Across all
// tabs the records hold at most MEM_MAX bytes: past it the oldest
// entries of any tab go first. What falls out is counted (dropped). A
// closed tab's record goes with it.
import { BridgeError, Codes } from "../protocol.js";
import { bridgeTab, decide, recordFromStart } from "./policy.js";
import { intArg } from "./tabinfo.js";
import { loose, url as redactURL } from "./redact.js";

const MSG_MAX = 1000;
const REQ_MAX = 500;
const BODY_MAX = 256 * 1024;
const BODY_TAB_MAX = 1024 * 1024;
const HEADERS_MAX = 100;
// A page can make URLs of megabytes (a no-cors fetch of a 1.5 MB URL
// leaves the page at once): the record keeps their start, marked.
const URL_MAX = 4096;
const URL_KEEP = 2048;
const VALUE_MAX = 2048;
const CUT = "…[cut]";
// All tabs' records together, in bytes (two a character, as V8 keeps
// most strings at worst): a few pages must not grow the worker without
// bound.
const MEM_MAX = 64 * 1024 * 1024;
// How long a new tab's requests are held before the tab is known to be
// the bridge's (it learns that as tabs.create returns, after the first
// request may have started).
const PROVISIONAL_MS = 10_000;

// The content scripts (registered by handlers/readiness.js while the
// bridge is in use): record.js first, so that it usually listens when
// record-main.js says hello. In every frame: a frame's console calls and
// the bodies of its fetch and XHR calls are the page's too (and only the
// page's half can tell a fetch from an XHR).
export const SCRIPTS = [
  {
    id: "browser-bridge-record",
    js: ["page/record.js"],
    matches: ["<all_urls>"],
    runAt: "document_start",
    allFrames: true,
    persistAcrossSessions: false,
    world: "ISOLATED",
  },
  {
    id: "browser-bridge-record-main",
    js: ["page/record-main.js"],
    matches: ["<all_urls>"],
    runAt: "document_start",
    allFrames: true,
    persistAcrossSessions: false,
    world: "MAIN",
  },
];

const recs = new Map(); // tabId -> record
const created = new Map(); // tabId -> time a tab was created, while provisional

function newRecord(tabId, fromLoad, recording) {
  return {
    tabId, recording, startedAt: Date.now(), fromLoad, bodiesFrom: fromLoad ? 0 : Date.now(),
    msgs: [], msgSeq: 0, msgDropped: 0,
    reqs: new Map(), reqSeq: 0, reqDropped: 0, bodyBytes: 0,
    // frames: frameId -> the URL its document shows (webNavigation), by
    // which every entry is judged; leftOut counts the entries the site
    // rules kept out of the record.
    frames: new Map(), leftOut: 0,
    // bytes: what its entries hold, bodies aside (see trim).
    bytes: 0,
  };
}

// ---- The site rules ----
// The record holds nothing of a site the user's rules deny: the agent
// may not read such a page, so neither what it logged nor what it
// fetched, nor a request of an allowed page to a denied URL, nor the
// traffic of a denied frame inside an allowed page. Each entry is judged
// as it comes, by its own URL, the URL of the frame that made it and the
// tab's top frame; what is kept out is only counted. The daemon judges
// every entry again as it reads (the rules may have changed since).

// denied says whether the rules refuse url. What names no place of its
// own (""; a script without a URL, "<anonymous>"; an about:blank or
// about:srcdoc frame, its creator's) is left to the page's URL, which is
// judged too.
function denied(url) {
  return typeof url === "string" && /^[a-z][a-z0-9+.-]*:/i.test(url) && !/^about:/i.test(url) && !decide(url).allowed;
}

// originURL is an initiator origin as a URL the rules can judge ("null",
// an opaque origin, is none).
function originURL(origin) {
  return typeof origin === "string" && /^[a-z][a-z0-9+.-]*:\/\//i.test(origin) ? origin + "/" : "";
}

// offLimits says whether a request of r's tab is kept out: its URL, and
// but for a top-level load (judged by where it goes) the page that made
// it: its frame's document (a frame's load: the parent's), the page that
// started it and the tab's top frame.
function offLimits(r, d) {
  if (denied(d.url)) return true;
  if (d.type === "main_frame") return false;
  const frame = d.type === "sub_frame" ? d.parentFrameId : d.frameId;
  return denied(r.frames.get(frame)) || denied(r.frames.get(0)) || denied(originURL(d.initiator));
}

// pageOffLimits says whether what a frame said is kept out: the page at
// sender's URL, or the tab's top frame as webNavigation saw it.
function pageOffLimits(r, pageUrl) {
  return denied(pageUrl) || denied(r.frames.get(0));
}

// learnFrames fills r's frames with the tab's frames as they are now: a
// record started by a touch began after they loaded.
function learnFrames(tabId, r) {
  chrome.webNavigation.getAllFrames({ tabId }).then((all) => {
    for (const f of all || []) if (!r.frames.has(f.frameId)) r.frames.set(f.frameId, f.url);
  }, () => {});
}

// start records tabId from now on (fromLoad: its page's load is covered),
// and puts the recorder in its page when it may not be there yet.
export function start(tabId, fromLoad) {
  let r = recs.get(tabId);
  if (r && r.recording) return r;
  if (r && fromLoad) {
    // A provisional record of the bridge's new tab: it holds the first load.
    r.recording = true;
    r.startedAt = Date.now();
  } else {
    r = newRecord(tabId, fromLoad, true);
    recs.set(tabId, r);
  }
  created.delete(tabId);
  changed(r);
  // Its next documents carry the marker that lets the page's half record
  // them from their first script (page/record-main.js).
  recordFromStart(tabId);
  learnFrames(tabId, r);
  listenBodies(tabId);
  // A read waits for this (ensure): "recording starts now" must be true
  // when it is said. Other commands do not wait.
  if (!fromLoad) r.injected = inject(tabId);
  return r;
}

// LOOKS are the verbs that only look at a tab, which the daemon sends
// before it decides whether a command may act on it at all: they start
// no record (a refused command must not begin to record the user's tab).
const LOOKS = new Set(["tab.get"]);

// touch is called for every command that names a tab (of type verb):
// the bridge's own tab is recorded from its load already; another starts
// now, unless it shows a page the rules deny.
export function touch(tabId, verb) {
  if (!Number.isInteger(tabId) || tabId < 0 || LOOKS.has(verb)) return;
  const r = recs.get(tabId);
  if (r && r.recording) return;
  Promise.all([bridgeTab(tabId), chrome.tabs.get(tabId)]).then(([own, tab]) => {
    if (!own && denied(tab.url || tab.pendingUrl)) return;
    start(tabId, own && !!r);
  }, () => {});
}

// inject puts record.js and, if it asks for it, record-main.js in the
// tab's top frame; a page the extension may not script refuses, and is
// recorded by webRequest only.
async function inject(tabId) {
  try {
    const [res] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: ["page/record.js"] });
    const r = recs.get(tabId);
    if (r) r.bodiesFrom = Date.now();
    if (res && res.result === true) {
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: ["page/record-main.js"], world: "MAIN", injectImmediately: true });
    }
  } catch (_) { /* a protected page, or the tab went away */ }
}

// rec is the record that keeps events of tabId: a recorded tab's, or a
// new tab's provisional one.
function rec(tabId) {
  if (tabId < 0) return null;
  const r = recs.get(tabId);
  if (r && !r.recording && Date.now() - r.startedAt > PROVISIONAL_MS) {
    // Nobody claimed it: the user's own tab.
    recs.delete(tabId);
    return null;
  }
  if (r) return r;
  const at = created.get(tabId);
  if (at === undefined) return null;
  if (Date.now() - at > PROVISIONAL_MS) {
    created.delete(tabId);
    return null;
  }
  const p = newRecord(tabId, true, false);
  recs.set(tabId, p);
  return p;
}

function addMessage(r, m) {
  m.seq = ++r.msgSeq;
  m.size = msgSize(m);
  r.msgs.push(m);
  r.bytes += m.size;
  if (r.msgs.length > MSG_MAX) dropMessage(r);
  trim();
  changed(r);
}

function dropMessage(r) {
  r.bytes -= r.msgs.shift().size;
  r.msgDropped++;
}

// ---- Memory ----

// capURL is url, or its start marked as cut when it is longer than
// URL_MAX. (The page's half cuts its URLs at URL_MAX plainly: the same
// URL gives the same entry either way, which attachBody relies on.)
function capURL(url) {
  return typeof url === "string" && url.length > URL_MAX ? url.slice(0, URL_KEEP) + CUT : url;
}

const chars = (s) => (typeof s === "string" ? s.length : 0);
function headerChars(list) {
  let n = 0;
  for (const h of list || []) n += h.name.length + h.value.length;
  return n;
}

// reqSize and msgSize are an entry's bytes, bodies aside (keepBody
// counts those in bodyBytes), with something for the fields.
function reqSize(q) {
  return 2 * (chars(q.url) + chars(q.frameUrl) + headerChars(q.requestHeaders) + headerChars(q.responseHeaders)) + 200;
}
function msgSize(m) {
  let n = chars(m.text) + chars(m.url) + chars(m.frameUrl);
  for (const f of m.stack || []) n += chars(f.url) + chars(f.function);
  return 2 * n + 100;
}

// resize counts q's new size in r, and keeps to MEM_MAX.
function resize(r, q) {
  const size = reqSize(q);
  r.bytes += size - q.size;
  q.size = size;
  trim();
}

// trim drops the oldest entries of all records, whatever their tab,
// while together they hold more than MEM_MAX bytes.
function trim() {
  let total = 0;
  for (const r of recs.values()) total += r.bytes + r.bodyBytes;
  while (total > MEM_MAX) {
    let oldest = null;
    let at = Infinity;
    for (const r of recs.values()) {
      const m = r.msgs[0];
      if (m && m.time < at) [oldest, at] = [{ r, m }, m.time];
      const [q] = r.reqs.values();
      if (q && q.time < at) [oldest, at] = [{ r, q }, q.time];
    }
    if (!oldest) return;
    const { r, m, q } = oldest;
    const before = r.bytes + r.bodyBytes;
    if (m) dropMessage(r);
    else {
      forget(r, q);
      r.reqDropped++;
    }
    total -= before - (r.bytes + r.bodyBytes);
  }
}

// ---- Requests, from webRequest ----

const TYPES = { main_frame: "document", sub_frame: "document", stylesheet: "stylesheet", script: "script", image: "image", imageset: "image",
  font: "font", xmlhttprequest: "xhr", websocket: "websocket" };

function header(list, name) {
  for (const h of list || []) if (h.name.toLowerCase() === name) return h.value || "";
  return "";
}

// The marker the site rules add to the documents of recorded tabs
// (policy.js markRule) is the extension's, not the server's.
const MARK = "browser-bridge-record";

function headersOf(list) {
  const theirs = (list || []).filter((h) => !(String(h.name).toLowerCase() === "server-timing" && h.value === MARK));
  return theirs.slice(0, HEADERS_MAX).map((h) => {
    const value = String(h.value ?? "");
    return { name: String(h.name).slice(0, 256), value: value.length > VALUE_MAX ? value.slice(0, VALUE_MAX) + CUT : value };
  });
}

// keepBody stores text as a body of r, evicting the oldest bodies past
// the tab's allowance; it returns the body to store.
function keepBody(r, text) {
  const bytes = text.length * 2;
  if (bytes > BODY_MAX) return { notKept: "over_cap", bytes };
  r.bodyBytes += bytes;
  trim();
  if (r.bodyBytes > BODY_TAB_MAX) {
    for (const q of r.reqs.values()) {
      for (const k of ["requestBody", "responseBody"]) {
        const b = q[k];
        if (b && b.text !== undefined && r.bodyBytes > BODY_TAB_MAX) {
          r.bodyBytes -= b.text.length * 2;
          q[k] = { notKept: "evicted" };
        }
      }
      if (r.bodyBytes <= BODY_TAB_MAX) break;
    }
  }
  return { text };
}

// requestBody turns webRequest's requestBody into text: a form as a
// URL-encoded string, raw bytes as UTF-8 text unless they are not text.
function requestBody(r, rb) {
  if (!rb) return undefined;
  if (rb.formData) {
    const parts = [];
    for (const [k, vs] of Object.entries(rb.formData)) for (const v of vs) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    return keepBody(r, parts.join("&"));
  }
  if (rb.raw) {
    let size = 0;
    for (const p of rb.raw) size += p.bytes ? p.bytes.byteLength : 0;
    if (rb.raw.some((p) => p.file)) return { notKept: "binary" };
    if (size > BODY_MAX) return { notKept: "over_cap", bytes: size };
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of rb.raw) {
      if (!p.bytes) continue;
      all.set(new Uint8Array(p.bytes), at);
      at += p.bytes.byteLength;
    }
    try {
      return keepBody(r, new TextDecoder("utf-8", { fatal: true }).decode(all));
    } catch (_) {
      return { notKept: "binary", bytes: size };
    }
  }
  return undefined;
}

function onBefore(d) {
  // The bridge's own fetch again of a no-store document (refetch below)
  // is not the page's request: it stays out of the page's record.
  if (ours(d)) return;
  // The browser fetches /favicon.ico for its tab strip, not the page
  // (DevTools does not list it either): a 404 there is no error of the
  // page's.
  if ((d.type === "other" || d.type === "image") && /\/favicon\.ico(\?|$)/.test(d.url)) return;
  const r = rec(d.tabId);
  if (!r) return;
  const old = r.reqs.get(d.requestId);
  const body = early.get(d.requestId);
  early.delete(d.requestId);
  if (offLimits(r, d)) {
    // A redirect into a denied site takes the whole entry out.
    if (old) forget(r, old);
    r.leftOut++;
    changed(r);
    // A frame on its way to a denied page: what it does next is off
    // limits already, before webNavigation says it committed.
    if (d.type === "main_frame" || d.type === "sub_frame") r.frames.set(d.frameId, d.url);
    return;
  }
  if (old) {
    // A redirect keeps its request ID: the entry follows it.
    old.url = capURL(d.url);
    resize(r, old);
    return;
  }
  const frameUrl = d.type === "main_frame" ? "" : r.frames.get(d.type === "sub_frame" ? d.parentFrameId : d.frameId) || "";
  const q = { seq: ++r.reqSeq, requestId: d.requestId, method: d.method, url: capURL(d.url), type: TYPES[d.type] || "other",
    status: 0, mimeType: "", bytes: -1, durationMs: 0, time: d.timeStamp, requestBody: body, frameUrl: capURL(frameUrl), size: 0 };
  r.reqs.set(d.requestId, q);
  if (r.reqs.size > REQ_MAX) {
    const [first] = r.reqs.values();
    forget(r, first);
    r.reqDropped++;
  }
  resize(r, q);
}

// forget takes request q out of r, and its bodies out of r's allowance.
function forget(r, q) {
  for (const k of ["requestBody", "responseBody"]) if (q[k] && q[k].text !== undefined) r.bodyBytes -= q[k].text.length * 2;
  r.bytes -= q.size;
  r.reqs.delete(q.requestId);
}

// Request bodies are asked of Chrome for the recorded tabs only (a
// listener per tab, filtered by its tabId): the bodies of the user's own
// form posts and uploads are never copied into the worker. A body that
// comes before its request's entry waits in early.
const bodyListeners = new Map(); // tabId -> listener
const early = new Map(); // requestId -> body
function listenBodies(tabId) {
  if (!webRequest || bodyListeners.has(tabId)) return;
  const listener = afterRestore((d) => {
    const r = recs.get(d.tabId);
    if (!r || !d.requestBody || offLimits(r, d)) return;
    const body = requestBody(r, d.requestBody);
    const q = r.reqs.get(d.requestId);
    if (q) {
      if (q.requestBody === undefined) q.requestBody = body;
      return;
    }
    early.set(d.requestId, body);
    if (early.size > 100) early.delete(early.keys().next().value);
  });
  webRequest.onBeforeRequest.addListener(listener, { urls: ["<all_urls>"], tabId }, ["requestBody"]);
  bodyListeners.set(tabId, listener);
}

function unlistenBodies(tabId) {
  const listener = bodyListeners.get(tabId);
  if (!listener) return;
  webRequest.onBeforeRequest.removeListener(listener);
  bodyListeners.delete(tabId);
}

function entry(d) {
  const r = recs.get(d.tabId);
  return r && r.reqs.get(d.requestId);
}

function onSendHeaders(d) {
  const q = entry(d);
  if (!q) return;
  q.requestHeaders = headersOf(d.requestHeaders);
  resize(recs.get(d.tabId), q);
}

function onHeaders(d) {
  const q = entry(d);
  if (!q) return;
  q.status = d.statusCode;
  // "HTTP/1.1 404 Not Found": its text (HTTP/2 has none; the daemon
  // gives the standard one then).
  const line = /^\S+\s+\d{3}\s+(.+)$/.exec(d.statusLine || "");
  if (line) q.statusText = line[1].slice(0, 100);
  q.responseHeaders = headersOf(d.responseHeaders);
  q.mimeType = header(d.responseHeaders, "content-type").split(";")[0].trim();
  const len = Number(header(d.responseHeaders, "content-length"));
  if (header(d.responseHeaders, "content-length") !== "" && Number.isFinite(len)) q.bytes = len;
  resize(recs.get(d.tabId), q);
}

function onDone(d) {
  const r = recs.get(d.tabId);
  const q = r && r.reqs.get(d.requestId);
  if (!q) return;
  q.durationMs = Math.max(0, Math.round(d.timeStamp - q.time));
  q.doneAt = Date.now();
  q.fromCache = !!d.fromCache;
  if (d.statusCode) q.status = d.statusCode;
  if (d.error) q.error = d.error;
  // The browser's own console line for a failed load, as DevTools shows
  // it; in a new tab's provisional record too, where its first load ends
  // before the tab is known to be the bridge's (a record nobody claims
  // goes with its line).
  if ((d.error || q.status >= 400) && d.error !== "net::ERR_ABORTED") {
    const text = d.error ? `Failed to load resource: ${d.error}` : `Failed to load resource: the server responded with a status of ${q.status}`;
    const m = { level: "error", text, source: "network", url: q.url, time: Date.now(), frameUrl: q.frameUrl };
    // A frame's failed load is the frame's (a frame document's own load
    // is its parent's to show).
    const frameId = d.type === "sub_frame" ? d.parentFrameId : d.frameId;
    if (frameId > 0) m.frameId = frameId;
    addMessage(r, m);
  }
}

// afterRestore is listener f, run once the stored records are back
// (restore below): the events that wake a stopped worker are the first
// it sees, and each must find its tab's record, not take the tab for one
// never recorded. Those that come before are queued, in order.
function afterRestore(f) {
  return (...args) => {
    if (restoredYet) f(...args);
    else restored.then(() => f(...args));
  };
}

const webRequest = globalThis.chrome?.webRequest;
if (webRequest) {
  const filter = { urls: ["<all_urls>"] };
  // extraHeaders: Cookie, Set-Cookie and Authorization are among what a
  // developer checks (the daemon redacts their values, but the agent sees
  // that they were sent).
  webRequest.onBeforeRequest.addListener(afterRestore(onBefore), filter);
  webRequest.onSendHeaders.addListener(afterRestore(onSendHeaders), filter, ["requestHeaders", "extraHeaders"]);
  webRequest.onHeadersReceived.addListener(afterRestore(onHeaders), filter, ["responseHeaders", "extraHeaders"]);
  webRequest.onCompleted.addListener(afterRestore(onDone), filter);
  webRequest.onErrorOccurred.addListener(afterRestore(onDone), filter);
}

chrome.tabs.onCreated.addListener((t) => {
  if (t.id >= 0) created.set(t.id, Date.now());
});
chrome.tabs.onRemoved.addListener(afterRestore((tabId) => {
  recs.delete(tabId);
  forgetStored(tabId);
  created.delete(tabId);
  unlistenBodies(tabId);
}));
chrome.tabs.onReplaced.addListener(afterRestore((added, removed) => {
  recs.delete(removed);
  forgetStored(removed);
  unlistenBodies(removed);
}));
// A recorded tab's new page is recorded from its start (the content
// scripts ask at document_start); a provisional record nobody claimed is
// forgotten.
chrome.webNavigation.onCommitted.addListener(afterRestore((d) => {
  const r = recs.get(d.tabId);
  if (r) {
    // A new top document takes its frames with it.
    if (d.frameId === 0) r.frames.clear();
    r.frames.set(d.frameId, d.url);
  }
  if (d.frameId !== 0) return;
  if (r && r.recording) {
    r.fromLoad = true;
    r.bodiesFrom = 0;
    // The requests are this load's from here on, whatever a restart of
    // the worker lost before.
    delete r.requestsFrom;
  } else if (r && Date.now() - r.startedAt > PROVISIONAL_MS) recs.delete(d.tabId);
}));
// A top-level navigation of a recorded tab begins a new load: console
// answers the messages since the last one unless asked for all, where a
// navigation entry marks where each load begins. It carries the time
// the navigation started, and the load's messages are those from then
// on: webNavigation's event can come after webRequest's for the same
// load (a new tab's failed first document), whose line is the new
// load's. The entry is made once the navigation commits: one that never
// does (a download link, a 204, an aborted load) leaves the page as it
// was, and its messages the current load's.
const navStarts = new Map(); // tabId -> when its top-level navigation began
chrome.webNavigation.onBeforeNavigate.addListener(afterRestore((d) => {
  if (d.frameId !== 0) return;
  if (recs.has(d.tabId)) navStarts.set(d.tabId, Number.isFinite(d.timeStamp) ? Math.floor(d.timeStamp) : Date.now());
}));
chrome.webNavigation.onCommitted.addListener(afterRestore((d) => {
  if (d.frameId !== 0) return;
  const began = navStarts.get(d.tabId);
  navStarts.delete(d.tabId);
  const r = recs.get(d.tabId);
  if (r) addMessage(r, { level: "info", text: "", source: "navigation", url: capURL(d.url), time: began ?? (Number.isFinite(d.timeStamp) ? Math.floor(d.timeStamp) : Date.now()) });
}));
chrome.tabs.onRemoved.addListener(afterRestore((tabId) => navStarts.delete(tabId)));

// A document that changes its URL itself (history.pushState, a
// fragment) is judged by the URL it shows now.
const moved = afterRestore((d) => {
  const r = recs.get(d.tabId);
  if (r) r.frames.set(d.frameId, d.url);
});
chrome.webNavigation.onHistoryStateUpdated.addListener(moved);
chrome.webNavigation.onReferenceFragmentUpdated.addListener(moved);

// ---- The page's records, from page/record.js ----

const LEVELS = new Set(["error", "warning", "info", "log", "debug"]);
const SOURCES = new Set(["console", "exception", "rejection", "security"]);
const str = (v, n) => (typeof v === "string" ? v.slice(0, n) : "");
const int = (v) => (Number.isFinite(v) ? Math.max(0, Math.trunc(v)) : 0);

// fromPage files record x of the page at pageUrl, in the tab's frame
// frameId (the frame that sent it: 0 is the top document).
function fromPage(r, x, pageUrl, frameId) {
  if (!x || typeof x !== "object") return;
  if (denied(str(x.url, 4096))) {
    r.leftOut++;
    return;
  }
  if (x.source === "body") return attachBody(r, x);
  if (!SOURCES.has(x.source)) return;
  const stack = Array.isArray(x.stack) ? x.stack.slice(0, 5).map((f) => ({ function: str(f && f.function, 200), url: capURL(str(f && f.url, URL_MAX)), line: int(f && f.line), column: int(f && f.column) })) : [];
  const m = { level: LEVELS.has(x.level) ? x.level : "log", text: str(x.text, 2000), source: x.source, url: capURL(str(x.url, URL_MAX)),
    line: int(x.line), column: int(x.column), time: Number.isFinite(x.time) ? x.time : Date.now(), frameUrl: capURL(pageUrl) };
  if (stack.length) m.stack = stack;
  if (frameId > 0) m.frameId = frameId;
  addMessage(r, m);
}

// A request's entry starts when Chrome sees it leave, a moment after
// the page's call; the two clocks are the same wall clock, read in two
// processes.
const CALL_SLACK_MS = 20;

// attachBody gives the body the page read to its request: the first
// fetch/XHR request of that method and URL without a response body that
// began after the page's call (x.at). The page and webRequest share no
// ID; the newest such request, as this once took, was usually the next
// call's when a page made the same call again and again.
function attachBody(r, x) {
  const url = capURL(str(x.url, URL_MAX));
  const method = str(x.method, 16);
  const after = Number.isFinite(x.at) && x.at > 0 ? x.at - CALL_SLACK_MS : -Infinity;
  let match = null;
  for (const q of r.reqs.values()) {
    if ((q.type === "xhr" || q.type === "fetch") && q.url === url && q.method === method && !q.responseBody && q.time >= after) {
      match = q;
      break;
    }
  }
  if (!match) return;
  match.type = x.via === "fetch" ? "fetch" : "xhr";
  // The body the page sent, when webRequest's listener came too late for
  // it (a new tab's first requests): the page's own word for it, as the
  // response body is.
  const sent = str(x.sent, BODY_MAX);
  if (match.requestBody === undefined && sent !== "" && match.method !== "GET" && match.method !== "HEAD") match.requestBody = keepBody(r, sent);
  if (x.state === "over") match.responseBody = { notKept: "over_cap" };
  else if (x.state === "binary") match.responseBody = { notKept: "binary" };
  else match.responseBody = keepBody(r, str(x.body, BODY_MAX));
}

chrome.runtime.onMessage.addListener((req, sender, reply) => {
  const type = req && req.type;
  if (type !== "record.page" && type !== "record.batch" && type !== "record.main") return false;
  // Only this extension's content scripts, in a tab's frames.
  const tabId = sender.tab && sender.tab.id;
  if (sender.id !== chrome.runtime.id || !Number.isInteger(tabId) || !Number.isInteger(sender.frameId)) return false;
  // After a restart of the worker, a page's word waits for the stored
  // records to be back: it may be its tab's first since, and its tab's
  // record must be found (a recorded tab taken for the user's own would
  // stop recording).
  if (!restoredYet) {
    restored.then(() => fromPageMessage(type, tabId, req, sender, reply));
    return type === "record.page";
  }
  return fromPageMessage(type, tabId, req, sender, reply);
});

// fromPageMessage answers a message of the page's half of tabId; it says
// whether reply is called later.
function fromPageMessage(type, tabId, req, sender, reply) {
  if (type === "record.main") {
    // A recorded tab's document that came without the marker asks for
    // the page's half (page/record.js): from now on, not from its start.
    const r = recs.get(tabId);
    if (r && r.recording) {
      const target = typeof sender.documentId === "string" ? { tabId, documentIds: [sender.documentId] } : { tabId, frameIds: [sender.frameId] };
      chrome.scripting.executeScript({ target, files: ["page/record-main.js"], world: "MAIN", injectImmediately: true }).catch(() => {});
    }
    return false;
  }
  if (type === "record.page") {
    (async () => {
      const r = recs.get(tabId);
      if (r && r.recording) return true;
      if (await bridgeTab(tabId)) {
        start(tabId, true);
        return true;
      }
      // The user's own tab: its provisional record is not kept, nor
      // started again by its next request.
      if (r) recs.delete(tabId);
      created.delete(tabId);
      return false;
    })().then((record) => reply({ record }), () => reply({ record: false }));
    return true;
  }
  fromBatch(tabId, req, sender);
  return false;
}

// fromBatch files a batch of the page's records (record.batch) of tabId.
function fromBatch(tabId, req, sender) {
  const r = recs.get(tabId);
  if (r && r.recording && Array.isArray(req.records)) {
    // A tab recorded from a touch, not from its load: what the page's
    // half queued before the touch still comes when this worker's answer
    // to its record.page ("yes", once the touch started the record)
    // reaches the page before the touch's own injection does (seen under
    // load in CI). It is from before the recording, and left out.
    const since = r.fromLoad ? -Infinity : r.startedAt;
    const records = req.records.slice(0, 500).filter((x) => !(x && x.time < since));
    // A page the rules deny said it (the frame's, or the tab's top
    // frame's): none of it is kept.
    const pageUrl = typeof sender.url === "string" ? sender.url : "";
    if (pageOffLimits(r, pageUrl)) r.leftOut += records.length;
    else {
      for (const x of records) fromPage(r, x, pageUrl, sender.frameId);
      if (Number.isInteger(req.lost) && req.lost > 0) r.msgDropped += req.lost;
    }
    changed(r);
  }
}

// ---- Surviving a restart ----
// Chrome stops the worker when it is idle (and may at any time): the
// console record of each recorded tab is copied to chrome.storage.session
// (memory only, cleared with the browser, readable by the extension's own
// pages and worker only), at most every STORE_MS and only for the tabs
// whose record changed, and read back when the worker starts again. The
// copy is redacted before it is stored (handlers/redact.js, the twin of
// internal/redact): no secret a page logged sits in the store. Per tab it
// holds the newest messages up to STORE_TAB_MAX bytes, less when many
// tabs share STORE_MAX, measured as the store counts them: the redacted
// copy's JSON, in UTF-8 (a mark can be longer than what it hides). When
// the share shrinks (another tab is recorded) every stored copy larger
// than it is written again, smaller; a write the store refuses is tried
// again with half as much, so a full store costs a tab its oldest
// messages, not its whole copy. The messages left out are counted as
// dropped once restored. STORE_MAX leaves most of chrome.storage.session's
// 10 MB to the site rules (policy.js) and the stops (stops.js): what a
// page logs must never keep them from being stored. The
// requests are not copied (their headers and bodies are what the bounds
// above are for): after a restart network records from then on, and says
// so.

const STORE_KEY = "consoleRecord:";
// Every copy written is serialized whole by the store: a page that logs
// all the time has the worker rewrite its copy twice a second (a soak of
// 16 such tabs, at 512 KB a copy, kept the extension's process busy most
// of the time). So copies are kept small: 64 KB a tab, 1 MB in all.
const STORE_MS = 500;
const STORE_TAB_MAX = 64 * 1024;
// All tabs' copies together, well within chrome.storage.session's 10 MB:
// with many recorded tabs each keeps a smaller share.
const STORE_MAX = 1024 * 1024;
// The smallest share a refused write is tried again with.
const STORE_MIN = 4 * 1024;
// What a copy holds besides its messages, at most (its key and fields).
const STORE_HEAD = 256;
const dirty = new Set(); // tabIds whose record changed since the last store
const storedShare = new Map(); // tabId -> the share its stored copy was cut to
let storeTimer = null;
let storing = Promise.resolve();
let storeRefused = 0; // writes the store refused (its quota), for a test
// The redacted copy of each message and its size in the store, made once:
// messages do not change.
const copies = new WeakMap();
const utf8 = new TextEncoder();

// changed notes that r's record changed, to be stored soon.
function changed(r) {
  if (!r.recording) return;
  dirty.add(r.tabId);
  if (storeTimer === null) storeTimer = setTimeout(store, STORE_MS);
}

// copyOf is the stored copy of message m, redacted, with its size in the
// store (its JSON in UTF-8, and a comma).
function copyOf(m) {
  let e = copies.get(m);
  if (!e) {
    const { size, ...rest } = m;
    const c = { ...rest, text: loose(m.text), url: redactURL(m.url) };
    if (m.frameUrl) c.frameUrl = redactURL(m.frameUrl);
    if (m.stack) c.stack = m.stack.map((f) => ({ ...f, url: redactURL(f.url) }));
    e = stored(c);
    copies.set(m, e);
  }
  return e;
}

const stored = (c) => ({ c, bytes: utf8.encode(JSON.stringify(c)).length + 1 });

// snapshot is what is stored of r: its newest messages whose copies fit
// in max bytes.
function snapshot(r, max) {
  let bytes = STORE_HEAD;
  let from = r.msgs.length;
  const out = [];
  while (from > 0) {
    const e = copyOf(r.msgs[from - 1]);
    if (bytes + e.bytes > max) break;
    bytes += e.bytes;
    out.push(e.c);
    from--;
  }
  return { startedAt: r.startedAt, fromLoad: r.fromLoad, msgSeq: r.msgSeq, msgDropped: r.msgDropped + from, leftOut: r.leftOut,
    msgs: out.reverse() };
}

function store() {
  storeTimer = null;
  let recording = 0;
  for (const r of recs.values()) if (r.recording) recording++;
  const share = Math.min(STORE_TAB_MAX, Math.floor(STORE_MAX / Math.max(1, recording)));
  // A smaller share holds for the copies stored already too, changed or
  // not: together they stay within STORE_MAX.
  for (const [tabId, was] of storedShare) if (was > share) dirty.add(tabId);
  const tabs = [...dirty];
  dirty.clear();
  // In order: a later state must not be overwritten by an earlier write.
  // One write per tab: a tab the store's quota refuses keeps less, not
  // the others less.
  storing = storing.then(() => Promise.all(tabs.map((tabId) => {
    const r = recs.get(tabId);
    if (!r || !r.recording) {
      storedShare.delete(tabId);
      return chrome.storage.session.remove(STORE_KEY + tabId).catch(() => {});
    }
    return write(tabId, r, share);
  })));
}

// write stores r's copy within share bytes; when the store refuses it
// (its quota), with half as much, and so on: the newest messages are
// kept while any fit. Only a copy that cannot be written at all is
// removed (a stale one would come back after a restart).
async function write(tabId, r, share) {
  const key = STORE_KEY + tabId;
  for (let max = share; max >= STORE_MIN; max = Math.floor(max / 2)) {
    try {
      await chrome.storage.session.set({ [key]: snapshot(r, max) });
      storedShare.set(tabId, max);
      return;
    } catch (_) {
      storeRefused++;
    }
  }
  storedShare.delete(tabId);
  await chrome.storage.session.remove(key).catch(() => {});
}

function forgetStored(tabId) {
  dirty.delete(tabId);
  storedShare.delete(tabId);
  storing = storing.then(() => chrome.storage.session.remove(STORE_KEY + tabId)).catch(() => {});
}

// storeState is for the tests: the shares the stored copies were cut to,
// and the writes the store refused.
export function storeState() {
  return { shares: Object.fromEntries(storedShare), refused: storeRefused };
}

// restore puts the stored records of the tabs still open back. A record
// begun since this worker started (a touch, a read) keeps its messages
// after the stored ones: no read has answered before this ends (reads
// wait for it), so their numbers can still move. The browser's events
// and the pages' messages wait for it too (afterRestore).
let restoredYet = false;
async function restore() {
  let all = {};
  try {
    all = await chrome.storage.session.get(null);
  } catch (_) { /* nothing to restore */ }
  for (const [key, saved] of Object.entries(all || {})) {
    if (!key.startsWith(STORE_KEY) || !saved || !Array.isArray(saved.msgs)) continue;
    const tabId = Number(key.slice(STORE_KEY.length));
    try {
      await chrome.tabs.get(tabId);
    } catch (_) {
      chrome.storage.session.remove(key).catch(() => {});
      continue;
    }
    const live = recs.get(tabId);
    const r = newRecord(tabId, !!saved.fromLoad, true);
    r.startedAt = saved.startedAt;
    r.requestsFrom = Date.now();
    r.bodiesFrom = Date.now();
    r.msgDropped = saved.msgDropped;
    r.leftOut = saved.leftOut;
    r.msgSeq = saved.msgSeq;
    for (const m of saved.msgs) {
      if (!m || typeof m !== "object") continue;
      copies.set(m, stored({ ...m })); // redacted already
      m.size = msgSize(m);
      r.msgs.push(m);
      r.bytes += m.size;
    }
    // Cut to a share that may be larger than the next store's.
    storedShare.set(tabId, STORE_TAB_MAX);
    if (live) {
      for (const m of live.msgs) {
        m.seq += r.msgSeq;
        r.msgs.push(m);
        r.bytes += m.size;
      }
      r.msgSeq += live.msgSeq;
      r.msgDropped += live.msgDropped;
      r.leftOut += live.leftOut;
      r.reqs = live.reqs;
      r.reqSeq = live.reqSeq;
      r.reqDropped = live.reqDropped;
      r.bodyBytes = live.bodyBytes;
      r.frames = live.frames;
      r.injected = live.injected;
    }
    while (r.msgs.length > MSG_MAX) dropMessage(r);
    recs.set(tabId, r);
    created.delete(tabId);
    if (!live) {
      learnFrames(tabId, r);
      listenBodies(tabId);
    }
  }
  restoredYet = true;
  trim();
}
// Whatever happens, the events waiting for it are let go.
const restored = restore().catch((err) => console.error("browser-bridge: console records not restored:", err)).finally(() => {
  restoredYet = true;
});

// ---- Verbs ----

function info(r) {
  return { startedAt: r.startedAt, fromLoad: r.fromLoad };
}

// readable is the record of tabId for a read, started if need be; a tab
// that shows a page the rules deny is refused, as every other read of it
// is.
async function readable(tabId) {
  await restored;
  const tab = await chrome.tabs.get(tabId);
  const dec = decide(tab.url || tab.pendingUrl || "");
  if (!dec.allowed) throw new BridgeError(Codes.blockedByPolicy, `tab ${tabId} shows a page the bridge may not read: ${dec.why}`);
  return ensure(tabId);
}

// kept says whether an entry recorded under older rules is still
// allowed: the rules may have changed since it was recorded.
const kept = (e) => !denied(e.url) && !denied(e.frameUrl);

// consoleRead is record.console.
export async function consoleRead(msg) {
  const tabId = intArg(msg, "tabId");
  const r = await readable(tabId);
  const since = Number.isInteger(msg.since) ? msg.since : 0;
  const all = msg.all === true;
  // Since the tab's last top-level navigation began (none: all).
  let from = -Infinity;
  if (!all) {
    for (let i = r.msgs.length - 1; i >= 0; i--) {
      if (r.msgs[i].source === "navigation") {
        from = r.msgs[i].time;
        break;
      }
    }
  }
  let leftOut = r.leftOut;
  const messages = r.msgs.filter((m) => m.seq > since && (all || (m.source !== "navigation" && m.time >= from)) && (kept(m) || !++leftOut))
    .map(({ size, ...m }) => m);
  // In time order: a load's navigation entry before its lines.
  if (all) messages.sort((a, b) => a.time - b.time);
  return { ...info(r), dropped: r.msgDropped, leftOut, nextSince: r.msgSeq, messages };
}

// networkRead is record.network.
export async function networkRead(msg) {
  const tabId = intArg(msg, "tabId");
  const r = await readable(tabId);
  // After a restart of the worker its requests are recorded from then on.
  const out = r.requestsFrom === undefined ? { ...info(r), dropped: r.reqDropped, leftOut: r.leftOut, nextSince: r.reqSeq }
    : { startedAt: r.requestsFrom, fromLoad: false, restarted: true, dropped: r.reqDropped, leftOut: r.leftOut, nextSince: r.reqSeq };
  if (msg.requestId !== undefined && msg.requestId !== null && msg.requestId !== "") {
    if (typeof msg.requestId !== "string") throw new BridgeError(Codes.invalidArgument, "requestId must be a string from network's list");
    const q = r.reqs.get(msg.requestId);
    if (!q || !kept(q)) return { ...out, missing: true };
    if (msg.refetch === true) return { ...out, request: { ...detail(r, q), responseBody: await refetch(tabId, q) } };
    await bodyComing(r, q);
    return { ...out, request: detail(r, q) };
  }
  const since = Number.isInteger(msg.since) ? msg.since : 0;
  const requests = [];
  for (const q of r.reqs.values()) {
    if (q.seq <= since) continue;
    if (!kept(q)) {
      out.leftOut++;
      continue;
    }
    const { requestHeaders, responseHeaders, requestBody, responseBody, size, doneAt, ...summary } = q;
    requests.push(summary);
  }
  return { ...out, requests };
}

// A fetch or XHR response whose body the page is still reading, or
// whose body's record is on its way from the page's half (it sends in
// batches), is waited for: BODY_WAIT_MS from the detail's ask at most,
// and no longer than BODY_WAIT_MS after the request completed (a page
// that never reads a body leaves none to wait for).
const BODY_WAIT_MS = 2000;
async function bodyComing(r, q) {
  const asked = Date.now();
  const waiting = () => (q.type === "fetch" || q.type === "xhr") && q.status > 0 && !q.error && !q.responseBody && q.time >= r.bodiesFrom &&
    Date.now() - asked < BODY_WAIT_MS && (q.doneAt === undefined || Date.now() - q.doneAt < BODY_WAIT_MS) && r.reqs.get(q.requestId) === q;
  while (waiting()) await new Promise((ok) => setTimeout(ok, 20));
}

// detail is one request with its headers and bodies; a response body
// the recorder has not got says why.
function detail(r, q) {
  const { size, doneAt, ...rest } = q;
  const out = { ...rest, requestHeaders: q.requestHeaders || [], responseHeaders: q.responseHeaders || [] };
  if (!out.responseBody) {
    const text = /^(text\/|application\/(.*\+)?(json|xml|javascript|x-www-form-urlencoded|graphql))/i.test(q.mimeType);
    if (q.mimeType && !text) out.responseBody = { notKept: "binary" };
    else if ((q.type === "xhr" || q.type === "fetch") && q.time < r.bodiesFrom) out.responseBody = { notKept: "before_recording" };
    else if (q.status) out.responseBody = { notKept: "not_seen" };
  }
  return out;
}

// ---- A document the browser kept no copy of, fetched again ----
//
// Chrome keeps no copy of a document served Cache-Control: no-store (and
// at times of another), so network's detail of the tab's current one
// asks for it again (docs/cli.md, the network action): a GET of the same address from the
// page's top frame — its origin, its cookies, its service worker —
// through the extension's isolated world, where no page script sees or
// changes it. Redirects are not followed (the answer would be another
// page), the body has the same cap as a kept one, and the wait is
// bounded. What comes back is marked as fetched again, never passed off
// as what the page loaded.
const REFETCH_MS = 5000;
// tabId -> [{url, until}]: the fetches again to leave out of the record,
// one entry each (two reads of one tab may fetch at once).
const refetching = new Map();

// ours says whether webRequest's d is the bridge's fetch again of its
// tab's document, and leaves it out of the record once. It is told from
// the page's own by its address, frame, type and moment: a page's own
// XHR of its very address in the same instant would be taken for it.
function ours(d) {
  const list = refetching.get(d.tabId);
  if (!list || d.frameId !== 0 || d.type !== "xmlhttprequest" || d.method !== "GET") return false;
  const i = list.findIndex((f) => f.url === d.url && Date.now() <= f.until);
  if (i < 0) return false;
  unmarkRefetch(d.tabId, list[i]);
  return true;
}

// unmarkRefetch drops entry f of the tab's fetches again to leave out.
function unmarkRefetch(tabId, f) {
  const list = (refetching.get(tabId) || []).filter((x) => x !== f);
  if (list.length) refetching.set(tabId, list);
  else refetching.delete(tabId);
}

// refetch is the body of the tab's current document q fetched again, or
// why there is none.
async function refetch(tabId, q) {
  if (q.type !== "document" || q.method !== "GET" || q.frameUrl || q.url.endsWith(CUT)) return { notKept: "no_store" };
  // The deadline goes to the page as a time, not a span: a script held
  // up (a dialog, a busy page) that runs after it fetches nothing, so no
  // request goes out after the answer said it timed out.
  const deadline = Date.now() + REFETCH_MS;
  const entry = { url: q.url, until: deadline + 1000 };
  refetching.set(tabId, [...(refetching.get(tabId) || []).filter((f) => f.until >= Date.now()), entry]);
  let timer;
  const late = new Promise((ok) => { timer = setTimeout(() => ok({ timeout: true }), REFETCH_MS + 500); });
  let res;
  try {
    const ran = chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: fetchAgain, args: [q.url, BODY_MAX / 2, deadline] })
      .then(([first] = []) => (first && first.result) || { failed: true })
      .catch(() => ({ failed: true })); // a protected page, or the tab went away
    res = await Promise.race([ran, late]);
  } finally {
    clearTimeout(timer);
    // A fetch that went out was left out of the record as it was seen
    // (its request starts before its answer comes); one that did not
    // (the page moved, a failure) must not hide the page's own request
    // of its address later. Past the deadline, one may just have started:
    // its entry stays until it expires, a second later.
    if (!res || !res.timeout) unmarkRefetch(tabId, entry);
  }
  if (res.timeout) return { notKept: "refetch_timeout" };
  if (res.moved || res.failed) return { notKept: res.moved ? "no_store" : "refetch_failed" };
  if (res.redirected) return { notKept: "refetch_redirect" };
  if (res.status !== q.status) return { notKept: "refetch_status", status: res.status };
  if (res.binary) return { notKept: "binary" };
  if (res.over) return { notKept: "over_cap" };
  if (typeof res.text !== "string") return { notKept: "refetch_failed" };
  return { text: res.text, refetched: true };
}

// fetchAgain runs in the page's top frame (isolated world): it fetches
// url, the page's own address, as the page would — same origin, its
// cookies — reading at most maxChars of text within ms. It is
// self-contained: executeScript sends its source, not its closure.
async function fetchAgain(url, maxChars, deadline) {
  if (location.href.split("#")[0] !== url) return { moved: true };
  const ms = deadline - Date.now();
  if (ms <= 0) return { timeout: true };
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ms);
  try {
    const res = await fetch(url, { credentials: "include", cache: "no-store", redirect: "manual", signal: ctl.signal });
    if (res.type === "opaqueredirect") return { redirected: true };
    const type = res.headers.get("content-type") || "";
    if (type && !/^(text\/|application\/(.*\+)?(json|xml|javascript))/i.test(type)) {
      ctl.abort();
      return { status: res.status, binary: true };
    }
    let decoder;
    try {
      decoder = new TextDecoder((/charset=([^;]+)/i.exec(type) || [])[1]?.trim().replace(/"/g, "") || "utf-8");
    } catch (_) {
      decoder = new TextDecoder();
    }
    const reader = res.body.getReader();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > maxChars) {
        ctl.abort();
        return { status: res.status, over: true };
      }
    }
    return { status: res.status, text: text + decoder.decode() };
  } catch (_) {
    return ctl.signal.aborted ? { timeout: true } : { failed: true };
  } finally {
    clearTimeout(timer);
  }
}

// ensure starts recording a tab the bridge reads without having touched
// it through another verb.
async function ensure(tabId) {
  let r = recs.get(tabId);
  if (!r || !r.recording) r = start(tabId, (await bridgeTab(tabId)) && !!r);
  // The recorder is in the page before the answer says it records (a
  // message logged right after a first console call was missed).
  await r.injected;
  return r;
}
