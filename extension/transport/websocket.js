// The WebSocket transport: Hive's browser-bridge protocol (its protocol 6)
// served to a program's server on this computer, so a program written for
// Hive's bridge works unchanged. Opt-in and off by default: the setting
// {enabled, url, token, rev} is kept in chrome.storage.local, set by
// websocket.configure (handlers/websocket.js, from `browser-bridge
// websocket enable|disable`) — or by anything else that writes it there:
// the transport follows the stored setting, and keeps the link's state in
// chrome.storage.session for the verbs to read (wssetting.js).
//
//   - Loopback only: ws:// or wss:// to 127.0.0.0/8, localhost or [::1],
//     checked when the setting is made and again before every connect.
//     Nothing on another machine can drive the browser this way; a remote
//     program reaches it through a forwarded port (ssh -L).
//   - The token, when set, goes in the hello and as the
//     Sec-WebSocket-Protocol value. The browser then requires the server
//     to echo that subprotocol (Chrome fails a handshake that does not), so
//     a token is for servers that check one; Hive's needs none.
//   - hello on every connect: {type, version, protocolVersion: 6,
//     extensionId, profileLabel, token?}.
//   - The server's {type: "ping"} is answered with {type: "pong"} at once
//     (Hive closes a connection with 4001 after 12 s without one). When
//     the server has been silent for 20 s we ping it; after 35 s of
//     silence the link is taken for dead, closed and dialled again.
//   - Reconnects with backoff, 250 ms doubling to 30 s; the 30 s alarm in
//     background.js calls open() too. WebSocket traffic keeps an MV3
//     service worker alive (Chrome 116+), and Hive's server pings every
//     5 s; the alarm brings the link back after the worker was stopped.
//   - Commands run on the program door that background.js plugs in
//     (dispatch.js's programDoor), owned by "websocket <url>"; replies
//     are {id, result} or {id, error: "<string>"} (Chrome's own message
//     for a CDP error; "<code>: <sentence>" for the bridge's refusals).
import { BridgeError, HIVE_PROTOCOL_VERSION } from "../protocol.js";
import { LINK_KEY, SETTING_KEY, checkToken, checkURL, normalize, status as statusOf } from "../wssetting.js";
import { instanceId, openSession, reconnector } from "./session.js";

export const name = "websocket";

const LABEL_KEY = "profileLabel";
const WATCH_MS = 5_000;
const QUIET_PING_MS = 20_000;
const QUIET_CLOSE_MS = 35_000;

let config = null; // the setting, once read from storage
let sock = null; // the WebSocket, from connecting until it is closed
let link = null; // {sock, session, door, sink, heard, pinged, watch} while open
let lastError = "";
let reading = null;
let published = ""; // the link's state last written to storage
let wiring = null; // {dispatch, doorFor}, from plug
const retry = reconnector(open, { minMs: 250, maxMs: 30_000 });

// plug wires the transport (background.js): dispatch(msg, ctx) runs a
// command, and doorFor(owner) is the program door of an owner, whose
// opened(sink) and closed(sink) the transport calls as its connection
// comes and goes.
export function plug(w) {
  wiring = w;
}

export function status() {
  return statusOf(config, { connected: !!link, lastError });
}

// open connects if the transport is on and not connected. Safe to call
// often.
export function open() {
  if (sock || reading) return;
  reading = readConfig().then((cfg) => {
    reading = null;
    connect(cfg);
    publish(); // a restarted worker has no link yet, whatever the last one wrote
  }, (err) => {
    reading = null;
    lastError = `the setting could not be read: ${err.message}`;
    publish();
  });
}

// close drops the link without reconnecting (until the next open).
export function close() {
  retry.cancel();
  if (sock) ended(sock, "closed", false);
}

// Follow the setting, whoever writes it (websocket.configure, a test).
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local" || !Object.hasOwn(changes, SETTING_KEY)) return;
  const next = normalize(changes[SETTING_KEY].newValue);
  if (config && JSON.stringify(next) === JSON.stringify(config)) return;
  config = next;
  restart();
});

async function readConfig() {
  if (config) return config;
  const got = await chrome.storage.local.get(SETTING_KEY);
  config ??= normalize(got[SETTING_KEY]);
  return config;
}

// publish writes the link's state for websocket.status and the answer to
// websocket.configure, when it changed.
function publish() {
  const state = { connected: !!link, lastError, rev: config?.rev || "" };
  const json = JSON.stringify(state);
  if (json === published) return;
  published = json;
  chrome.storage.session.set({ [LINK_KEY]: state }).catch((err) => console.error("browser-bridge: the WebSocket's state not saved:", err));
}

// restart drops the current link and connects anew with the setting; an
// error of the old setting is no longer news.
function restart() {
  retry.cancel();
  retry.reset();
  lastError = "";
  if (sock) ended(sock, "", false);
  if (config.enabled) connect(config);
  publish();
}

