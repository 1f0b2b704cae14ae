// What every transport shares: one session per open connection.
//
// A transport (native.js, websocket.js) owns its link — opening it,
// noticing that it closed, reconnecting — and nothing else. For each link
// it opens it calls
//
//   const session = openSession({ name, post, retry, door, dispatch, hello, keepAliveMs, wireError });
//   link's "message" event  → session.receive(msg)
//   link closed (any cause) → session.close()
//
// where post(msg) writes one message on that link and throws when the link
// refuses it (too large, already closed), and retry is the transport's
// reconnector() below. The session then
//   - says hello (version, protocol, extensionId, instanceId,
//     browserSession, incognitoAllowed, userAgent; hello(base) may
//     reshape it, and may return a promise, e.g. for Hive's
//     protocolVersion 6 and profileLabel),
//   - sends {type: "ping"} every keepAliveMs (20 s; 0 turns it off for a
//     transport that keeps its link alive itself),
//   - resets the transport's backoff on any traffic (the link is healthy),
//   - hands every command to dispatch(msg, ctx) — dispatch.js's, which
//     background.js plugs into the transport and which does not know the
//     transport — and posts the reply on the same link,
//   - keeps the commands in flight on this connection, so command.cancel
//     (ctx.cancel) stops them and close() aborts them,
//   - turns a reply the link refuses (over Chrome's 64 MiB) into an error
//     reply, so the caller fails clearly instead of waiting for its deadline,
//   - sends the extension's own requests to the peer (request(), used for
//     the daemon's paths.check, ui.state and ui.pause) and routes their
//     answers — a message with an id and a result or error but no type —
//     back to the caller.
//
// ctx, for the handlers: {signal, cancel(commandId), door, wireError}. The
// door (dispatch.js) is chosen here, once per connection, by the
// transport from what background.js plugged into it: it decides which verbs run and how CDP passes, so a message
// cannot pick a more open door than its connection's. wireError shapes an
// error for this link (the actions' {code, message}; Hive's plain string).
//
// A transport module exports name, plug() (background.js hands it the
// dispatcher and its door), open() (idempotent: background.js calls it on
// every wake-up; a transport that is switched off returns at once),
// close() and status(). It imports no handler and not the dispatcher, so
// the modules form a tree. Adding one is that file plus its lines in
// background.js.
import { BridgeError, Codes, PROTOCOL_VERSION, toWireError } from "../protocol.js";
import { createInflight } from "./inflight.js";

const KEEPALIVE_MS = 20_000;

