// chrome.downloads: what the bridge's actions download (a click on a link
// to a file, a page that saves a blob). Chrome decides where a download
// goes (the user's download folder, or a prompt if the user asked for
// one); the daemon moves the finished files the bridge caught into its own
// folder. This side only reports and, when asked, cancels.
//
// A download item does not say which tab started it. A download that
// began as a navigation (a link to a file served as an attachment) is
// named by the webNavigation event of that navigation, which carries the
// tab; for one a page started itself (an <a download> of a blob) the
// daemon matches the item's referrer and URL to the tab it acted on.
// MV3 may stop the worker between events: what is kept here lasts only as
// long as the worker, and the daemon asks within seconds of the action.
//
// The size cap is held here, not only by the daemon: a
// download may outlast the action that started it (a server that stalls,
// then streams), and the daemon looks at downloads only while an action
// waits on them. So every bridge download is watched to its end (see
// "The cap" below).
import { BridgeError, Codes } from "../protocol.js";
import { bridgeTab } from "./policy.js";

const NAV_KEEP_MS = 60000;
const recentNavs = []; // {url, tabId, at}: top and frame navigations
const tabOf = new Map(); // download id -> tabId
const waiters = new Set(); // callbacks for onCreated

chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  const now = Date.now();
  recentNavs.push({ url: d.url, tabId: d.tabId, at: now });
  while (recentNavs.length && (recentNavs.length > 300 || now - recentNavs[0].at > NAV_KEEP_MS)) recentNavs.shift();
});

chrome.downloads.onCreated.addListener((item) => {
  for (let i = recentNavs.length - 1; i >= 0; i--) {
    const n = recentNavs[i];
    if (n.url === item.url || n.url === item.finalUrl) {
      tabOf.set(item.id, n.tabId);
      break;
    }
  }
  if (tabOf.size > 500) tabOf.delete(tabOf.keys().next().value);
  for (const cb of waiters) cb(item);
  const deciding = consider(item);
  pending.set(item.id, deciding);
  deciding.finally(() => pending.delete(item.id));
});

// info is the shape of a download in results: Chrome's fields the daemon
// needs, with the tab that started it when known.
// A download the extension stopped at the cap is reported as
// interrupted, with the reason, whatever Chrome's state (a removed file's
// download stays "complete" there).
function info(d) {
  const stop = stopped.get(d.id);
  return {
    id: d.id,
    url: String(d.finalUrl || d.url || "").slice(0, 2000),
    referrer: String(d.referrer || "").slice(0, 2000),
    filename: d.filename || "",
    mime: d.mime || "",
    state: stop ? "interrupted" : d.state || "",
    error: stop ? stopReason(stop) : d.error || "",
    danger: d.danger || "",
    bytesReceived: d.bytesReceived || 0,
    totalBytes: d.totalBytes || 0,
    fileSize: d.fileSize || 0,
    exists: !!d.exists,
    incognito: !!d.incognito,
    startTime: d.startTime || "",
    ...(tabOf.has(d.id) ? { tabId: tabOf.get(d.id) } : {}),
  };
}

