// The program door: Hive's browser-bridge verbs (docs/design.md#wire-protocol, Hive's protocol
// 6) for programs — a WebSocket server (transport/websocket.js) or the
// daemon's local programs (program.call). Results keep Hive's shapes.
//
// What keeps the user safe here, compared with Hive's own extension:
//   - every verb that acts on a tab or group works only on the caller's
//     own (handlers/owners.js): the user's tabs are never attached,
//     closed or activated, nor reached by cdp, through this door
//     (not_owned). Only tab.get and tab.listUngrouped show them (Hive
//     finds its stray tabs with these), incognito ones without their page;
//   - cdp passes every method but the ones that would step around the
//     bridge's limits (programPolicy below, method_not_allowed);
//   - files reach a page (DOM.setFileInputFiles, a drag of files) only
//     after the daemon checked every path with the upload rules, and
//     downloads go nowhere the program chooses;
//   - file: URLs are not opened: a page of one could read the user's files;
//     nor are extension pages (chrome-extension:), which run with an
//     extension's powers.
// Every command passes admit() first.
import { BridgeError, Codes, HIVE_PROTOCOL_VERSION, TYPE_PATHS_CHECK, TYPE_PROGRAM_ADMIT, TYPE_PROGRAM_DONE } from "../protocol.js";
import { ask } from "../daemon.js";
import { intArg } from "./tabinfo.js";
import { checkShape, ensureAttached, hold, isAttached, pin, sendCommand, unpin } from "./cdp.js";
import * as owners from "./owners.js";
import * as policy from "./policy.js";

const COLORS = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"];
const PATHS_CHECK_MS = 10_000;
const ENABLE_MS = 5000;

// A native host that Chrome has just started drops what it cannot
// deliver while it dials the daemon, so a request sent right after a
// (re)connect may get no answer: it is asked again, ADMIT_TRIES times at
// most.
const ADMIT_MS = 1500;
const ADMIT_TRIES = 4;

// admit is where every program command passes before it runs. A command
// from a WebSocket server is admitted by the daemon, which refuses it
// while the user has turned the bridge off or paused it (the daemon's
// own programs were admitted by the daemon already). Without a link to
// the daemon nothing is admitted: the user's pause could not be known.
export async function admit(msg, ctx) {
  if (ctx.door.owner === "daemon") return;
  let last;
  for (let i = 0; i < ADMIT_TRIES; i++) {
    try {
      await ask(TYPE_PROGRAM_ADMIT, { owner: ctx.door.owner, verb: msg.type }, ADMIT_MS);
      return;
    } catch (err) {
      if (err && err.fromPeer) throw err; // the daemon's answer: paused_by_user, bridge_disabled
      last = err;
      if (!(err instanceof BridgeError && err.code === Codes.timeout)) {
        await new Promise((r) => setTimeout(r, 250)); // no link yet: wait for the reconnect
      }
    }
  }
  throw new BridgeError(Codes.extensionNotConnected, `the bridge's daemon must be running to admit a program's commands (it keeps the user's pause and the audit trail): ${last && last.message || last}`);
}

// record tells the daemon how a WebSocket program's command ended, for
// the audit trail: the verb, its tab and CDP method, the outcome; never
// the CDP params (they may carry typed text). Fire and forget.
export function record(msg, ctx, err, ms) {
  if (ctx.door.owner === "daemon") return;
  const code = err ? (err.code || Codes.internal) : "ok";
  ask(TYPE_PROGRAM_DONE, { owner: ctx.door.owner, verb: msg.type, tabId: msg.tabId, method: msg.method, code, ms }, ADMIT_MS).catch(() => {});
}

