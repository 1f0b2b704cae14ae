// The wire protocol between the daemon and this extension, written down once
// on this side. Its Go twin is internal/protocol (the verb list:
// internal/protocol/verbs.go); both carry PROTOCOL_VERSION and the daemon
// reports a mismatch as version_mismatch. A Go test compares VERBS below
// with the Go list, and another one (extension/verbs_test.go) with the
// handler table of dispatch.js: change all three together, and bump the
// version when a verb or a parameter changes.
//
// Messages to the extension: {id, type, ...params}. Replies: {id, result} or
// {id, error: {code, message}}. On connect the extension sends
// {type: "hello", version, protocol, extensionId, instanceId,
// incognitoAllowed, userAgent} (see transport/session.js) and a
// {type: "ping"} every 20 s, which the host answers with {type: "pong"}.
// This is a superset of the Hive Browser Bridge protocol.

export const PROTOCOL_VERSION = 3;

// VERBS: every command type this extension runs, with the JSON names of
// every parameter its handler reads (besides id and type). dispatch.js
// refuses any other type with unknown_verb. One entry per line: a Go test
// parses this table with a regexp.
export const VERBS = {
  // --- Hive-compatible verbs (SPEC §4) ---
  // A new tab in a new, labelled tab group (title agentId) → {groupId, tabId}.
  "context.create": ["agentId"],
  // Closes every tab of the group → {ok, closedTabs}.
  "context.destroy": ["groupId"],
  // A background tab, in windowId or groupId's window, made active in its window if active; waits waitMs for its load → tab info (+loaded).
  "tab.create": ["url", "windowId", "groupId", "active", "waitMs"],
  // Closes tabIds, or tabId → {ok}.
  "tab.close": ["tabId", "tabIds"],
  // The tabs, of groupId or all → {tabs: [tab info]}.
  "tab.list": ["groupId"],
  // Makes the tab the active one of its window, without focusing the window → {ok}.
  "tab.activate": ["tabId"],
  // Attaches the debugger; with settle, first waits for a command a dialog interrupted → {ok, dialog}.
  "cdp.attach": ["tabId", "settle"],
  // Detaches the debugger → {ok}.
  "cdp.detach": ["tabId"],
  // One CDP command, if the door's policy allows the method (handlers/cdp.js) → the CDP result.
  "cdp": ["tabId", "method", "params"],
  // --- The bridge's own verbs ---
  // CDP commands [{method, params}] in order in one round trip, stopping at a dialog → {results, dialog?, interrupted?}.
  "cdp.batch": ["tabId", "commands"],
  // Sets files on the file input a page script marked with token → {ok}.
  "dom.setFiles": ["tabId", "token", "files"],
  // Clicks (Input.dispatchMouseEvent commands) an element that opens a file chooser and gives it files → {files, emptied?}.
  "dom.chooseFiles": ["tabId", "files", "commands", "inFrame"],
  // The extension answers → {pong: true}.
  "bridge.ping": [],
  // Every window and tab, incognito and file-URL access, the commands running → {windows, ...}.
  "browser.state": [],
  // One tab → tab info.
  "tab.get": ["tabId"],
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
  // Registers the quiet-DOM content script (page/quiet.js) → {ok, registered}.
  "readiness.enable": [],
  // Unregisters it → {ok}.
  "readiness.disable": [],
  // Stops the command commandId of the same connection → {cancelled}.
  "command.cancel": ["commandId"],
  // Downloads with ids, or started since (ms since the epoch), newest first, at most limit; waitMs waits for one to start → {downloads}.
  "downloads.list": ["ids", "since", "limit", "waitMs"],
  // Cancels the download downloadId in progress → {ok}.
  "downloads.cancel": ["downloadId"],
};

// The native messaging host registered by `browser-bridge install`/`launch`.
export const NATIVE_HOST = "com.browser_bridge.host";

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
  internal: "internal_error",
};

// BridgeError carries a stable code to the daemon.
export class BridgeError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// toWireError turns anything thrown into {code, message}, recognising the
// messages Chrome's APIs use for the common cases.
export function toWireError(err) {
  if (err instanceof BridgeError) return { code: err.code, message: err.message };
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