// list answers the downloads with ids, or those started at or after since
// (ms since the epoch), newest first, at most limit. With waitMs, when
// none has started since then, it waits that long for one to start.
export async function list(msg, ctx) {
  if (Number.isInteger(msg.actedOnTabId)) {
    const now = Date.now();
    for (const [tabId, until] of actedOn) if (until < now) actedOn.delete(tabId);
    actedOn.set(msg.actedOnTabId, now + ACTED_ON_MS);
  }
  const limit = Number.isInteger(msg.limit) && msg.limit > 0 ? Math.min(msg.limit, 100) : 20;
  if (Array.isArray(msg.ids) && msg.ids.length) {
    if (!msg.ids.every(Number.isInteger)) throw new BridgeError(Codes.invalidArgument, "ids must be download IDs");
    const found = [];
    for (const id of msg.ids.slice(0, 100)) found.push(...(await chrome.downloads.search({ id })));
    // The daemon asks by ID only for downloads it caught as the bridge's
    // (a click in a user's tab among them): they are held to the cap too.
    for (const item of found) await adopt(item);
    return { downloads: found.map(info) };
  }
  const since = Number.isFinite(msg.since) ? msg.since : 0;
  const query = { orderBy: ["-startTime"], limit };
  // startedAfter is exclusive: ask from a millisecond before.
  if (since > 0) query.startedAfter = new Date(since - 1).toISOString();
  let items = await chrome.downloads.search(query);
  const waitMs = Number.isInteger(msg.waitMs) ? Math.min(Math.max(msg.waitMs, 0), 10000) : 0;
  if (!items.length && waitMs > 0) {
    await new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(cb);
        ctx?.signal?.removeEventListener("abort", done);
        resolve();
      };
      const cb = (item) => {
        if (Date.parse(item.startTime) >= since - 1) done();
      };
      const timer = setTimeout(done, waitMs);
      waiters.add(cb);
      ctx?.signal?.addEventListener("abort", done);
    });
    items = await chrome.downloads.search(query);
  }
  return { downloads: items.map(info) };
}

// cancel stops a download in progress (one over the bridge's size cap).
export async function cancel(msg) {
  // Not "id": a command's own id is its message's.
  const id = msg.downloadId;
  if (!Number.isInteger(id)) throw new BridgeError(Codes.invalidArgument, "downloadId must be a download ID");
  await chrome.downloads.cancel(id);
  return { ok: true };
}

// ---- The cap ----
//
// A bridge download is one that began in a bridge tab (policy.js's tabs),
// or in a tab an action acted on within ACTED_ON_MS before (a user's tab:
// downloads.list's actedOnTabId) — by a navigation of that tab, or as a
// page's own download whose referrer is that tab's page — or one the
// daemon caught and asked about by ID. Each
// is held to the cap until it ends: one still arriving past the cap is
// cancelled (Chrome deletes its partial file); one that arrived whole
// past it before a look could stop it (a burst on a fast link) has its
// file removed. Either is then reported interrupted, with the cap as the
// reason. The user's own downloads are never touched.
//
// chrome.downloads.onChanged does not fire as bytes arrive (only for the
// state, a size known in advance, the file name…), so a download in
// progress is also looked at every POLL_MS until it ends.
//
// The cap is the daemon's (downloads.limit: the settings' downloadMaxBytes,
// sent after each hello and on every change); until it comes, the
// settings' default. What is watched and stopped is kept in
// chrome.storage.session: a restarted worker goes on watching.

const DEFAULT_MAX_BYTES = 512 * 1024 * 1024; // internal/settings DefaultDownloadMaxBytes
const POLL_MS = 100;
const KEEP_STOPPED = 500;
const STORE = "downloadCap";

let maxBytes = DEFAULT_MAX_BYTES;
const watched = new Set(); // ids of bridge downloads not yet ended
const stopped = new Map(); // id -> {how: "cancelled" | "removed", cap}
const pending = new Map(); // id -> the promise of consider(), while it runs
let ticker = null;
// actedOn: tabId -> until when what it starts is the bridge's (the
// daemon's window after an action: downloadLate in internal/actions).
const ACTED_ON_MS = 10_000;
const actedOn = new Map();

// ours says whether a download tabId started is the bridge's.
async function ours(tabId) {
  const until = actedOn.get(tabId);
  if (until !== undefined && Date.now() > until) actedOn.delete(tabId);
  return (until !== undefined && Date.now() <= until) || bridgeTab(tabId);
}

const ready = chrome.storage.session.get(STORE).then((got) => {
  const s = got[STORE];
  if (!s) return;
  if (Number.isSafeInteger(s.maxBytes) && s.maxBytes > 0) maxBytes = s.maxBytes;
  for (const id of s.watched || []) watched.add(id);
  for (const [id, stop] of s.stopped || []) if (!stopped.has(id)) stopped.set(id, stop);
  tick();
}).catch((err) => console.error("browser-bridge: download watch not restored:", err));

