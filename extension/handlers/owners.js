// Owners: what each program created through the program door, and the
// events it is told of.
//
// An owner is a program as the extension can tell it apart: the WebSocket
// server at one URL ("websocket <url>"), or the daemon's local programs
// ("daemon", through program.call). The program door works only on an
// owner's own tabs: the ones it created (and the tabs their pages opened),
// and the tabs in the tab groups it created. The user's own tabs are
// never attached, closed or activated through it.
//
// The records are kept in chrome.storage.session: they outlive a restart
// of the service worker (MV3 stops an idle worker, and Hive's server keeps
// using its tabs across the reconnect) but not of the browser, whose tab
// IDs start over.
//
// Events go to an owner's sink while it has one (the WebSocket session
// sets it): tab changes of its tabs and groups as {type: "tab_event"} and
// {type: "tab_group_event"}, and the CDP events of FORWARDED of the tabs
// it attached (events() below) as {type: "cdp_event"}.

const KEY = "programOwners";

// owners: key -> {tabs: Set, groups: Set, sink: fn | null, events: Set of
// attached tabIds whose CDP events it gets}. Only tabs and groups persist.
const owners = new Map();
let saving = Promise.resolve();

const loaded = chrome.storage.session.get(KEY).then((got) => {
  for (const [key, rec] of Object.entries(got[KEY] || {})) {
    const o = record(key);
    for (const t of rec.tabs || []) o.tabs.add(t);
    for (const g of rec.groups || []) o.groups.add(g);
  }
}).catch((err) => console.error("browser-bridge: owners not restored:", err));

function record(key) {
  let o = owners.get(key);
  if (!o) {
    o = { tabs: new Set(), groups: new Set(), sink: null, events: new Set() };
    owners.set(key, o);
  }
  return o;
}

function save() {
  const out = {};
  for (const [key, o] of owners) {
    if (o.tabs.size || o.groups.size) out[key] = { tabs: [...o.tabs], groups: [...o.groups] };
  }
  // In order: a later state must not be overwritten by an earlier write.
  saving = saving.then(() => chrome.storage.session.set({ [KEY]: out })).catch(() => {});
  return saving;
}

// get returns the owner's record once the stored ones are read.
export async function get(key) {
  await loaded;
  return record(key);
}

export async function addTab(key, tabId) {
  (await get(key)).tabs.add(tabId);
  await save();
}

export async function addGroup(key, groupId) {
  (await get(key)).groups.add(groupId);
  await save();
}

// ownsTab says whether the tab is the owner's: one it created, or one in
// a group it created. It needs the tab (chrome.tabs.get) only for the
// second case, and rejects like it when the tab is gone.
export async function ownsTab(key, tabId, tab) {
  const o = await get(key);
  if (o.tabs.has(tabId)) return true;
  const t = tab || await chrome.tabs.get(tabId);
  return t.groupId >= 0 && o.groups.has(t.groupId);
}

export async function ownsGroup(key, groupId) {
  return (await get(key)).groups.has(groupId);
}

// setSink gives the owner its event channel (null takes it away). A sink
// is only taken away by the one it replaced: a new connection may have
// come first.
export async function setSink(key, sink, previous) {
  const o = await get(key);
  if (sink === null && previous !== undefined && o.sink !== previous) return;
  o.sink = sink;
  if (!sink) o.events.clear();
}

// events turns the CDP events of the tab on (or off) for the owner.
export async function events(key, tabId, on) {
  const o = await get(key);
  if (on) o.events.add(tabId);
  else o.events.delete(tabId);
}

function emit(o, msg) {
  try {
    o.sink?.(msg);
  } catch (_) { /* the sink's link is gone; its transport cleans up */ }
}

// FORWARDED: the CDP events Hive's server reads (its console canary after
// attaching, load waits, dialogs). Filtered here to keep the wire slim.
const FORWARDED = new Set([
  "Runtime.consoleAPICalled",
  "Page.lifecycleEvent",
  "Page.frameNavigated",
  "Page.frameResized",
  "Page.javascriptDialogOpening",
  "Page.javascriptDialogClosed",
]);

chrome.debugger.onEvent.addListener((source, method, params) => {
  // Child sessions (a frame's own target) are upload's business.
  if (source.sessionId || !FORWARDED.has(method)) return;
  for (const o of owners.values()) {
    if (o.sink && o.events.has(source.tabId)) {
      emit(o, { type: "cdp_event", tabId: source.tabId, method, params: params ?? {} });
    }
  }
});

chrome.debugger.onDetach.addListener((source) => {
  for (const o of owners.values()) o.events.delete(source.tabId);
});

// The tab events. Each handler waits for the stored records: after a
// restart of the worker, the event that woke it must not be missed.
function tabEvent(event, tabId, groupId, extra) {
  return { type: "tab_event", event, tabId, groupId: groupId ?? -1, ...extra };
}

chrome.tabs.onCreated.addListener(async (tab) => {
  await loaded;
  for (const o of owners.values()) {
    // A tab the page of an owner's tab opened (a link to _blank,
    // window.open) is the owner's too: the program's page made it.
    const mine = o.tabs.has(tab.openerTabId) || (tab.groupId >= 0 && o.groups.has(tab.groupId));
    if (!mine) continue;
    if (!o.tabs.has(tab.id)) {
      o.tabs.add(tab.id);
      save();
    }
    emit(o, tabEvent("created", tab.id, tab.groupId, {
      openerTabId: tab.openerTabId ?? null,
      windowId: tab.windowId,
      url: tab.pendingUrl || tab.url || "",
      active: !!tab.active,
    }));
  }
});

chrome.tabs.onUpdated.addListener(async (tabId, change, tab) => {
  // Only group changes: onUpdated also fires for every load and title.
  if (change.groupId === undefined) return;
  await loaded;
  for (const o of owners.values()) {
    if (o.tabs.has(tabId) || (change.groupId >= 0 && o.groups.has(change.groupId))) {
      emit(o, tabEvent("grouped", tabId, change.groupId, { windowId: tab.windowId, active: !!tab.active }));
    }
  }
});

chrome.tabs.onActivated.addListener(async ({ tabId, windowId }) => {
  await loaded;
  const listening = [...owners.values()].filter((o) => o.sink);
  if (!listening.length) return;
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  const groupId = tab ? tab.groupId : -1;
  for (const o of listening) {
    if (o.tabs.has(tabId) || (groupId >= 0 && o.groups.has(groupId))) {
      emit(o, tabEvent("activated", tabId, groupId, { windowId }));
    }
  }
});

chrome.tabs.onRemoved.addListener(async (tabId, info) => {
  await loaded;
  let changed = false;
  for (const o of owners.values()) {
    if (!o.tabs.delete(tabId)) continue;
    changed = true;
    o.events.delete(tabId);
    // The tab is gone: Chrome no longer says which group it was in.
    emit(o, tabEvent("removed", tabId, -1, { windowId: info.windowId, windowClosing: !!info.isWindowClosing }));
  }
  if (changed) save();
});

chrome.tabGroups.onRemoved.addListener(async (group) => {
  await loaded;
  let changed = false;
  for (const o of owners.values()) {
    if (!o.groups.delete(group.id)) continue;
    changed = true;
    emit(o, { type: "tab_group_event", event: "removed", groupId: group.id, windowId: group.windowId });
  }
  if (changed) save();
});