// The program door's CDP allow-list: what Hive's server
// sends (its tools/src/gcu/browser/ in aden-hive/hive uses Accessibility,
// DOM to find nodes and their boxes, Input, Page to navigate, reload,
// answer dialogs and take screenshots, Runtime.evaluate and
// callFunctionOn, Emulation), Log, and Network's events alone. null is
// every method of the domain (less the refusals below). Anything else is
// refused: the deny-list that stood here let Network.loadNetworkResource
// load a denied site with the user's cookies and IO.read hand it over.
//
// DOM and Page name their methods one by one: both have methods that
// write markup or read what the page loaded, and the two together read
// any URL with the user's cookies past the site rules (a <link
// rel=stylesheet> written with DOM.setOuterHTML, its body read with
// Page.getResourceContent), while written markup runs script (an <img
// onerror>) when the user turned programs' scripts off. So nothing here
// writes the document (setOuterHTML, setAttributeValue,
// setAttributesAsText, setNodeValue, setNodeName, copyTo, moveTo,
// removeNode, undo and redo, Page.setDocumentContent) or reads a
// resource (Page.getResourceContent, getResourceTree, searchInResource,
// captureSnapshot), and nothing turns the page's own defences off
// (Page.setBypassCSP).
const ALLOWED = new Map([
  ["Accessibility", null],
  ["DOM", new Set([
    "enable", "disable", "getDocument", "getFlattenedDocument", "requestChildNodes", "querySelector", "querySelectorAll",
    "describeNode", "resolveNode", "requestNode", "pushNodesByBackendIdsToFrontend", "pushNodeByPathToFrontend",
    "getAttributes", "getOuterHTML", "getBoxModel", "getContentQuads", "getNodeForLocation", "getFrameOwner",
    "performSearch", "getSearchResults", "discardSearchResults", "scrollIntoViewIfNeeded", "focus",
    // Files only as checkedParams lets them through.
    "setFileInputFiles",
  ])],
  ["Input", null],
  ["Page", new Set([
    "enable", "disable", "navigate", "reload", "stopLoading", "bringToFront", "getFrameTree", "getLayoutMetrics",
    "getNavigationHistory", "navigateToHistoryEntry", "resetNavigationHistory",
    "captureScreenshot", "startScreencast", "stopScreencast", "screencastFrameAck", "printToPDF",
    "handleJavaScriptDialog", "setInterceptFileChooserDialog", "setLifecycleEventsEnabled",
    // A program's script, as Runtime.evaluate is (SCRIPTS).
    "addScriptToEvaluateOnNewDocument", "removeScriptToEvaluateOnNewDocument", "createIsolatedWorld",
  ])],
  ["Emulation", null],
  ["Log", null],
  // evaluate and callFunctionOn run a program's script in the page (as
  // Hive's server does for most of what it reads); the rest handles what
  // they return.
  ["Runtime", new Set(["enable", "disable", "evaluate", "callFunctionOn", "getProperties", "releaseObject", "releaseObjectGroup", "awaitPromise", "runIfWaitingForDebugger"])],
  // The events only: nothing that loads (loadNetworkResource, replayXHR),
  // reads bodies or cookies, or changes what requests carry.
  ["Network", new Set(["enable", "disable"])],
]);

// The methods that run a program's own script in the page: refused when
// the user has turned them off for programs (policy program-evaluate off).
// A script given for every new document runs after the next reload; an
// isolated world is only a place to evaluate in.
const SCRIPTS = new Set(["Runtime.evaluate", "Runtime.callFunctionOn", "Page.addScriptToEvaluateOnNewDocument", "Page.createIsolatedWorld"]);

