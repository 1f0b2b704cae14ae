// The wire protocol between the daemon and this extension, written down once
// on this side. Its Go twin is internal/protocol (the verb list:
// internal/protocol/verbs.go); both carry PROTOCOL_VERSION and the daemon
// reports a mismatch as version_mismatch. A Go test compares VERBS below
// with the Go list, and another one (extension/verbs_test.go) with the
// handler tables of dispatch.js: change all three together, and bump the
// version when a verb or a parameter changes.
//
// Messages to the extension: {id, type, ...params}. Replies: {id, result} or
// {id, error: {code, message}}. On connect the extension sends
// {type: "hello", version, protocol, extensionId, instanceId,
// incognitoAllowed, userAgent, brand, focused} (see transport/session.js) and a
// {type: "ping"} every 20 s, which the host answers with {type: "pong"}.
// The extension may ask the daemon too: {id: "ext-<n>", type:
// "paths.check", paths} over the native link, answered {id, result:
// {paths}} or {id, error: {code, message}} (a message with an id and no
// type is such an answer). This is a superset of the Hive Browser Bridge
// protocol.
//
// Doors: a connection is opened onto one door, and only that door's verbs
// run on it (dispatch.js); the message cannot choose.
//   - the actions door: the native link, where the daemon drives the
//     bridge's actions; its cdp is the actions' allow-list.
//   - the program door: Hive's protocol for programs — the WebSocket
//     transport (transport/websocket.js, Hive's protocol 6: string ids,
//     errors as strings, events), and program.call from the daemon for
//     local programs. Its cdp passes everything but SPEC §4's refusals,
//     and only on tabs the same program created (handlers/programs.js).
export const PROTOCOL_VERSION = 6;


