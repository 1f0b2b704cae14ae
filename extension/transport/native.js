// The native messaging transport: one port to the browser-bridge host kept
// open while Chrome runs. An open native port keeps an MV3 service worker
// alive (verified >= 150 s of silence, see E2E.md), so this port is also
// what keeps the extension responsive. When it drops we reconnect with
// backoff (500 ms doubling to 30 s); the 30 s alarm in background.js is
// the safety net for the case where the worker itself was stopped.
// Everything else a connection does is the session's (session.js).
import { BridgeError, Codes, NATIVE_HOST } from "../protocol.js";
import { openSession, reconnector } from "./session.js";

export const name = "native";

let port = null;
let session = null;
let lastError = "";
let wiring = null; // {dispatch, door}, from plug
const retry = reconnector(open, { minMs: 500, maxMs: 30_000 });

// plug wires the transport (background.js): dispatch(msg, ctx) runs a
// command, on door. The daemon is the only peer here and it drives the
// bridge's actions: background.js gives it the actions door (CDP through
// it is the actions' allow-list); the daemon's programs reach the program
// door only through program.call.
export function plug(w) {
  wiring = w;
}

export function status() {
  return { connected: port !== null, lastError };
}

// open opens the port unless one is open. Safe to call often.
export function open() {
  if (port || !wiring) return;
  retry.cancel();
  let p;
  try {
    p = chrome.runtime.connectNative(NATIVE_HOST);
  } catch (err) {
    lastError = String(err && err.message || err);
    retry.schedule();
    return;
  }
  port = p;
  const s = openSession({ name, post: (msg) => p.postMessage(msg), retry, door: wiring.door, dispatch: wiring.dispatch });
  session = s;
  p.onMessage.addListener((msg) => s.receive(msg));
  p.onDisconnect.addListener(() => {
    // A missing host is silent except for lastError here.
    lastError = chrome.runtime.lastError ? chrome.runtime.lastError.message : "disconnected";
    if (port === p) {
      port = null;
      session = null;
    }
    s.close();
    retry.schedule();
  });
}

// close drops the port without reconnecting (until the next open). Chrome
// fires no onDisconnect for a port we disconnect ourselves.
export function close() {
  retry.cancel();
  if (!port) return;
  const p = port;
  port = null;
  session.close();
  session = null;
  p.disconnect();
}

// ask sends the daemon a request {type, ...params} and resolves with its
// result; it rejects when no native link is open, or when the daemon does
// not answer within ms (the host drops what it cannot deliver while the
// daemon is away). background.js plugs it into daemon.js, the port the
// handlers ask through.
export function ask(type, params, ms) {
  if (!session) {
    return Promise.reject(new BridgeError(Codes.internal, "the extension has no link to the bridge's daemon"));
  }
  return session.request({ type, ...params }, ms);
}
