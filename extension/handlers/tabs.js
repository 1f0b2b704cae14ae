// Tab primitives. Hive's tab.create/close/list/activate keep their result
// shapes; extra fields are a superset.
import { activateBeside, cancelled, info, intArg, waitLoad } from "./tabinfo.js";

// create opens a tab (in the background unless active is true), optionally
// in a window or tab group, and waits for its load when waitMs is given.
export async function create(msg, ctx) {
  // tabs.create({active: true}) also focuses the tab's window, taking the
  // user's focus; create it in the background, then make it the active
  // tab of its own window only.
  const props = { active: false };
  if (typeof msg.url === "string" && msg.url) props.url = msg.url;
  if (Number.isInteger(msg.windowId)) props.windowId = msg.windowId;
  if (Number.isInteger(msg.groupId) && msg.groupId >= 0 && props.windowId === undefined) {
    props.windowId = (await chrome.tabGroups.get(msg.groupId)).windowId;
  }
  let tab = await chrome.tabs.create(props);
  // As windows.create: a tab the daemon gave up on goes.
  if (ctx?.signal?.aborted) {
    await chrome.tabs.remove(tab.id).catch(() => {});
    throw cancelled();
  }
  if (msg.active) {
    // Making the tab active costs a trip to Chrome's UI thread (~20 ms)
    // that the load need not wait for: it goes on beside the load, and
    // the wait for the load (this call's or the next tab.waitLoad) ends
    // only once it is done, so a command after the open finds the tab
    // active.
    activateBeside(tab.id);
    tab = { ...tab, active: true };
  }
  if (Number.isInteger(msg.groupId) && msg.groupId >= 0) {
    await chrome.tabs.group({ tabIds: [tab.id], groupId: msg.groupId });
    tab = { ...tab, groupId: msg.groupId };
  }
  if (msg.waitMs > 0) return waitLoad(tab.id, msg.waitMs, ctx?.signal);
  // The tab as create/update gave it: asking Chrome again costs a round
  // trip to its UI thread on the path of every open.
  return info(tab);
}

export async function close(msg) {
  const ids = Array.isArray(msg.tabIds) ? msg.tabIds : [intArg(msg, "tabId")];
  closing(ids);
  await ungroupFirst(ids);
  await chrome.tabs.remove(ids);
  return { ok: true };
}

// ungroupFirst takes the tabs the bridge is about to close out of their
// groups. Chrome saves every named group (Saved Tab Groups) and keeps a
// saved group when its last tab or its window closes, so every workspace
// window the bridge emptied stayed in the user's saved groups, and
// synced with them: one more per open after a close, and a pile that
// slows Chrome down. A group its tabs leave by ungrouping is deleted
// instead. (The program door keeps Hive's way: its programs reuse saved
// groups, recycleGroupId.)
export async function ungroupFirst(tabIds) {
  if (tabIds.length) await chrome.tabs.ungroup(tabIds).catch(() => {});
}

// closedByBridge holds the tabs the bridge is closing, for a moment: a
// workspace page among them is not put back (windows.js regroup).
export const closedByBridge = new Set();

function closing(ids) {
  for (const id of ids) closedByBridge.add(id);
  setTimeout(() => ids.forEach((id) => closedByBridge.delete(id)), 10_000);
}

export async function list(msg) {
  const query = Number.isInteger(msg.groupId) ? { groupId: msg.groupId } : {};
  return { tabs: (await chrome.tabs.query(query)).map(info) };
}

// activate makes the tab the active one of its window without focusing the
// window: the user keeps working where they are.
export async function activate(msg) {
  await chrome.tabs.update(intArg(msg, "tabId"), { active: true });
  return { ok: true };
}

export async function get(msg) {
  return info(await chrome.tabs.get(intArg(msg, "tabId")));
}

export async function navigate(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  await chrome.tabs.update(tabId, { url: msg.url });
  if (msg.waitMs > 0) return waitLoad(tabId, msg.waitMs, ctx?.signal);
  return info(await chrome.tabs.get(tabId));
}

// waitForLoad waits up to waitMs for the tab to finish loading; the result
// says loaded: false when it had not.
export async function waitForLoad(msg, ctx) {
  return waitLoad(intArg(msg, "tabId"), msg.waitMs, ctx?.signal);
}

// frames lists the tab's frames (frameId, parentFrameId, url), for
// translating points between frames.
export async function frames(msg) {
  const list = await chrome.webNavigation.getAllFrames({ tabId: intArg(msg, "tabId") });
  return {
    frames: (list || []).map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url, errorOccurred: !!f.errorOccurred })),
  };
}

// opened lists the tabs that the page of tabId opened (links to _blank,
// window.open) and that are still open.
export async function opened(msg) {
  const tabId = intArg(msg, "tabId");
  return { tabs: (await chrome.tabs.query({})).filter((t) => t.openerTabId === tabId).map(info) };
}