// VERBS: every command type this extension runs, with the JSON names of
// every parameter its handler reads (besides id and type). dispatch.js
// refuses any other type with unknown_verb. One entry per line: a Go test
// parses this table with a regexp.
export const VERBS = {
  // === Both doors: the Hive verbs. On the actions door they are the
  // bridge's primitives (tab info results, no ownership: the daemon keeps
  // its own registry); on the program door, Hive's shapes, on the
  // caller's own tabs only. ===
  // Actions: a new tab in a new group titled agentId → {groupId, tabId}. Programs: a tab in a new (or the caller's recycleGroupId) group titled displayName or agentId exactly as sent, in windowId or the caller's window or a new unfocused one → {groupId, tabId, windowId}.
  "context.create": ["agentId", "displayName", "windowId", "recycleGroupId"],
  // Closes every tab of the group → {ok, closedTabs}; programs: its own group only, + persistedGroup (Chrome kept the saved group).
  "context.destroy": ["groupId"],
  // Actions: a background tab, in windowId or groupId's window, made active in its window if active; waits waitMs for its load → tab info (+loaded). Programs: url in groupId (its own) → {tabId}.
  "tab.create": ["url", "windowId", "groupId", "active", "waitMs"],
  // Closes tabIds, or tabId → {ok}; programs: tabId, its own.
  "tab.close": ["tabId", "tabIds"],
  // The tabs, of groupId or all → {tabs: [tab info]}; programs: of its own groupId or all its own → {tabs: [{id, tabId, url, title, groupId, active, windowId}]}.
  "tab.list": ["groupId"],
  // Makes the tab the active one of its window, without focusing the window → {ok}; programs: its own tabs.
  "tab.activate": ["tabId"],
  // Actions: one tab → tab info. Programs: → {id, tabId, url, title, groupId, active, windowId}, any tab (an incognito one not its own has url and title blanked).
  "tab.get": ["tabId"],
  // Attaches the debugger; actions: waiting up to waitMs (at most, and by default, 5 s) for the tab to answer, and with settle first waiting for a command a dialog interrupted → {ok, dialog}. Programs: its own tab, kept attached until cdp.detach, events on → {ok, attached}.
  "cdp.attach": ["tabId", "settle", "waitMs"],
  // Detaches the debugger → {ok}.
  "cdp.detach": ["tabId"],
  // One CDP command, if the door's policy allows the method (actions: handlers/cdp.js; programs: handlers/programs.js) → the CDP result.
  "cdp": ["tabId", "method", "params"],
  // === Program door only (Hive protocol 6) ===
  // The ungrouped tabs of every window (the user's own among them) → {tabs: [{id, windowId, url}]}, incognito ones with url blanked.
  "tab.listUngrouped": [],
  // The caller's own tab groups → {groups: [{id, title, color, collapsed, windowId}]}.
  "tabGroup.list": [],
  // What may block automation in the caller's tab → {tabId, url, incognito, ourExtensionId, fileAccess, targets, cdpFrames}.
  "tab.audit": ["tabId"],
  // === Actions door only: the bridge's own verbs ===
  // Runs command {type, ...params} through the program door for the daemon's local programs (one owner, "daemon programs") → its result.
  "program.call": ["command"],
  // Turns the WebSocket transport on (url, default ws://127.0.0.1:14829/bridge; token) or off, kept in chrome.storage.local → {enabled, url, tokenSet, connected, lastError}.
  "websocket.configure": ["enabled", "url", "token"],
  // The WebSocket transport's setting and state → {enabled, url, tokenSet, connected, lastError}.
  "websocket.status": [],
  // CDP commands [{method, params}] in order in one round trip, stopping at a dialog; with check {before, files, fn, frames: [{frameId, args}]}, a page script in those frames before command before, the rest sent only if each answers {ok: true}; then (unless a dialog or the check stopped them) the page script then (page.run's params), net (the tab's readiness.net) and tab (its tab info) → {results, dialog?, interrupted?, check?, stopped?, navigated?, then?, net?, tab?, stale?, before?}; navigated: the page went away under a command that did not answer; expectURL: the URL the daemon judged the tab by, else nothing runs and the answer is {stale, tab}, with it before is the tab as judged; activate: make the tab active before the first command.
  "cdp.batch": ["tabId", "commands", "check", "then", "net", "tab", "expectURL", "activate"],
  // Sets files on the file input a page script marked with token → {ok}.
  "dom.setFiles": ["tabId", "token", "files"],
  // Clicks (Input.dispatchMouseEvent commands) an element that opens a file chooser and gives it files → {files, emptied?}.
  "dom.chooseFiles": ["tabId", "files", "commands", "inFrame"],
  // The extension answers → {pong: true}.
  "bridge.ping": [],
  // Every window and tab, incognito and file-URL access, the commands running → {windows, ...}.
  "browser.state": [],
  // The tabs the page of tabId opened that are still open → {tabs}.
  "tab.opened": ["tabId"],
  // Loads url in the tab; waits waitMs for the load → tab info (+loaded).
  "tab.navigate": ["tabId", "url", "waitMs"],
  // Waits up to waitMs for the tab to finish loading → tab info + loaded.
  "tab.waitLoad": ["tabId", "waitMs"],
  // The tab's frames → {frames: [{frameId, parentFrameId, url, errorOccurred}]}.
  "tab.frames": ["tabId"],
  // Adds tabIds (or tabId) to groupId, or to a new group in windowId, with title and color → {groupId}.
  "tab.group": ["tabId", "tabIds", "groupId", "windowId", "title", "color"],
  // A normal window, unfocused unless focused, optionally incognito, url, width and height; waits waitMs → tab info of its tab + windowId.
  "window.create": ["url", "incognito", "focused", "width", "height", "waitMs"],
  // Closes the window → {ok}.
  "window.close": ["windowId"],
  // Calls page function fn(args) of the extension's page scripts files in the tab's frames → {frames: [{frameId, documentId, value | error, code?}]}.
  "page.run": ["tabId", "files", "fn", "args", "frameId", "allFrames"],
  // Registers page/quiet.js as a content script and puts the action scripts in the bridge's tabs as their documents commit → {ok, registered}.
  "readiness.enable": [],
  // Undoes both → {ok}.
  "readiness.disable": [],
  // The tab's network and navigation activity → {watching, inflightMs, quietMs, navigatingMs?, watchedMs}.
  "readiness.net": ["tabId"],
  // Stops the command commandId of the same connection → {cancelled}.
  "command.cancel": ["commandId"],
  // --- The user's side (handlers/handoff.js, handlers/policy.js) ---
  // Brings the tab's window forward, shows message over the page in an extension frame the page cannot read or click (and on the extension's page), waits up to timeoutMs for Done or Cancel → {outcome: done|cancelled|timeout, tabId, url, title}.
  "handoff.show": ["tabId", "message", "timeoutMs"],
  // The site rules, enforced on the bridge's own tabs before pages load, kept in chrome.storage.session → {ok}.
  // refuseProgramEvaluate: the program door refuses Runtime.evaluate and callFunctionOn.
  "policy.set": ["allow", "deny", "builtInDeny", "refuseProgramEvaluate"],
  // Asks the user whether the agent may take a step it cannot take back (kind submit|payment|navigation; message, detail), over the tab's page in an extension frame (or, without tabId or a page to show it on, in a window of the extension's own), waiting up to timeoutMs → {outcome: allowed|declined|timeout, overlay} (handlers/ask.js).
  "ask.show": ["tabId", "kind", "message", "detail", "timeoutMs"],
  // Downloads with ids, or started since (ms since the epoch), newest first, at most limit; waitMs waits for one to start → {downloads}. Those asked for by id, and those actedOnTabId (a tab an action just acted on) starts in the next 10 s, are the bridge's: held to the cap (downloads.limit).
  "downloads.list": ["ids", "since", "limit", "waitMs", "actedOnTabId"],
  // Cancels the download downloadId in progress → {ok}.
  "downloads.cancel": ["downloadId"],
  // The cap on one download (the settings' downloadMaxBytes), which the extension holds every bridge download to by itself, to its end: cancelled past it while arriving, its file removed when it arrived whole past it → {ok}.
  "downloads.limit": ["maxBytes"],
  // --- The navigation actions (handlers/history.js, handlers/viewport.js) ---
  // Goes back or forward in the tab's history, or reloads it (bypassCache), and waits up to waitMs for the page it leads to → tab info + loaded, started, sameDocument?, stayed? (a "leave page?" dialog was dismissed); no entry to go to: invalid_argument.
  "tab.history": ["tabId", "step", "bypassCache", "waitMs"],
  // Lays the tab's page out at width×height CSS px (deviceScaleFactor, mobile), keeping the debugger attached while set, or reset → {width, height, deviceScaleFactor} as laid out now.
  "tab.viewport": ["tabId", "width", "height", "deviceScaleFactor", "mobile", "reset"],
  // --- The exec family (handlers/evaluate.js) ---
  // Runs expression in the page's own context (MAIN world) of frameId (default 0), awaits a promise, returns its JSON cut at maxChars → {frameId, url, type, json, total} or {frameId, url, error} (a throw, a rejection, a syntax error).
  "page.evaluate": ["tabId", "frameId", "expression", "maxChars"],
  // --- The developer tools' records (handlers/record.js) ---
  // A tab's console messages and page errors after since, recording the tab from now on if it was not → {startedAt, fromLoad, dropped, nextSince, messages}.
  "record.console": ["tabId", "since", "all"],
  // A tab's requests after since, or with requestId that one with headers and bodies → {startedAt, fromLoad, dropped, nextSince, requests | request | missing}.
  "record.network": ["tabId", "since", "requestId"],
};

