// Window primitives.
import { BridgeError, Codes } from "../protocol.js";
import { WORKSPACE_PAGE, activateBeside, info, intArg, isWorkspacePage, waitLoad } from "./tabinfo.js";
import { closedByBridge, ungroupFirst } from "./tabs.js";

// create opens a normal window, unfocused unless asked, so the user keeps
// working in their own window, and returns the tab of msg.url.
//
// A window that is not incognito opens with the workspace page first
// (ui/workspace.html): the window then outlives the agent's last page,
// so the next open reuses it and its group instead of making a new
// window (issue 27: 80 new windows a round in a load run), and the group
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
// page when page is null.
async function regroupWith(left, page) {
  const alive = (await chrome.tabs.query({ windowId: left.windowId }))
    .filter((t) => left.tabIds.includes(t.id) && t.id !== page && t.groupId < 0)
    .map((t) => t.id);
  if (!alive.length && page === null) return;
  const pageId = page ?? (await chrome.tabs.create({ windowId: left.windowId, url: WORKSPACE_PAGE, active: false, index: 0 })).id;
  const groupId = await chrome.tabs.group({ tabIds: [pageId, ...alive], createProperties: { windowId: left.windowId } });
  await chrome.tabGroups.update(groupId, { title: left.title, ...(left.color ? { color: left.color } : {}) });
}

// What a workspace page left on its way out (by tab), and the tabs just
// removed or whose top frame just committed a new document: Chrome tells
// these in either order, and the page's word needs one of the others.
// Only workspace pages leave word, so other tabs cost nothing here.
const LEAVING = "workspaceLeaving:";
const leftWord = new Map();
const removed = new Map();
const committed = new Map();

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
  const done = info
    ? regroup(tabId, left, info)
    // The page lived on: reloaded (it shows the workspace page again and
    // takes its tabs back) or sent elsewhere by the user (a new page
    // does). Its beforeunload had ungrouped them all the same.
    : regroupWith(left, url.startsWith(WORKSPACE_PAGE) ? tabId : null);
  done.catch((err) => console.error("browser-bridge: workspace not regrouped:", err));
}

chrome.storage.session.onChanged.addListener((changes) => {
  for (const [key, change] of Object.entries(changes)) {
    if (!key.startsWith(LEAVING) || !change.newValue) continue;
    chrome.storage.session.remove(key).catch(() => {});
    const tabId = Number(key.slice(LEAVING.length));
    leftWord.set(tabId, change.newValue);
    meet(tabId);
  }
});

chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId !== 0) return;
  // Only a tab whose page left word, or may yet: a commit of any other
  // tab is forgotten with the rest after 5 s.
  committed.set(d.tabId, { url: d.url, at: d.timeStamp });
  meet(d.tabId);
});

chrome.tabs.onRemoved.addListener((tabId, info) => {
  if (info.isWindowClosing) return;
  removed.set(tabId, info);
  meet(tabId);
});