// programPolicy is the program door's CDP policy: it throws unless the
// method may pass. Methods that set files pass only with files the daemon
// checked (checkedParams below does that); Page.navigate passes only to
// an address the site rules allow; no key event pastes.
export function programPolicy(method, params) {
  checkShape(method);
  const domain = method.slice(0, method.indexOf("."));
  const name = method.slice(domain.length + 1);
  const allowed = ALLOWED.get(domain);
  if (allowed === undefined || (allowed !== null && !allowed.has(name))) {
    throw new BridgeError(Codes.methodNotAllowed, `CDP method ${method} is not allowed through the bridge: programs may use ${[...ALLOWED.keys()].join(", ")} (DOM: finding nodes, never writing markup; Page: navigating, dialogs and captures, never reading resources; Runtime: evaluate, callFunctionOn and their object handling; Network: events only), never cookies, storage, loading or anything beyond their own tabs`);
  }
  // Page.getCookies and deleteCookie (old), should any domain grow more.
  if (/cookie/i.test(method)) {
    throw new BridgeError(Codes.methodNotAllowed, `CDP method ${method} is not allowed through the bridge: programs may not read cookies or site storage`);
  }
  if (SCRIPTS.has(method) || scriptIn(method, params)) {
    if (policy.programScriptsOff()) {
      throw new BridgeError(Codes.methodNotAllowed, `CDP method ${method} would run the program's own script in the page, which is turned off for programs on this computer (the user ran browser-bridge policy program-evaluate off); programs that need it, such as Hive's server, work again after policy program-evaluate on`);
    }
  }
  if (method === "Input.dispatchKeyEvent") checkNoPaste(params);
  if (method === "Page.navigate") checkURL(params && params.url);
}

// scriptIn says whether a command other than SCRIPTS carries a script of
// the program's: Page.reload's scriptToEvaluateOnLoad, or an address
// that is a script (javascript:) or a page the program wrote (data:).
function scriptIn(method, params) {
  if (method === "Page.reload") return !!(params && params.scriptToEvaluateOnLoad);
  if (method === "Page.navigate") return ["javascript:", "data:"].includes(schemeOf(String((params && params.url) || "").trim()));
  return false;
}

// checkNoPaste refuses a key event that pastes: the clipboard holds what
// the user copied (a password, a private note), which no program may
// read. Chrome pastes on Control+V and Meta+V (with Shift: as plain
// text), on Shift+Insert, on a keyboard's Paste key, and on an event
// whose commands name a paste.
// A program that means to enter text types it (Input.insertText).
function checkNoPaste(params) {
  const p = params || {};
  const commands = Array.isArray(p.commands) ? p.commands : typeof p.commands === "string" ? [p.commands] : [];
  const mods = Number.isInteger(p.modifiers) ? p.modifiers : 0;
  const is = (key, code, vk) => String(p.key || "").toLowerCase() === key || p.code === code || p.windowsVirtualKeyCode === vk;
  const chord = (is("v", "KeyV", 86) && (mods & (MOD_CTRL | MOD_META)) !== 0) || (is("insert", "Insert", 45) && (mods & MOD_SHIFT) !== 0) ||
    is("paste", "Paste", -1);
  if (commands.some((c) => /paste/i.test(String(c))) || (chord && p.type !== "keyUp")) {
    throw new BridgeError(Codes.invalidArgument, "a key event that pastes (Control+V, Meta+V, Shift+Insert, or a paste command) is not allowed through the bridge: it would hand the page what the user copied; to enter text, send it with Input.insertText");
  }
}

// Modifier bits of Input.dispatchKeyEvent.
const MOD_CTRL = 2;
const MOD_META = 4;
const MOD_SHIFT = 8;

// checkURL refuses file: addresses (also behind view-source:): a page
// from the user's disk could read other files, past the upload rules.
// The URL is read as the browser reads it (new URL drops tabs and line
// breaks anywhere in it, and spaces around it).
function checkURL(url) {
  if (typeof url !== "string") return;
  if (isFileURL(url)) {
    throw new BridgeError(Codes.blockedByPolicy, "programs may not open file: URLs (a local page could read the user's files); serve the page over http from 127.0.0.1 instead");
  }
  // An extension's own pages run with its powers (the bridge's blocked
  // page once loaded whatever its URL named, file: included);
  // a program has nothing to do there.
  if (schemeOf(url) === "chrome-extension:") {
    throw new BridgeError(Codes.blockedByPolicy, "programs may not open extension pages (chrome-extension: URLs); open a web page instead");
  }
  // The site rules hold in programs' tabs too (the session rules would
  // stop the load; this says why at once).
  const dec = policy.decide(url);
  if (!dec.allowed) throw new BridgeError(dec.kind === "builtin" ? Codes.protectedPage : Codes.blockedByPolicy, `${JSON.stringify(url)} may not be opened: ${dec.why}`);
}

