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
import { BridgeError, Codes } from "../protocol.js";

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
});

// info is the shape of a download in results: Chrome's fields the daemon
// needs, with the tab that started it when known.
function info(d) {
  return {
    id: d.id,
    url: String(d.finalUrl || d.url || "").slice(0, 2000),
    referrer: String(d.referrer || "").slice(0, 2000),
    filename: d.filename || "",
    mime: d.mime || "",
    state: d.state || "",
    error: d.error || "",
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
  const limit = Number.isInteger(msg.limit) && msg.limit > 0 ? Math.min(msg.limit, 100) : 20;
  if (Array.isArray(msg.ids) && msg.ids.length) {
    if (!msg.ids.every(Number.isInteger)) throw new BridgeError(Codes.invalidArgument, "ids must be download IDs");
    const found = [];
    for (const id of msg.ids.slice(0, 100)) found.push(...(await chrome.downloads.search({ id })));
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
