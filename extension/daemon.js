// The daemon as handlers see it: one port, ask(), that a transport plugs
// into. background.js plugs the native transport in (the only link to
// the daemon); a handler that needs the daemon — the user's pause, the
// upload path check, the audit of a program's command — imports this
// file, never a transport, so the modules form a tree.
import { BridgeError, Codes } from "./protocol.js";

let asker = null;

// plug gives the port its transport: fn(type, params, ms) sends the
// daemon a request and resolves with its result.
export function plug(fn) {
  asker = fn;
}

// ask sends the daemon a request {type, ...params} and resolves with its
// result; it rejects when nothing is plugged in, when the transport has no
// link, or when the daemon does not answer within ms.
export function ask(type, params, ms) {
  if (!asker) {
    return Promise.reject(new BridgeError(Codes.internal, "the extension has no link to the bridge's daemon"));
  }
  return asker(type, params, ms);
}