function schemeOf(url) {
  try {
    return new URL(url).protocol;
  } catch (_) {
    return "";
  }
}

function isFileURL(url) {
  let u;
  try {
    u = new URL(url);
  } catch (_) {
    return false; // not a URL: Chrome will not load it either
  }
  if (u.protocol === "view-source:") return isFileURL(u.href.slice("view-source:".length));
  return u.protocol === "file:";
}

function ownerOf(ctx) {
  const key = ctx?.door?.owner;
  if (typeof key !== "string" || !key) throw new BridgeError(Codes.internal, "the program door was opened without an owner");
  return key;
}

// ownTab throws not_owned unless the tab is the caller's.
async function ownTab(ctx, tabId) {
  if (await owners.ownsTab(ownerOf(ctx), tabId)) return;
  throw new BridgeError(Codes.notOwned, `tab ${tabId} was not opened by this program: the bridge does not let programs attach to, close, activate or run CDP in the user's own tabs; open one with context.create or tab.create`, [tabId]);
}

async function ownGroup(ctx, groupId) {
  if (await owners.ownsGroup(ownerOf(ctx), groupId)) return;
  throw new BridgeError(Codes.notOwned, `tab group ${groupId} was not created by this program: it works only in the groups it made with context.create`);
}

// hiveTab is a tab as Hive's server reads it (id) and as Hive's protocol
// names it (tabId).
function hiveTab(t) {
  return {
    id: t.id,
    tabId: t.id,
    windowId: t.windowId,
    url: t.url || t.pendingUrl || "",
    title: t.title || "",
    groupId: t.groupId ?? -1,
    active: !!t.active,
  };
}

function redacted(t) {
  return { ...hiveTab(t), url: "", title: "", incognito: true };
}

// HIVE_GROUP_MARKER is what Hive's own extension appends to the title of
// every group it makes, from Hive's protocol 5 on: an invisible
// zero-width space. Hive's server adds nothing; it tells its groups from
// the user's by the marker alone (its sweep counts them and, after a
// restart, closes the ones no agent holds), so a group made without it
// would be left behind for good. The tab strip does not show it.
const HIVE_GROUP_MARKER = "\u200b";

// groupTitle is the title of a group a program makes: with Hive's marker
// for a program that speaks Hive's protocol 5 or later — the WebSocket
// door, whose hello says HIVE_PROTOCOL_VERSION — and as sent for the
// daemon's own programs, which speak the bridge's. One marker, however
// many the title came with.
function groupTitle(name, ctx) {
  if (ctx.door.owner === "daemon" || HIVE_PROTOCOL_VERSION < 5) return name;
  return name.replace(/\u200b+$/, "") + HIVE_GROUP_MARKER;
}

function colorFor(text) {
  let h = 0;
  for (const c of text) h = (h * 31 + c.codePointAt(0)) >>> 0;
  return COLORS[h % COLORS.length];
}

// homeWindow is the window of the owner's groups, where its new tabs go;
// null when it has none left.
async function homeWindow(key) {
  const o = await owners.get(key);
  for (const g of o.groups) {
    const group = await chrome.tabGroups.get(g).catch(() => null);
    if (group) return group.windowId;
  }
  return null;
}

// newWindow opens url in a new unfocused window (docs/design.md#workspaces's size) and
// returns its tab: a program with no window of its own yet gets one
// rather than a tab among the user's.
async function newWindow(url) {
  const w = await chrome.windows.create({ type: "normal", focused: false, width: 1280, height: 900, url });
  return w.tabs[0];
}

