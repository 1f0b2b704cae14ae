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
  const alive = (await chrome.tabs.query({ windowId: left.windowId }))
    .filter((t) => left.tabIds.includes(t.id) && t.groupId < 0)
    .map((t) => t.id);
  if (!alive.length) return;
  const page = await chrome.tabs.create({ windowId: left.windowId, url: WORKSPACE_PAGE, active: false, index: 0 });
  const groupId = await chrome.tabs.group({ tabIds: [page.id, ...alive], createProperties: { windowId: left.windowId } });
  await chrome.tabGroups.update(groupId, { title: left.title, ...(left.color ? { color: left.color } : {}) });
}

// What a workspace page left on its way out (by tab), and the tabs just
// removed: Chrome tells the two in either order, and regroup needs both.
// Only workspace pages leave word, so other tabs cost nothing here.
const LEAVING = "workspaceLeaving:";
const leftWord = new Map();
const removed = new Map();

function meet(tabId) {
  const left = leftWord.get(tabId);
  const info = removed.get(tabId);
  if (!left || !info) {
    // The other half comes within moments, or not at all (the page's
    // window closed, or a tab that is no workspace page).
    setTimeout(() => { leftWord.delete(tabId); removed.delete(tabId); }, 5_000);
    return;
  }
  leftWord.delete(tabId);
  removed.delete(tabId);
  regroup(tabId, left, info).catch((err) => console.error("browser-bridge: workspace not regrouped:", err));
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

chrome.tabs.onRemoved.addListener((tabId, info) => {
  if (info.isWindowClosing) return;
  removed.set(tabId, info);
  meet(tabId);
});
