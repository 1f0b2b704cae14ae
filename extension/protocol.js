// The wire protocol between the daemon and this extension, written down once
// on this side. Its Go twin is internal/protocol (the verb list:
// internal/protocol/verbs.go); both carry PROTOCOL_VERSION and the daemon
// reports a mismatch as version_mismatch. The verb table (verbs.gen.js) is
// generated from the Go list by go generate ./internal/protocol; bump the
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
//     local programs. Its cdp passes everything but the refusals of
//     docs/design.md#wire-protocol,
//     and only on tabs the same program created (handlers/programs.js).
export const PROTOCOL_VERSION = 6;


// VERBS, the verbs this extension runs and the parameters each handler
// reads, is in verbs.gen.js, generated from internal/protocol/verbs.go
// with the handler of each verb on each door.

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
// {id, type: "ui.replay", windowId, from, before} or {id, type, windowId, seq}: the workspace
// page's timeline (internal/protocol UIReplayAsk).
export const TYPE_UI_REPLAY = "ui.replay";

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