// contextCreate: a tab in a tab group of its own — in windowId, else the
// window of the caller's other groups, else a new unfocused window, so the
// user's own windows stay as they are. The title is displayName (else
// agentId), marked as Hive's extension marks it (groupTitle).
export async function contextCreate(msg, ctx) {
  const key = ownerOf(ctx);
  if (typeof msg.agentId !== "string" && typeof msg.agentId !== "number") {
    throw new BridgeError(Codes.invalidArgument, "agentId must be a string");
  }
  const title = groupTitle(typeof msg.displayName === "string" && msg.displayName ? msg.displayName : String(msg.agentId), ctx);
  let windowId = null;
  if (Number.isInteger(msg.windowId)) {
    const w = await chrome.windows.get(msg.windowId).catch(() => null);
    if (w && w.type === "normal") windowId = w.id; // a closed window: the response's windowId names the new home
  }
  if (windowId === null) windowId = await homeWindow(key);
  const tab = windowId === null ? await newWindow("about:blank") : await chrome.tabs.create({ windowId, url: "about:blank", active: false });
  await owners.addTab(key, tab.id);
  // recycleGroupId: Chrome's saved groups keep an empty chip that no API
  // deletes; Hive reuses it. Only a group of the caller's own: grouping
  // into a user's group would mix its tabs with the user's.
  let groupId = null;
  if (Number.isInteger(msg.recycleGroupId) && await owners.ownsGroup(key, msg.recycleGroupId)) {
    groupId = await chrome.tabs.group({ tabIds: [tab.id], groupId: msg.recycleGroupId }).catch(() => null);
  }
  if (groupId === null) groupId = await chrome.tabs.group({ tabIds: [tab.id], createProperties: { windowId: tab.windowId } });
  await owners.addGroup(key, groupId);
  const group = await chrome.tabGroups.update(groupId, { title, color: colorFor(title), collapsed: false });
  return { groupId, tabId: tab.id, windowId: group.windowId };
}

// contextDestroy closes every tab of the caller's group. Ungrouping first
// lets Chrome delete a group that is not saved; persistedGroup says it
// kept a saved one (which stays the caller's, for recycleGroupId).
export async function contextDestroy(msg, ctx) {
  const key = ownerOf(ctx);
  const groupId = intArg(msg, "groupId");
  await ownGroup(ctx, groupId);
  const tabs = await chrome.tabs.query({ groupId });
  if (tabs.length) {
    const ids = tabs.map((t) => t.id);
    await Promise.allSettled(ids.map((id) => detachTab(key, id)));
    await chrome.tabs.ungroup(ids).catch(() => {});
    await chrome.tabs.remove(ids);
  }
  // A group that is gone is forgotten by its tabGroups.onRemoved (which
  // also tells the program, owners.js).
  const persistedGroup = !!(await chrome.tabGroups.get(groupId).catch(() => null));
  return { ok: true, closedTabs: tabs.length, persistedGroup };
}

export async function tabCreate(msg, ctx) {
  const key = ownerOf(ctx);
  const props = { active: false, url: typeof msg.url === "string" && msg.url ? msg.url : "about:blank" };
  checkURL(props.url);
  const grouped = Number.isInteger(msg.groupId) && msg.groupId >= 0;
  if (grouped) {
    await ownGroup(ctx, msg.groupId);
    props.windowId = (await chrome.tabGroups.get(msg.groupId)).windowId;
  } else {
    const home = await homeWindow(key);
    if (home !== null) props.windowId = home;
  }
  const tab = props.windowId === undefined ? await newWindow(props.url) : await chrome.tabs.create(props);
  await owners.addTab(key, tab.id);
  if (grouped) await chrome.tabs.group({ tabIds: [tab.id], groupId: msg.groupId });
  return { tabId: tab.id };
}

