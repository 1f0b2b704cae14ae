// The WebSocket transport's setting and state, as both sides of
// chrome.storage see them. The websocket.configure and websocket.status
// verbs (handlers/websocket.js) write the setting and read the state; the
// transport (transport/websocket.js) follows the setting and writes the
// state. Neither imports the other: storage is the only thing between
// them, as it is for any other writer of the setting.
//
//   chrome.storage.local   SETTING_KEY: {enabled, url, token, rev}
//       rev is a fresh string per configure, so that a configure with the
//       same setting still reconnects (and its caller can tell the
//       transport's answer to it from an older one).
//   chrome.storage.session LINK_KEY: {connected, lastError, rev}
//       the link as the transport last saw it, under the setting's rev.
//       Session storage: a browser restart finds no stale "connected".
import { BridgeError, Codes, DEFAULT_WEBSOCKET_URL } from "./protocol.js";

export const SETTING_KEY = "websocket";
export const LINK_KEY = "websocketLink";

// normalize reads a stored setting, whoever wrote it.
export function normalize(v) {
  return {
    enabled: v?.enabled === true,
    url: typeof v?.url === "string" && v.url ? v.url : DEFAULT_WEBSOCKET_URL,
    token: typeof v?.token === "string" ? v.token : "",
    rev: typeof v?.rev === "string" ? v.rev : "",
  };
}

// status is what websocket.status answers (and the extension's page
// shows): the setting without its token, and the link.
export function status(setting, link) {
  return {
    enabled: !!setting?.enabled,
    url: setting?.url || DEFAULT_WEBSOCKET_URL,
    tokenSet: !!setting?.token,
    connected: !!link?.connected,
    lastError: link?.lastError || "",
  };
}

function invalid(message) {
  return new BridgeError(Codes.invalidArgument, message);
}

// checkURL throws unless url is a ws: or wss: URL of this computer.
export function checkURL(url) {
  if (typeof url !== "string" || !url) throw invalid(`url must be a ws:// or wss:// URL such as ${DEFAULT_WEBSOCKET_URL}`);
  let u;
  try {
    u = new URL(url);
  } catch (_) {
    throw invalid(`url ${JSON.stringify(url)} is not a URL; give one such as ${DEFAULT_WEBSOCKET_URL}`);
  }
  if (u.protocol !== "ws:" && u.protocol !== "wss:") {
    throw invalid(`url ${JSON.stringify(url)} must start with ws:// or wss://`);
  }
  if (u.hash) throw invalid(`url ${JSON.stringify(url)} may not have a #fragment`);
  if (u.username || u.password) throw invalid(`url ${JSON.stringify(url)} may not carry a user or password; use the token`);
  // The URL parser has normalised the host: 127.1 and 0x7f.0.0.1 read as
  // 127.0.0.1, [0:0::1] as [::1], LOCALHOST as localhost.
  const host = u.hostname;
  if (!(host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))) {
    throw invalid(`url ${JSON.stringify(url)} is not on this computer: the bridge connects only to loopback addresses (127.0.0.0/8, localhost or [::1]), so no other machine can drive this browser; forward a remote server to a local port (ssh -L) instead`);
  }
}

// A subprotocol is an HTTP token (RFC 7230 tchar).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// checkToken throws unless token is empty or can be sent as a
// Sec-WebSocket-Protocol value.
export function checkToken(token) {
  if (token === "") return;
  if (typeof token !== "string" || !TOKEN.test(token)) {
    throw invalid("token may contain only letters, digits and the characters ! # $ % & ' * + - . ^ _ ` | ~ (no spaces or commas): it is sent as a Sec-WebSocket-Protocol value");
  }
}