// The native messaging host registered by `browser-bridge install`/`launch`.
export const NATIVE_HOST = "com.browser_bridge.host";

// Hive's current bridge endpoint, where the WebSocket transport connects
// unless told otherwise (internal/protocol DefaultWebSocketURL).
export const DEFAULT_WEBSOCKET_URL = "ws://127.0.0.1:14829/bridge";

// The version of Hive's protocol the program door speaks (its hello's
// protocolVersion): Hive's server feature-gates verbs on it.
export const HIVE_PROTOCOL_VERSION = 6;

// The extension's requests to the daemon (over the native link).
export const TYPE_PATHS_CHECK = "paths.check";
// browser.focused: the user focused one of this browser's windows (the
// default browser of a daemon serving several), answered {ok: true}.
export const TYPE_FOCUSED = "browser.focused";
// The extension's requests for a program's command on the WebSocket door:
// program.admit before it runs (the daemon refuses it while the bridge is
// off or paused), program.done after, with its outcome (the audit trail).
export const TYPE_PROGRAM_ADMIT = "program.admit";
export const TYPE_PROGRAM_DONE = "program.done";

// The extension's page asks the daemon through the service worker
// (handlers/userpage.js): {id: "ext-<n>", type: "ui.state"} and
// {id, type: "ui.pause", paused} (internal/protocol/userpage.go).
export const TYPE_UI_STATE = "ui.state";
export const TYPE_UI_PAUSE = "ui.pause";
// {id, type: "ui.evaluate", on}: the page's switch of the evaluate action.
export const TYPE_UI_EVALUATE = "ui.evaluate";

