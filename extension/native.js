// The native messaging transport: one port to the browser-bridge host kept
// open while Chrome runs. An open native port keeps an MV3 service worker
// alive (verified >= 150 s of silence, see E2E.md), so this port is also
// what keeps the extension responsive. When it drops we reconnect with
// backoff; the 30 s alarm in background.js is the safety net for the case
// where the worker itself was stopped.
import { NATIVE_HOST, PROTOCOL_VERSION } from "./protocol.js";
import { dispatch } from "./dispatch.js";
import { running } from "./inflight.js";

const KEEPALIVE_MS = 20_000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30_000;

let port = null;
let backoff = BACKOFF_MIN_MS;
let retryTimer = null;
let keepaliveTimer = null;
let lastError = "";

export function status() {
  return { connected: port !== null, lastError };
}

// connect opens the port unless one is open. Safe to call often.
export function connect() {
  if (port) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  let p;
  try {
    p = chrome.runtime.connectNative(NATIVE_HOST);
  } catch (err) {
    lastError = String(err && err.message || err);
    scheduleRetry();
    return;
  }
  port = p;
  p.onMessage.addListener((msg) => onMessage(p, msg));
  p.onDisconnect.addListener(() => {
    // A missing host is silent except for lastError here.
    lastError = chrome.runtime.lastError ? chrome.runtime.lastError.message : "disconnected";
    if (port === p) port = null;
    clearInterval(keepaliveTimer);
    // Nobody will read the replies of the commands still running: stop
    // their waits (the daemon, once back, sends them again if it must).
    for (const c of running.values()) c.controller.abort();
    scheduleRetry();
  });
  Promise.all([chrome.extension.isAllowedIncognitoAccess(), instanceId()])
    .then(([allowed, instance]) => post(p, hello(allowed, instance)));
  clearInterval(keepaliveTimer);
  keepaliveTimer = setInterval(() => post(p, { type: "ping" }), KEEPALIVE_MS);
}

function scheduleRetry() {
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    connect();
  }, backoff);
  backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
}

// instanceId names this installation in this profile, so the daemon keeps
// tab ownership apart when several browsers connect (tab IDs repeat
// across browsers). Kept in storage.local: it outlives worker restarts.
async function instanceId() {
  const { instanceId: id } = await chrome.storage.local.get("instanceId");
  if (id) return id;
  const fresh = crypto.randomUUID();
  await chrome.storage.local.set({ instanceId: fresh });
  return fresh;
}

function hello(incognitoAllowed, instance) {
  return {
    type: "hello",
    version: chrome.runtime.getManifest().version,
    protocol: PROTOCOL_VERSION,
    extensionId: chrome.runtime.id,
    instanceId: instance,
    incognitoAllowed,
    userAgent: navigator.userAgent,
  };
}

async function onMessage(p, msg) {
  if (!msg || msg.type === "pong") {
    backoff = BACKOFF_MIN_MS; // the host answers: the link is healthy
    return;
  }
  backoff = BACKOFF_MIN_MS;
  post(p, await dispatch(msg));
}

// post sends msg, turning Chrome's size refusal (over 64 MiB) into an error
// reply so the daemon's call fails clearly instead of waiting for its
// deadline. The port stays open after such a refusal.
function post(p, msg) {
  try {
    p.postMessage(msg);
  } catch (err) {
    if (msg && msg.id !== undefined) {
      try {
        p.postMessage({ id: msg.id, error: { code: "internal_error", message: `result too large to send (${err.message}); narrow the request` } });
      } catch (_) { /* the port is gone; onDisconnect handles it */ }
    }
  }
}
