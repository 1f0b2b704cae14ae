// The wire protocol between the daemon and this extension, written down once
// on this side. Its Go twin is internal/protocol; both carry PROTOCOL_VERSION
// and the daemon reports a mismatch as version_mismatch.
//
// Messages to the extension: {id, type, ...params}. Replies: {id, result} or
// {id, error: {code, message}}. On connect the extension sends
// {type: "hello", version, protocol, extensionId, incognitoAllowed}.
// This is a superset of the Hive Browser Bridge protocol.

export const PROTOCOL_VERSION = 1;

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