// Stable error codes (see internal/protocol/errors.go).
export const Codes = {
  invalidArgument: "invalid_argument",
  tabNotFound: "tab_not_found",
  elementNotFound: "element_not_found",
  protectedPage: "protected_page",
  incognitoNotAllowed: "incognito_not_allowed",
  blockedByPolicy: "blocked_by_policy",
  timeout: "timeout",
  unknownVerb: "unknown_verb",
  // A CDP method the door's policy does not allow (handlers/cdp.js).
  methodNotAllowed: "method_not_allowed",
  // A program's command on a tab or group it did not create (handlers/programs.js).
  notOwned: "not_owned",
  uploadPathRejected: "upload_path_rejected",
  // No link to the daemon when a command needs it (a program's command on
  // the WebSocket door is admitted by the daemon).
  extensionNotConnected: "extension_not_connected",
  // The tab is in the user's hands (handoff.show).
  handoffInProgress: "handoff_in_progress",
  // The user declined a step the bridge asked about (ask.show).
  declinedByUser: "declined_by_user",
  // evaluate is off until the user turns it on; the expression failed.
  evaluateDisabled: "evaluate_disabled",
  evaluationFailed: "evaluation_failed",
  internal: "internal_error",
};

// BridgeError carries a stable code to the daemon.
//
// tabs lists the tab IDs the message names, each written "tab N": the
// daemon shows them as its caller knows them (with several browsers, a
// tab's ID carries its browser's slot), without reading the sentence.
export class BridgeError extends Error {
  constructor(code, message, tabs) {
    super(message);
    this.code = code;
    if (tabs) this.tabs = tabs.filter((t) => Number.isInteger(t) && t > 0);
  }
}

// toWireError turns anything thrown into {code, message}, recognising the
// messages Chrome's APIs use for the common cases.
export function toWireError(err) {
  if (err instanceof BridgeError) {
    return err.tabs?.length ? { code: err.code, message: err.message, tabs: err.tabs } : { code: err.code, message: err.message };
  }
  // Chrome's messages end with a period; ours add a sentence after them.
  const message = String((err && err.message) || err).replace(/\.+$/, "");
  if (/No tab with id|No window with id/i.test(message)) {
    return { code: Codes.tabNotFound, message: `${message}. The tab is gone; call status for the current tabs.` };
  }
  if (/Cannot access|cannot be scripted|chrome:\/\/|Cannot attach to this target|extensions gallery/i.test(message)) {
    return { code: Codes.protectedPage, message: `${message}. The browser does not let extensions touch this page; use another tab.` };
  }
  if (/showing error page/i.test(message)) {
    return { code: Codes.protectedPage, message: "the tab shows the browser's error page: the address could not be loaded; check the URL (status shows it) or try again when the site is reachable" };
  }
  if (/No frame with id/i.test(message)) {
    return { code: Codes.elementNotFound, message: `${message}. Take frameId from extract's frames or from inspect (0 is the top frame).` };
  }
  if (/blocked by (the )?(administrator|policy)/i.test(message)) {
    return { code: Codes.blockedByPolicy, message };
  }
  return { code: Codes.internal, message };
}