export function openSession({ name, post, retry, door, dispatch, hello = (base) => base, keepAliveMs = KEEPALIVE_MS, wireError = toWireError }) {
  const inflight = createInflight();
  const asked = new Map(); // id of our request -> {resolve, reject, timer}
  let nextAsk = 0;
  let closed = false;

  // send posts msg; a reply too large for the link becomes an error reply
  // (the link stays open after such a refusal). Once closed, nothing is
  // sent: the replies of commands still finishing go nowhere.
  const send = (msg) => {
    if (closed) return;
    try {
      post(msg);
    } catch (err) {
      if (msg && msg.id !== undefined) {
        try {
          post({ id: msg.id, error: wireError(new BridgeError(Codes.internal, `result too large to send (${err.message}); narrow the request`)) });
        } catch (_) { /* the link is gone; the transport closes the session */ }
      }
    }
  };

  Promise.all([chrome.extension.isAllowedIncognitoAccess(), instanceId(), browserSession(), hasFocus()])
    .then(([incognitoAllowed, instance, session, focused]) => hello(helloMessage(incognitoAllowed, instance, session, focused)))
    .then(send)
    .catch((err) => console.error("browser-bridge: no hello sent:", err)); // the peer then reports the missing hello
  const keepalive = keepAliveMs > 0 ? setInterval(() => send({ type: "ping" }), keepAliveMs) : null;

  return {
    name,
    door,
    async receive(msg) {
      retry?.reset(); // the peer answers: the link is healthy
      if (closed || !msg || msg.type === "pong") return;
      if (msg.type === undefined && msg.id !== undefined && ("result" in msg || "error" in msg)) {
        answered(msg);
        return;
      }
      const { signal, untrack } = inflight.track(msg.id, msg.type);
      const ctx = { signal, cancel: (id) => inflight.cancel(id), door, wireError };
      try {
        send(await dispatch(msg, ctx));
      } finally {
        untrack();
      }
    },
    send,
    // request sends {id: "ext-<n>", ...msg} to the peer and resolves with
    // its result, or rejects with its error (a BridgeError with the
    // peer's code and fromPeer set) or when ms pass or the link closes
    // first.
    request(msg, ms) {
      if (closed) return Promise.reject(new BridgeError(Codes.internal, "the connection closed"));
      const id = `ext-${++nextAsk}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          asked.delete(id);
          reject(new BridgeError(Codes.timeout, `no answer to ${msg.type} within ${Math.round(ms / 1000)} s`));
        }, ms);
        asked.set(id, { resolve, reject, timer });
        try {
          post({ id, ...msg });
        } catch (err) {
          clearTimeout(timer);
          asked.delete(id);
          reject(err);
        }
      });
    },
    // close ends the session: no more keep-alives, and the commands still
    // running stop their waits (the daemon, once back, sends them again if
    // it must).
    close() {
      if (closed) return;
      closed = true;
      clearInterval(keepalive);
      inflight.drop();
      for (const a of asked.values()) {
        clearTimeout(a.timer);
        a.reject(new BridgeError(Codes.internal, "the connection closed before the answer came"));
      }
      asked.clear();
    },
  };

  // answered settles the request the peer answered; an answer nobody waits
  // for (it came too late) is dropped.
  function answered(msg) {
    const a = asked.get(msg.id);
    if (!a) return;
    asked.delete(msg.id);
    clearTimeout(a.timer);
    if (msg.error === undefined || msg.error === null) {
      a.resolve(msg.result ?? {});
      return;
    }
    const e = msg.error;
    const err = typeof e === "string"
      ? new BridgeError(Codes.internal, e)
      : new BridgeError(e.code || Codes.internal, e.message || String(e.code || "the peer refused"));
    err.fromPeer = true; // the peer's answer, not a lost link
    a.reject(err);
  }
}

// reconnector schedules connect() after a delay that doubles from minMs to
// maxMs; reset() (any traffic on the link) brings it back to minMs.
export function reconnector(connect, { minMs, maxMs }) {
  let delay = minMs;
  let timer = null;
  return {
    schedule() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        connect();
      }, delay);
      delay = Math.min(delay * 2, maxMs);
    },
    cancel() {
      clearTimeout(timer);
      timer = null;
    },
    reset() {
      delay = minMs;
    },
  };
}

// instanceId names this installation in this profile, so the daemon keeps
// tab ownership apart when several browsers connect (tab IDs repeat
// across browsers). Kept in storage.local: it outlives worker restarts.
export async function instanceId() {
  const { instanceId: id } = await chrome.storage.local.get("instanceId");
  if (id) return id;
  const fresh = crypto.randomUUID();
  await chrome.storage.local.set({ instanceId: fresh });
  return fresh;
}

// browserSession names this run of the browser: chrome.storage.session
// survives service-worker restarts but not a browser restart. Tab IDs are
// unique only within one run, so the daemon keeps ownership per run — a
// restarted browser that reuses tab 12 for the user's own tab must not
// find it marked as the bridge's.
async function browserSession() {
  const { browserSession: id } = await chrome.storage.session.get("browserSession");
  if (id) return id;
  const fresh = crypto.randomUUID();
  await chrome.storage.session.set({ browserSession: fresh });
  return fresh;
}

// hasFocus says whether a window of this browser has the focus now: the
// daemon's default browser is the one the user focused last.
async function hasFocus() {
  try {
    const w = await chrome.windows.getLastFocused();
    return Boolean(w && w.focused);
  } catch (_) {
    return false; // no window at all
  }
}

// brand is the browser's name (Chromium, Google Chrome, Microsoft Edge…)
// for the daemon's label of it; the user agent says "Chrome" for all.
function brand() {
  const brands = (navigator.userAgentData && navigator.userAgentData.brands) || [];
  const named = brands.map((b) => b.brand).filter((b) => !/not.?a.?brand/i.test(b));
  return named.find((b) => b !== "Chromium") || named[0] || "";
}

function helloMessage(incognitoAllowed, instance, session, focused) {
  return {
    type: "hello",
    version: chrome.runtime.getManifest().version,
    protocol: PROTOCOL_VERSION,
    extensionId: chrome.runtime.id,
    instanceId: instance,
    browserSession: session,
    incognitoAllowed,
    userAgent: navigator.userAgent,
    brand: brand(),
    focused,
  };
}