function save() {
  return chrome.storage.session.set({ [STORE]: { maxBytes, watched: [...watched], stopped: [...stopped] } }).catch(() => {});
}

// limit is downloads.limit: the daemon's cap on one download. A lower cap
// applies at once to the downloads still arriving.
export async function limit(msg) {
  if (!Number.isSafeInteger(msg.maxBytes) || msg.maxBytes <= 0) throw new BridgeError(Codes.invalidArgument, "maxBytes must be a positive number of bytes");
  await ready;
  maxBytes = msg.maxBytes;
  await save();
  await lookAtWatched();
  return { ok: true };
}

function stopReason(stop) {
  const why = `larger than the bridge's cap of ${stop.cap} bytes (downloadMaxBytes in the settings)`;
  return stop.how === "removed" ? `removed: ${why}; it arrived whole before it could be cancelled` : `cancelled: ${why}`;
}

// consider watches item when it is a bridge download.
async function consider(item) {
  await ready;
  const tabId = tabOf.get(item.id);
  let mine = Number.isInteger(tabId) && (await ours(tabId));
  if (!mine && !Number.isInteger(tabId) && item.referrer) {
    for (const tab of await chrome.tabs.query({})) {
      if (tab.url === item.referrer && (await ours(tab.id))) {
        mine = true;
        break;
      }
    }
  }
  if (mine) await adopt(item);
}

// adopt watches a bridge download (unless it was stopped already) and
// looks at it at once.
async function adopt(item) {
  await ready;
  if (stopped.has(item.id)) return;
  if (!watched.has(item.id)) {
    watched.add(item.id);
    save();
  }
  await hold(item);
  tick();
}

// hold stops a watched download past the cap, and stops watching it once
// it has ended.
async function hold(item) {
  if (!watched.has(item.id)) return;
  const size = Math.max(item.bytesReceived || 0, item.totalBytes || 0, item.fileSize || 0);
  if (item.state === "in_progress" && size <= maxBytes) return;
  watched.delete(item.id);
  if (size > maxBytes && item.state !== "interrupted") {
    const stop = { how: "cancelled", cap: maxBytes };
    stopped.set(item.id, stop);
    if (stopped.size > KEEP_STOPPED) stopped.delete(stopped.keys().next().value);
    if (item.state === "in_progress") await chrome.downloads.cancel(item.id).catch(() => {});
    // Complete already, or completed while being cancelled: the file goes.
    const [now] = await chrome.downloads.search({ id: item.id }).catch(() => []);
    if (now && now.state === "complete") {
      stop.how = "removed";
      await chrome.downloads.removeFile(item.id).catch((err) => console.error("browser-bridge: a download past the cap not removed:", err));
    }
  }
  save();
}

// lookAtWatched brings every watched download up to date.
async function lookAtWatched() {
  const ids = [...watched];
  const found = await Promise.all(ids.map((id) => chrome.downloads.search({ id }).catch(() => [])));
  for (let i = 0; i < ids.length; i++) {
    if (found[i].length) await hold(found[i][0]);
    else if (watched.delete(ids[i])) save(); // erased from the browser's list
  }
}

// tick looks at the watched downloads every POLL_MS while there are any,
// one look at a time.
let looking = false;
function tick() {
  if (ticker || watched.size === 0) return;
  ticker = setInterval(() => {
    if (watched.size === 0) {
      clearInterval(ticker);
      ticker = null;
      return;
    }
    if (looking) return;
    looking = true;
    lookAtWatched().catch(() => {}).finally(() => { looking = false; });
  }, POLL_MS);
}

// A change of state or of a size known in advance is looked at at once,
// once the download's first look (consider) is over.
chrome.downloads.onChanged.addListener(async (delta) => {
  if (!delta.state && !delta.totalBytes && !delta.fileSize) return;
  await pending.get(delta.id);
  await ready;
  if (!watched.has(delta.id)) return;
  const [item] = await chrome.downloads.search({ id: delta.id }).catch(() => []);
  if (item) await hold(item);
});
