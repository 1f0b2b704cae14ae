// Window primitives.
import { BridgeError, Codes } from "../protocol.js";
import { bridgeTab, decide } from "./policy.js";
import { WORKSPACE_PAGE, activateBeside, cancelled, info, intArg, isWorkspacePage, waitLoad } from "./tabinfo.js";
import { closedByBridge, ungroupFirst } from "./tabs.js";

// create opens a normal window, unfocused unless asked, so the user keeps
// working in their own window, and returns the tab of msg.url.
//
// A window that is not incognito opens with the workspace page first
// (ui/workspace.html): the window then outlives the agent's last page,
// so the next open reuses it and its group instead of making a new
// window (80 new windows a round in a load run), and the group
// outlives it too (groups.js), which is what keeps Chrome's saved tab
// groups clean: Chrome deletes a tab's saved entry when the tab leaves a
// group that keeps other tabs, but when a group's last tab leaves it
// deletes the group's entry and keeps the tab's, which points at nothing
// (checked in Chromium 156 for ungroup, remove, window close, a move to
// another group or window, with and without a title). An incognito window
// cannot show an extension page (the extension is not split) and its
// groups are never saved: it opens with msg.url alone.
export async function create(msg, ctx) {
  const incognito = !!msg.incognito;
  if (incognito && !(await chrome.extension.isAllowedIncognitoAccess())) {
    throw notAllowed();
  }
  const props = { type: "normal", focused: !!msg.focused, incognito };
  const url = typeof msg.url === "string" && msg.url ? msg.url : "";
  if (!incognito) props.url = [WORKSPACE_PAGE, url || "about:blank"];
  else if (url) props.url = url;
  if (Number.isInteger(msg.width)) props.width = msg.width;
  if (Number.isInteger(msg.height)) props.height = msg.height;
  const w = await chrome.windows.create(props);
  // Without "Allow in Incognito" Chrome resolves to nothing and the window
  // is invisible to the extension.
  if (!w || !w.tabs || !w.tabs.length) throw notAllowed();
  // The daemon gave up on the window while Chrome made it: nobody will
  // own it, so it goes (the daemon closes one whose answer reaches it
  // after it gave up, open.go create).
  if (ctx?.signal?.aborted) {
    await chrome.windows.remove(w.id).catch(() => {});
    throw cancelled();
  }
  let tab = w.tabs[w.tabs.length - 1];
  if (!incognito) {
    // The agent's page is the window's active tab, as a tab.create
    // {active} makes it: beside the load, as there.
    activateBeside(tab.id);
    tab = { ...tab, active: true };
  }
  // Without a wait, the tab as the window came with it (no further round
  // trip to Chrome).
  const t = msg.waitMs > 0 ? await waitLoad(tab.id, msg.waitMs, ctx?.signal) : info(tab);
  return { ...t, windowId: w.id, incognito: w.incognito };
}

export async function close(msg) {
  const windowId = intArg(msg, "windowId");
  // Its groups go with it, not into the user's saved groups (see
  // tabs.ungroupFirst). The daemon closes only windows that hold nothing
  // but the bridge's tabs. Chrome keeps the saved entry of the tab that
  // leaves a group last (see create): the workspace page's, which names
  // no site the agent visited, rather than a page's.
  const grouped = (await chrome.tabs.query({ windowId }).catch(() => [])).filter((t) => t.groupId >= 0);
  grouped.sort((a, b) => isWorkspacePage(a) - isWorkspacePage(b));
  await ungroupFirst(grouped.map((t) => t.id));
  await chrome.windows.remove(windowId);
  return { ok: true };
}

function notAllowed() {
  return new BridgeError(Codes.incognitoNotAllowed,
    "the extension may not open incognito windows: open chrome://extensions, Browser Bridge, Details, and turn on \"Allow in Incognito\" (or pass incognito: false)");
}

// regroup puts a workspace's tabs back into a group with its label, and
// a workspace page with them, when the user closed the workspace page
// but not its window: the page took them out of their group on its way
// out, as it must when the window closes (ui/workspace.js says why).
// The new group keeps the old one's place: the daemon's next open in
// the window joins the group of its workspace page (groups.js).
async function regroup(tabId, left, info) {
  if (info.isWindowClosing || closedByBridge.has(tabId)) return;
  await regroupWith(left, null);
}

