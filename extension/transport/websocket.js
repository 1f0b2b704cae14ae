// The WebSocket transport: Hive's browser-bridge protocol (its protocol 6)
// served to a program's server on this computer, so a program written for
// Hive's bridge works unchanged. Opt-in and off by default: the setting
// {enabled, url, token} is kept in chrome.storage.local, set by
// websocket.configure (from `browser-bridge websocket enable|disable`) —
// or by anything else that writes it there: the transport follows the
// stored setting.
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
//   - Commands run on the program door (dispatch.js), owned by "websocket
//     <url>"; replies are {id, result} or {id, error: "<string>"} (Chrome's
//     own message for a CDP error; "<code>: <sentence>" for the bridge's
//     refusals).
import { BridgeError, Codes, DEFAULT_WEBSOCKET_URL, HIVE_PROTOCOL_VERSION } from "../protocol.js";
import { programDoor } from "../dispatch.js";
import { release } from "../handlers/programs.js";
import * as owners from "../handlers/owners.js";
import { instanceId, openSession, reconnector } from "./session.js";

export const name = "websocket";

const KEY = "websocket"; // chrome.storage.local: {enabled, url, token}
const LABEL_KEY = "profileLabel";
const WATCH_MS = 5_000;
const QUIET_PING_MS = 20_000;
const QUIET_CLOSE_MS = 35_000;
const CONFIGURE_WAIT_MS = 2_000;

let config = null; // the setting, once read from storage
let sock = null; // the WebSocket, from connecting until it is closed
let link = null; // {sock, session, owner, sink, heard, pinged, watch} while open
let lastError = "";
let reading = null;
let retry = null;
const settledWaiters = new Set();

// backoff is made on first use: this module is evaluated inside the
// import cycle session.js → dispatch.js → here.
function backoff() {
  retry ??= reconnector(open, { minMs: 250, maxMs: 30_000 });
  return retry;
}

export function status() {
  return {
    enabled: !!config?.enabled,
    url: config?.url || DEFAULT_WEBSOCKET_URL,
    tokenSet: !!config?.token,
    connected: !!link,
    lastError,
  };
}

// open connects if the transport is on and not connected. Safe to call
// often.
export function open() {
  if (sock || reading) return;
  reading = readConfig().then((cfg) => {
    reading = null;
    connect(cfg);
  }, (err) => {
    reading = null;
    lastError = `the setting could not be read: ${err.message}`;
  });
}

// close drops the link without reconnecting (until the next open).
export function close() {
  backoff().cancel();
  if (sock) ended(sock, "closed", false);
}

// configure is the websocket.configure verb: {enabled, url, token}.
// enabled: true takes url (default Hive's) and token (none when absent);
// enabled: false keeps both for the next enable. It answers with the
// status once the first connection has opened or failed (up to 2 s).
export async function configure(msg) {
  if (typeof msg.enabled !== "boolean") throw invalid("enabled must be true or false");
  const cur = await readConfig();
  let next;
  if (msg.enabled) {
    const url = msg.url === undefined || msg.url === null || msg.url === "" ? DEFAULT_WEBSOCKET_URL : msg.url;
    const token = msg.token === undefined || msg.token === null ? "" : msg.token;
    checkURL(url);
    checkToken(token);
    next = { enabled: true, url, token };
  } else {
    next = { ...cur, enabled: false };
    if (msg.url) {
      checkURL(msg.url);
      next.url = msg.url;
    }
    if (msg.token !== undefined && msg.token !== null) {
      checkToken(msg.token);
      next.token = msg.token;
    }
  }
  // Set before the write: the storage event it causes then finds nothing new.
  config = next;
  await chrome.storage.local.set({ [KEY]: next });
  restart();
  if (next.enabled && !link) await settled(CONFIGURE_WAIT_MS);
  return status();
}

// report is the websocket.status verb.
export async function report() {
  await readConfig();
  return status();
}

// The setting may change from elsewhere (another configure path, a test):
// follow it.
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local" || !Object.hasOwn(changes, KEY)) return;
  const next = normalize(changes[KEY].newValue);
  if (config && JSON.stringify(next) === JSON.stringify(config)) return;
  config = next;
  restart();
});

async function readConfig() {
  if (config) return config;
  const got = await chrome.storage.local.get(KEY);
  config ??= normalize(got[KEY]);
  return config;
}

function normalize(v) {
  return {
    enabled: v?.enabled === true,
    url: typeof v?.url === "string" && v.url ? v.url : DEFAULT_WEBSOCKET_URL,
    token: typeof v?.token === "string" ? v.token : "",
  };
}

// restart drops the current link and connects anew with the setting.
function restart() {
  backoff().cancel();
  backoff().reset();
  if (sock) ended(sock, "", false);
  if (config.enabled) connect(config);
  else lastError = "";
}

function connect(cfg) {
  if (sock || !cfg.enabled) return;
  backoff().cancel();
  // Checked again here: the stored setting may not have come through
  // configure.
  try {
    checkURL(cfg.url);
    checkToken(cfg.token);
  } catch (err) {
    lastError = err.message;
    notifySettled();
    return;
  }
  let s;
  try {
    s = cfg.token ? new WebSocket(cfg.url, [cfg.token]) : new WebSocket(cfg.url);
  } catch (err) {
    lastError = `${cfg.url}: ${err.message}`;
    notifySettled();
    backoff().schedule();
    return;
  }
  sock = s;
  let opened = false;
  s.onopen = () => {
    if (sock !== s) return;
    opened = true;
    lastError = "";
    start(s, cfg);
    notifySettled();
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
  const owner = `websocket ${cfg.url}`;
  const session = openSession({
    name,
    post: (msg) => s.send(JSON.stringify(msg)),
    retry: backoff(),
    door: programDoor(owner),
    hello: (base) => hiveHello(base, cfg),
    keepAliveMs: 0, // the watch below keeps the link alive
    wireError: hiveError,
  });
  const sink = (msg) => session.send(msg);
  owners.setSink(owner, sink);
  const l = { sock: s, session, owner, sink, heard: Date.now(), pinged: false, watch: null };
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
    backoff().reset();
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
    release(l.owner, l.sink);
  }
  if (s.readyState === WebSocket.CONNECTING || s.readyState === WebSocket.OPEN) {
    try {
      s.close(1000);
    } catch (_) { /* already closing */ }
  }
  if (why) lastError = why;
  notifySettled();
  if (reconnect && config?.enabled) backoff().schedule();
}

function settled(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      settledWaiters.delete(done);
      resolve();
    }
    settledWaiters.add(done);
  });
}

function notifySettled() {
  for (const done of [...settledWaiters]) done();
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