function connect(cfg) {
  if (sock || !cfg.enabled || !wiring) return;
  retry.cancel();
  // Checked again here: the stored setting may not have come through
  // configure.
  try {
    checkURL(cfg.url);
    checkToken(cfg.token);
  } catch (err) {
    lastError = err.message;
    publish();
    return;
  }
  let s;
  try {
    s = cfg.token ? new WebSocket(cfg.url, [cfg.token]) : new WebSocket(cfg.url);
  } catch (err) {
    lastError = `${cfg.url}: ${err.message}`;
    publish();
    retry.schedule();
    return;
  }
  sock = s;
  let opened = false;
  s.onopen = () => {
    if (sock !== s) return;
    opened = true;
    lastError = "";
    start(s, cfg);
    publish();
  };
  s.onmessage = (ev) => receive(s, ev);
  s.onclose = (ev) => {
    if (sock !== s) return;
    ended(s, opened
      ? `the server closed the connection (code ${ev.code}${ev.reason ? `: ${ev.reason}` : ""})`
      : `could not connect to ${cfg.url}`);
  };
}

function start(s, cfg) {
  const door = wiring.doorFor(`websocket ${cfg.url}`);
  const session = openSession({
    name,
    post: (msg) => s.send(JSON.stringify(msg)),
    retry,
    door,
    dispatch: wiring.dispatch,
    hello: (base) => hiveHello(base, cfg),
    keepAliveMs: 0, // the watch below keeps the link alive
    wireError: hiveError,
  });
  // The program's events (its tabs' changes, the CDP events of the tabs
  // it attached) go out on this connection.
  const sink = (msg) => session.send(msg);
  door.opened?.(sink);
  const l = { sock: s, session, door, sink, heard: Date.now(), pinged: false, watch: null };
  l.watch = setInterval(() => watch(l), WATCH_MS);
  link = l;
}

function receive(s, ev) {
  const l = link;
  if (!l || l.sock !== s) return;
  l.heard = Date.now();
  l.pinged = false;
  if (typeof ev.data !== "string") return; // the protocol is JSON text
  let msg;
  try {
    msg = JSON.parse(ev.data);
  } catch (_) {
    return;
  }
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "ping") {
    retry.reset();
    try {
      s.send('{"type":"pong"}');
    } catch (_) { /* closing */ }
    return;
  }
  l.session.receive(msg);
}

// watch pings a silent server and gives up on one silent for too long
// (a half-open socket after sleep, a server that hangs).
function watch(l) {
  const quiet = Date.now() - l.heard;
  if (quiet >= QUIET_CLOSE_MS) {
    const s = l.sock;
    ended(s, `the server was silent for ${Math.round(quiet / 1000)} s`);
    return;
  }
  if (quiet >= QUIET_PING_MS && !l.pinged) {
    l.pinged = true;
    try {
      l.sock.send('{"type":"ping"}');
    } catch (_) { /* closing */ }
  }
}

// ended forgets the socket s (closing it if need be), ends its session,
// and dials again unless told not to or switched off.
function ended(s, why, reconnect = true) {
  if (sock !== s) return;
  sock = null;
  const l = link;
  if (l && l.sock === s) {
    link = null;
    clearInterval(l.watch);
    l.session.close();
    l.door.closed?.(l.sink);
  }
  if (s.readyState === WebSocket.CONNECTING || s.readyState === WebSocket.OPEN) {
    try {
      s.close(1000);
    } catch (_) { /* already closing */ }
  }
  if (why) lastError = why;
  publish();
  if (reconnect && config?.enabled) retry.schedule();
}

async function hiveHello(base, cfg) {
  return {
    type: "hello",
    version: base.version,
    protocolVersion: HIVE_PROTOCOL_VERSION,
    extensionId: base.extensionId,
    profileLabel: await profileLabel(),
    ...(cfg.token ? { token: cfg.token } : {}),
  };
}

// profileLabel names this browser profile for the server (Hive routes its
// workers by it): the browser's brand and the start of this install's
// instance ID, e.g. "chromium-1f3a9c2e". Hive writes labels into
// key=value log lines and keys by them, so a label has no spaces (its own
// look like "keen-rose-moth"); the readable name ("Chromium #1") is the
// bridge's, in status. Made once and kept in chrome.storage.local, so it
// stays the same across restarts; a label kept by an older version with a
// space ("Chromium 1f3a9c2e") is made again.
async function profileLabel() {
  const got = await chrome.storage.local.get(LABEL_KEY);
  if (typeof got[LABEL_KEY] === "string" && /^[a-z0-9-]+$/.test(got[LABEL_KEY])) return got[LABEL_KEY];
  const name = brand().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "chrome";
  const label = `${name}-${(await instanceId()).slice(0, 8)}`;
  await chrome.storage.local.set({ [LABEL_KEY]: label });
  return label;
}

function brand() {
  const brands = (navigator.userAgentData?.brands || []).map((b) => b.brand).filter((b) => !/not.?a.?brand/i.test(b));
  // "Chromium" is listed by every Chromium-based browser; prefer its own name.
  return brands.find((b) => b !== "Chromium") || brands[0] || "Chrome";
}

// hiveError is an error as Hive's protocol carries it: a string. Chrome's
// own message for its errors (Hive's server reads some, e.g. "wasn't
// found"); the code first for the bridge's refusals.
function hiveError(err) {
  if (err instanceof BridgeError) return `${err.code}: ${err.message}`;
  return String((err && err.message) || err);
}