// regroupWith groups the workspace's tabs that are still out of a group
// with page (a tab showing the workspace page), or with a new workspace
// page when page is null. A page in a group already (the daemon's next
// open took it along meanwhile, groups.js) keeps that group and its
// label, and the tabs join it.
async function regroupWith(left, page) {
  const tabs = await chrome.tabs.query({ windowId: left.windowId });
  const alive = tabs.filter((t) => left.tabIds.includes(t.id) && t.id !== page && t.groupId < 0).map((t) => t.id);
  const joined = tabs.find((t) => t.id === page && t.groupId >= 0);
  if (joined) {
    if (alive.length) await chrome.tabs.group({ tabIds: alive, groupId: joined.groupId });
    return;
  }
  if (!alive.length && page === null) return;
  const pageId = page ?? (await chrome.tabs.create({ windowId: left.windowId, url: WORKSPACE_PAGE, active: false, index: 0 })).id;
  const groupId = await chrome.tabs.group({ tabIds: [pageId, ...alive], createProperties: { windowId: left.windowId } });
  await chrome.tabGroups.update(groupId, { title: left.title, ...(left.color ? { color: left.color } : {}) });
}

// A window close the user cancels. Closing a window runs every tab's
// beforeunload, one tab after another, before any tab closes, in no
// fixed order (Chromium's UnloadController keeps the tabs in a set
// ordered by address); the workspace page's ungroups the workspace's
// tabs (ui/workspace.js), and when a later tab's "Leave site?" prompt
// makes the user stay, the window stays with its tabs out of their
// group (when the prompt comes first, the workspace page's never runs).
// Chrome tells an extension nothing of it: no tab or window event, and
// the prompt reaches the bridge's debugger only when it happens to be
// attached to that tab (the bridge detaches after 5 s idle, cdp.js);
// windows.remove answers before the prompt does. What can be seen is the
// prompt holding its page: a beforeunload prompt is a synchronous call
// from the page's renderer, so a script injected into that tab runs only
// once it is answered (checked in Chromium 156). So while the workspace
// page lives on after its word, watch polls the workspace's other tabs
// with a script that does nothing and reads nothing (top frames only):
// a poll that waits HELD_MS or more (a prompt open: a person answers it)
// and then, for STAYED_MS, polls that answer at once with the window
// still there mean the user stayed, and the tabs go back into their
// group, with the same workspace page. Not before: regrouping while a
// prompt is open would save the group (with an entry per page) if the
// user then leaves. It polls only the workspace's own pages, on sites
// the user's rules allow (a tab of the user's is not the bridge's to
// touch, even with a script that reads nothing); a window that holds any
// other tab may have a prompt there that cannot be seen, and its tabs
// stay ungrouped, as they do when no poll ever waits within WATCH_MS
// (no prompt to stay at, or one on a tab no extension may script), and
// when the watch has gone on for WATCH_MAX_MS (a page that keeps its
// thread busy for good).
const POLL_MS = 250;
const HELD_MS = 1000;
const STAYED_MS = 2000;
const WATCH_MS = 10_000;
const WATCH_MAX_MS = 10 * 60_000;
const watching = new Map(); // tabId -> the word watch is watching

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// watch watches the workspace page tabId after its word left; resumed
// (a restarted worker, below) it takes a prompt to have been seen.
async function watch(tabId, left, resumed = false) {
  watching.set(tabId, left);
  const mine = () => watching.get(tabId) === left;
  const started = Date.now();
  let held = resumed ? started : 0; // when the last poll that waited ended; 0 for none yet
  const out = new Set(); // tabs whose poll has not answered yet
  try {
    while (mine()) {
      const page = await chrome.tabs.get(tabId).catch(() => null);
      // Gone, or elsewhere: meet (below) hears of it.
      if (!page || !isWorkspacePage(page) || !mine()) return;
      const now = Date.now();
      if ((!held && now - started > WATCH_MS) || now - started > WATCH_MAX_MS) return;
      const others = (await chrome.tabs.query({ windowId: page.windowId })).filter((t) => t.id !== tabId);
      const polled = [];
      for (const t of others) {
        if (left.tabIds.includes(t.id) && (await bridgeTab(t.id)) && decide(t.url || t.pendingUrl || "").allowed) polled.push(t);
      }
      if (polled.length < others.length) return;
      if (held && now - held >= STAYED_MS) {
        watching.delete(tabId);
        await regroupWith({ ...left, windowId: page.windowId }, tabId);
        return;
      }
      const t0 = Date.now();
      // A page that never answers (a prompt left open, a thread busy for
      // good) does not hang the watch: past HELD_MS, it counts as held,
      // and it is not sent another poll while its last one is out.
      const polls = polled.filter((t) => !out.has(t.id)).map((t) => {
        out.add(t.id);
        return chrome.scripting.executeScript({ target: { tabId: t.id }, func: () => 0, injectImmediately: true })
          .catch(() => {}).finally(() => out.delete(t.id));
      });
      await Promise.race([Promise.all(polls), pause(HELD_MS + POLL_MS)]);
      if (Date.now() - t0 >= HELD_MS || out.size > 0) held = Date.now();
      await pause(POLL_MS);
    }
  } finally {
    if (mine()) watching.delete(tabId);
  }
}

