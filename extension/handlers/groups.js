// Tab groups: the bridge's own tab.group and Hive's context.create/destroy
// (one labelled group per agent).
import { BridgeError, Codes } from "../protocol.js";
import { intArg, isWorkspacePage } from "./tabinfo.js";

const COLORS = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"];

// group adds tabs to groupId, or to a new group in windowId, and labels it.
// The arguments are checked before anything changes: a bad color must not
// leave the tabs grouped without their label. A new group in a window
// takes the window's workspace page along, when it is in no group: the
// group then outlives the agent's pages, so closing them leaves nothing
// in Chrome's saved tab groups (windows.js's create says why); when the
// page is in a group already, that is the workspace's, and the tabs join
// it, its label left as it is.
export async function group(msg) {
  const tabIds = Array.isArray(msg.tabIds) ? msg.tabIds : [intArg(msg, "tabId")];
  const update = {};
  if (typeof msg.title === "string") update.title = msg.title;
  if (msg.color !== undefined) {
    if (!COLORS.includes(msg.color)) throw new BridgeError(Codes.invalidArgument, `color must be one of ${COLORS.join(", ")}`);
    update.color = msg.color;
  }
  const opts = { tabIds };
  let label = true;
  if (Number.isInteger(msg.groupId) && msg.groupId >= 0) opts.groupId = msg.groupId;
  else if (Number.isInteger(msg.windowId)) {
    // A grouped workspace page first: a second one (restored by the user,
    // or left by a regroup that failed) is in no group.
    const pages = (await chrome.tabs.query({ windowId: msg.windowId })).filter(isWorkspacePage);
    const page = pages.find((t) => t.groupId >= 0) || pages[0];
    if (page && page.groupId >= 0) {
      opts.groupId = page.groupId;
      label = false; // the workspace's group: its label stays as the user may have renamed it
    } else {
      opts.createProperties = { windowId: msg.windowId };
      if (page && !tabIds.includes(page.id)) opts.tabIds = [page.id, ...tabIds];
    }
  }
  const groupId = await chrome.tabs.group(opts);
  if (label && Object.keys(update).length) await chrome.tabGroups.update(groupId, update);
  return { groupId };
}

export async function contextCreate(msg) {
  const agentId = String(msg.agentId ?? "agent");
  const tab = await chrome.tabs.create({ active: false });
  const groupId = await chrome.tabs.group({ tabIds: [tab.id] });
  let h = 0;
  for (const c of agentId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  await chrome.tabGroups.update(groupId, { title: agentId, color: COLORS[h % COLORS.length] });
  return { groupId, tabId: tab.id };
}

export async function contextDestroy(msg) {
  const groupId = intArg(msg, "groupId");
  const tabs = await chrome.tabs.query({ groupId });
  if (tabs.length) await chrome.tabs.remove(tabs.map((t) => t.id));
  return { ok: true, closedTabs: tabs.length };
}
