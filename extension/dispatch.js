// The dispatcher: it runs a command with the handler of its type and
// returns the reply. Only the types of VERBS (protocol.js) run; anything
// else is refused with unknown_verb: the daemon decides what an action
// means and may only use these primitives. extension/verbs_test.go checks
// that this table and VERBS name the same verbs.
import { BridgeError, Codes, VERBS, toWireError } from "./protocol.js";
import * as tabs from "./handlers/tabs.js";
import * as windows from "./handlers/windows.js";
import * as groups from "./handlers/groups.js";
import * as cdp from "./handlers/cdp.js";
import * as files from "./handlers/files.js";
import * as state from "./handlers/state.js";
import * as page from "./handlers/page.js";
import * as readiness from "./handlers/readiness.js";
import { running } from "./inflight.js";

const handlers = {
  // Hive-compatible verbs.
  "context.create": groups.contextCreate,
  "context.destroy": groups.contextDestroy,
  "tab.create": tabs.create,
  "tab.close": tabs.close,
  "tab.list": tabs.list,
  "tab.activate": tabs.activate,
  "cdp.attach": cdp.attach,
  "cdp.detach": cdp.detach,
  "cdp": cdp.send,
  // The bridge's own verbs.
  "cdp.batch": cdp.batch,
  "dom.setFiles": files.setFiles,
  "dom.chooseFiles": files.chooseFiles,
  "bridge.ping": ping,
  "browser.state": state.snapshot,
  "tab.get": tabs.get,
  "tab.opened": tabs.opened,
  "tab.navigate": tabs.navigate,
  "tab.waitLoad": tabs.waitForLoad,
  "tab.frames": tabs.frames,
  "tab.group": groups.group,
  "window.create": windows.create,
  "window.close": windows.close,
  "page.run": page.run,
  "readiness.enable": readiness.enable,
  "readiness.disable": readiness.disable,
  "command.cancel": cancel,
};

async function ping() {
  return { pong: true };
}

// cancel stops the command the daemon no longer waits for (its caller
// cancelled it, or its deadline passed). Its reply, if any, goes nowhere.
function cancel(msg) {
  const c = running.get(msg.commandId);
  if (c) c.controller.abort();
  return { cancelled: !!c };
}

// dispatch runs one message and returns the reply to send.
export async function dispatch(msg) {
  const id = msg && msg.id;
  try {
    if (!msg || typeof msg.type !== "string") {
      throw new BridgeError(Codes.invalidArgument, "message has no type");
    }
    const fn = Object.hasOwn(VERBS, msg.type) && Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : undefined;
    if (!fn) {
      throw new BridgeError(Codes.unknownVerb, `unknown command type "${msg.type}": the extension and the browser-bridge binary are out of step; update both`);
    }
    const controller = new AbortController();
    const tracked = id != null && msg.type !== "command.cancel" && !running.has(id);
    if (tracked) running.set(id, { controller, type: msg.type });
    try {
      return { id, result: (await fn(msg, { signal: controller.signal })) ?? {} };
    } finally {
      if (tracked) running.delete(id);
    }
  } catch (err) {
    return { id, error: toWireError(err) };
  }
}