// What a workspace page left on its way out (by tab), and the tabs just
// removed or whose top frame just committed a new document: Chrome tells
// these in either order, and the page's word needs one of the others.
// Only workspace pages leave word, so other tabs cost nothing here.
//
// The word stays in chrome.storage.session until it has been acted on
// (forget): a worker Chrome stops and starts again meanwhile (idle, or
// while a prompt holds the close for long) loses these maps and a watch
// in progress, and takes the word up again from there (resume).
const LEAVING = "workspaceLeaving:";
const leftWord = new Map();
const removed = new Map();
const committed = new Map();
// heard: tabId -> the time of the word from that tab this worker heard,
// so that a word is acted on once, whether its change or resume finds it.
const heard = new Map();

function hear(tabId, left) {
  if (heard.get(tabId) === left.at) return false;
  heard.set(tabId, left.at);
  return true;
}

// forget drops the word left, once acted on, unless a newer one came.
async function forget(tabId, left) {
  const key = LEAVING + tabId;
  const got = await chrome.storage.session.get(key).catch(() => ({}));
  if (got[key] && got[key].at === left.at) await chrome.storage.session.remove(key).catch(() => {});
}

function failed(err) {
  console.error("browser-bridge: workspace not regrouped:", err);
}

function meet(tabId) {
  const left = leftWord.get(tabId);
  const info = removed.get(tabId);
  // Only a commit after the page's word (its beforeunload) says the page
  // lived on; an earlier one is the page's own load.
  const c = committed.get(tabId);
  const url = c && left && c.at >= (left.at || 0) ? c.url : undefined;
  if (!left || (!info && url === undefined)) {
    // The other half comes within moments, or not at all (the page's
    // window closed, or a tab that is no workspace page).
    setTimeout(() => { leftWord.delete(tabId); removed.delete(tabId); committed.delete(tabId); }, 5_000);
    return;
  }
  leftWord.delete(tabId);
  removed.delete(tabId);
  committed.delete(tabId);
  watching.delete(tabId);
  const done = info
    ? regroup(tabId, left, info)
    // The page lived on: reloaded (it shows the workspace page again and
    // takes its tabs back) or sent elsewhere by the user (a new page
    // does). Its beforeunload had ungrouped them all the same.
    : regroupWith(left, url.startsWith(WORKSPACE_PAGE) ? tabId : null);
  done.then(() => forget(tabId, left), failed);
}

chrome.storage.session.onChanged.addListener((changes) => {
  for (const [key, change] of Object.entries(changes)) {
    if (!key.startsWith(LEAVING) || !change.newValue) continue;
    const tabId = Number(key.slice(LEAVING.length));
    const left = change.newValue;
    if (!hear(tabId, left)) continue;
    leftWord.set(tabId, left);
    meet(tabId);
    if (leftWord.get(tabId) === left) watch(tabId, left).then(() => forget(tabId, left), failed);
  }
});

// resume acts on a word an earlier worker heard and did not finish with:
// the page closed alone (its window is there), sent elsewhere, or still
// there (reloaded, or its window's close cancelled or held at a prompt:
// watch, which waits while a prompt holds a page). A word whose window
// closed is dropped.
async function resume(tabId, left) {
  const page = await chrome.tabs.get(tabId).catch(() => null);
  if (page && isWorkspacePage(page)) return watch(tabId, left, true);
  if (page || (await chrome.windows.get(left.windowId).catch(() => null))) await regroupWith(left, null);
}

// A word the storage change brought is heard within moments of the
// worker's start; one left by an earlier worker is resumed after that.
setTimeout(async () => {
  const all = await chrome.storage.session.get(null).catch(() => ({}));
  for (const [key, left] of Object.entries(all)) {
    const tabId = Number(key.slice(LEAVING.length));
    if (!key.startsWith(LEAVING) || !left || !hear(tabId, left)) continue;
    resume(tabId, left).then(() => forget(tabId, left), failed);
  }
}, 1000);

chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId !== 0) return;
  // Only a tab whose page left word, or may yet: a commit of any other
  // tab is forgotten with the rest after 5 s.
  committed.set(d.tabId, { url: d.url, at: d.timeStamp });
  meet(d.tabId);
});

chrome.tabs.onRemoved.addListener((tabId, info) => {
  heard.delete(tabId); // a closed tab leaves no more word
  if (info.isWindowClosing) return;
  removed.set(tabId, info);
  meet(tabId);
});