export async function tabClose(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  await ownTab(ctx, tabId);
  await detachTab(ownerOf(ctx), tabId);
  await chrome.tabs.remove(tabId);
  return { ok: true };
}

export async function tabActivate(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  await ownTab(ctx, tabId);
  await chrome.tabs.update(tabId, { active: true });
  return { ok: true };
}

// tabList lists the caller's tabs: of its groupId, or all of them.
export async function tabList(msg, ctx) {
  const key = ownerOf(ctx);
  if (Number.isInteger(msg.groupId) && msg.groupId >= 0) {
    await ownGroup(ctx, msg.groupId);
    return { tabs: (await chrome.tabs.query({ groupId: msg.groupId })).map(hiveTab) };
  }
  const o = await owners.get(key);
  const all = await chrome.tabs.query({});
  return { tabs: all.filter((t) => o.tabs.has(t.id) || (t.groupId >= 0 && o.groups.has(t.groupId))).map(hiveTab) };
}

// tabGet answers for any tab (Hive hands a user's tab over after looking
// at it); an incognito tab that is not the caller's says nothing of its
// page.
export async function tabGet(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const t = await chrome.tabs.get(tabId);
  if (t.incognito && !(await owners.ownsTab(ownerOf(ctx), tabId, t))) return redacted(t);
  return hiveTab(t);
}

// tabListUngrouped lists the tabs in no group, the user's among them (Hive
// intersects them with the tabs it knows to find its own strays);
// incognito ones without their address.
export async function tabListUngrouped() {
  const tabs = await chrome.tabs.query({ groupId: -1 });
  return { tabs: tabs.map((t) => ({ id: t.id, windowId: t.windowId, url: t.incognito ? "" : (t.url || t.pendingUrl || "") })) };
}

// tabGroupList lists the caller's own groups: Hive reconciles its
// registry with it, and the user's groups are none of its business.
export async function tabGroupList(msg, ctx) {
  const o = await owners.get(ownerOf(ctx));
  const groups = await chrome.tabGroups.query({});
  return {
    groups: groups.filter((g) => o.groups.has(g.id)).map((g) => ({
      id: g.id, title: g.title || "", color: g.color || "", collapsed: !!g.collapsed, windowId: g.windowId,
    })),
  };
}

// tabAudit reports, without judging, what may keep automation from
// working in the caller's tab: its page, the debugger targets on it (a
// DevTools or another extension holding it), and its frames.
export async function tabAudit(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  await ownTab(ctx, tabId);
  const t = await chrome.tabs.get(tabId);
  const out = {
    tabId,
    url: t.url || t.pendingUrl || "",
    incognito: !!t.incognito,
    ourExtensionId: chrome.runtime.id,
    fileAccess: await chrome.extension.isAllowedFileSchemeAccess().catch(() => null),
    targets: [],
    cdpFrames: null,
  };
  const targets = await chrome.debugger.getTargets().catch(() => []);
  out.targets = targets.filter((x) => x.tabId === tabId).map((x) => ({
    url: x.url || "", type: x.type || "", extensionId: x.extensionId || null, attached: !!x.attached,
  }));
  // The frame tree needs the debugger, which is only asked when attached.
  if (isAttached(tabId)) {
    try {
      const { frameTree } = await sendCommand(tabId, "Page.getFrameTree", {});
      const frames = [];
      const walk = (n) => {
        if (!n) return;
        if (n.frame) frames.push({ url: n.frame.url || "", securityOrigin: n.frame.securityOrigin || "" });
        for (const c of n.childFrames || []) walk(c);
      };
      walk(frameTree);
      out.cdpFrames = frames;
    } catch (_) { /* the very thing that blocks automation may block this */ }
  }
  return out;
}

