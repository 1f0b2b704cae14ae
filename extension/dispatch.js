// The dispatcher: it runs a command with the handler of its type and
// returns the reply. It does not know which transport the command came
// from: the session (transport/session.js) hands it the message and a ctx
// ({signal, cancel, cdpPolicy}) and posts the reply on the same
// connection. Only the types of VERBS (protocol.js) run; anything else is
// refused with unknown_verb: the daemon decides what an action means and
// may only use these primitives. extension/verbs_test.go checks that this
// table and VERBS name the same verbs.
import { BridgeError, Codes, VERBS, toWireError } from "./protocol.js";
import * as tabs from "./handlers/tabs.js";
import * as windows from "./handlers/windows.js";
import * as groups from "./handlers/groups.js";
import * as cdp from "./handlers/cdp.js";
import * as files from "./handlers/files.js";
import * as state from "./handlers/state.js";
import * as page from "./handlers/page.js";
import * as readiness from "./handlers/readiness.js";
import * as downloads from "./handlers/downloads.js";

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
  "downloads.list": downloads.list,
  "downloads.cancel": downloads.cancel,
};

async function ping() {
  return { pong: true };
}

// cancel stops the command the daemon no longer waits for (its caller
// cancelled it, or its deadline passed), among the commands of the same
// connection. Its reply, if any, goes nowhere.
function cancel(msg, ctx) {
  return { cancelled: ctx.cancel(msg.commandId) };
}

// dispatch runs one message and returns the reply to send.
export async function dispatch(msg, ctx) {
  const id = msg && msg.id;
  try {
    if (!msg || typeof msg.type !== "string") {
      throw new BridgeError(Codes.invalidArgument, "message has no type");
    }
    if (!Object.hasOwn(VERBS, msg.type) || !Object.hasOwn(handlers, msg.type)) {
      throw new BridgeError(Codes.unknownVerb, `unknown command type "${msg.type}": the extension and the browser-bridge binary are out of step; update both`);
    }
    return { id, result: (await handlers[msg.type](msg, ctx)) ?? {} };
  } catch (err) {
    return { id, error: toWireError(err) };
  }
}