// attachTab attaches the debugger for the caller and keeps it attached,
// with what the forwarded events need enabled: Page (ensureAttached),
// Runtime (console), and lifecycle events. It reports whether this call
// attached it.
async function attachTab(key, tabId) {
  const was = isAttached(tabId);
  await ensureAttached(tabId);
  pin(tabId);
  await owners.events(key, tabId, true);
  await Promise.all([
    enable(tabId, "Runtime.enable", {}),
    enable(tabId, "Page.setLifecycleEventsEnabled", { enabled: true }),
  ]);
  return !was;
}

// release ends what an owner's connection held when it goes: its events,
// and its attachments, which then detach when idle (the debugging bar
// must not stay for a program that left). The program's next cdp
// attaches again.
export async function release(key, sink) {
  const o = await owners.get(key);
  if (o.sink !== sink) return; // a newer connection took over
  for (const tabId of o.events) unpin(tabId);
  await owners.setSink(key, null, sink);
}

// enable sends a command whose answer nothing waits for: an open dialog
// holds Runtime.enable until it closes.
function enable(tabId, method, params) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, ENABLE_MS); });
  return Promise.race([sendCommand(tabId, method, params).catch(() => {}), late]).finally(() => clearTimeout(timer));
}

async function detachTab(key, tabId) {
  await owners.events(key, tabId, false);
  unpin(tabId);
  await chrome.debugger.detach({ tabId }).catch(() => {});
}

export async function cdpAttach(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  await ownTab(ctx, tabId);
  const attached = await attachTab(ownerOf(ctx), tabId);
  return { ok: true, attached };
}

export async function cdpDetach(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  await ownTab(ctx, tabId);
  await detachTab(ownerOf(ctx), tabId);
  return { ok: true };
}

// cdp sends one CDP command to the caller's tab; it attaches first when
// the caller is not attached (after a worker restart, or an idle detach
// once the program's connection had dropped). A CDP error rejects with
// Chrome's own message.
export async function cdp(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const params = msg.params && typeof msg.params === "object" ? msg.params : {};
  programPolicy(msg.method, params);
  await ownTab(ctx, tabId);
  const checked = await checkedParams(msg.method, params);
  const key = ownerOf(ctx);
  const o = await owners.get(key);
  return hold(tabId, async () => {
    if (!isAttached(tabId) || !o.events.has(tabId)) await attachTab(key, tabId);
    return sendCommand(tabId, msg.method, checked);
  });
}

// checkedParams returns the params of a command that hands files to the
// page with the files the daemon checked (they may be private copies),
// and any other command's as they are.
async function checkedParams(method, params) {
  if (method === "DOM.setFileInputFiles") {
    return { ...params, files: await checkPaths(params.files) };
  }
  if (method === "Input.dispatchDragEvent" && params.data && Array.isArray(params.data.files) && params.data.files.length) {
    return { ...params, data: { ...params.data, files: await checkPaths(params.data.files) } };
  }
  return params;
}

// checkPaths asks the daemon, over the native link, to check upload paths
// with the upload rules; nothing reaches the page unless it answers yes.
async function checkPaths(files) {
  if (!Array.isArray(files) || !files.every((f) => typeof f === "string")) {
    throw new BridgeError(Codes.invalidArgument, "files must be a list of paths");
  }
  let result;
  try {
    result = await ask(TYPE_PATHS_CHECK, { paths: files }, PATHS_CHECK_MS);
  } catch (err) {
    if (err.fromPeer) throw new BridgeError(err.code === Codes.internal ? Codes.uploadPathRejected : err.code, `no files were set: ${err.message}`);
    throw new BridgeError(Codes.uploadPathRejected, `no files were set: the bridge's daemon must be running (and as new as this extension) to check upload paths, and it did not answer (${err.message}); run browser-bridge status, then try again`);
  }
  const paths = result && result.paths;
  if (!Array.isArray(paths) || paths.length !== files.length || !paths.every((p) => typeof p === "string")) {
    throw new BridgeError(Codes.uploadPathRejected, "no files were set: the daemon's answer to the upload path check is not a list of paths");
  }
  return paths;
}
