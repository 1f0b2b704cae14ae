// The dispatcher: it runs a command with the handler of its type and
// returns the reply. It does not know which transport the command came
// from, nor imports one: background.js plugs dispatch() and the doors
// into the transports, whose session (transport/session.js) hands it the
// message and a ctx ({signal, cancel, door, wireError}) and posts the
// reply on the same connection.
//
// Doors: which verbs a command may run depends on the door its connection
// was opened onto — a property of the connection (ctx.door), never of the
// message:
//   - actionsDoor: the native link to the daemon, which drives the bridge's
//     actions. Its verbs are the table `actions` below; its cdp is the
//     actions' allow-list (handlers/cdp.js).
//   - programDoor(owner): Hive's protocol for programs — the WebSocket
//     transport, and program.call from the daemon's local programs. Its
//     verbs are the table `programs`: Hive's, on the owner's own tabs, with
//     a cdp that refuses only SPEC §4's methods (handlers/programs.js). It
//     cannot reach page.run, cdp.batch, dom.*, window.*, browser.state or
//     the actions' cdp, whatever the message says.
// Only types of VERBS (protocol.js) that the door's table has run; anything
// else is refused with unknown_verb. extension/verbs_test.go checks that
// these tables and VERBS name the same verbs, each in the right section.
import { BridgeError, Codes, VERBS, toWireError } from "./protocol.js";
import * as tabs from "./handlers/tabs.js";
import * as windows from "./handlers/windows.js";
import * as groups from "./handlers/groups.js";
import * as cdp from "./handlers/cdp.js";
import * as files from "./handlers/files.js";
import * as state from "./handlers/state.js";
import * as page from "./handlers/page.js";
import * as readiness from "./handlers/readiness.js";
import * as programs from "./handlers/programs.js";
import * as websocket from "./handlers/websocket.js";
import * as owners from "./handlers/owners.js";
import * as handoff from "./handlers/handoff.js";
import * as policy from "./handlers/policy.js";
import * as ask from "./handlers/ask.js";
import * as downloads from "./handlers/downloads.js";
import * as history from "./handlers/history.js";
import * as viewport from "./handlers/viewport.js";
import * as evaluate from "./handlers/evaluate.js";
import * as record from "./handlers/record.js";
import * as trace from "./handlers/trace.js";

// The actions door's verbs.
const actions = {
  // Hive-compatible verbs, as the bridge's primitives.
  "context.create": groups.contextCreate,
  "context.destroy": groups.contextDestroy,
  "tab.create": tabs.create,
  "tab.close": tabs.close,
  "tab.list": tabs.list,
  "tab.activate": tabs.activate,
  "tab.get": tabs.get,
  "cdp.attach": cdp.attach,
  "cdp.detach": cdp.detach,
  "cdp": cdp.send,
  // The bridge's own verbs.
  "program.call": programCall,
  "websocket.configure": websocket.configure,
  "websocket.status": websocket.report,
  "cdp.batch": cdp.batch,
  "dom.setFiles": files.setFiles,
  "dom.chooseFiles": files.chooseFiles,
  "bridge.ping": ping,
  "browser.state": state.snapshot,
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
  "readiness.net": readiness.netState,
  "command.cancel": cancel,
  // The user's side.
  "handoff.show": handoff.show,
  "policy.set": policy.set,
  "ask.show": ask.show,
  "downloads.list": downloads.list,
  "downloads.cancel": downloads.cancel,
  "downloads.limit": downloads.limit,
  // The navigation actions.
  "tab.history": history.step,
  "tab.viewport": viewport.set,
  // The exec family.
  "page.evaluate": evaluate.run,
  // The developer tools' records.
  "record.console": record.consoleRead,
  "record.network": record.networkRead,
  // performance.
  "trace.record": trace.record,
  "trace.read": trace.read,
  "trace.nodes": trace.nodes,
};

// The program door's verbs.
const programVerbs = {
  "context.create": programs.contextCreate,
  "context.destroy": programs.contextDestroy,
  "tab.create": programs.tabCreate,
  "tab.close": programs.tabClose,
  "tab.list": programs.tabList,
  "tab.activate": programs.tabActivate,
  "tab.get": programs.tabGet,
  "cdp.attach": programs.cdpAttach,
  "cdp.detach": programs.cdpDetach,
  "cdp": programs.cdp,
  "tab.listUngrouped": programs.tabListUngrouped,
  "tabGroup.list": programs.tabGroupList,
  "tab.audit": programs.tabAudit,
};

export const actionsDoor = Object.freeze({
  name: "actions",
  handlers: actions,
  cdpPolicy: cdp.actionsOnly,
  unknown: (type) => `unknown command type "${type}": the extension and the browser-bridge binary are out of step; update both`,
});

// programDoor is the door of one owner (handlers/owners.js): the
// WebSocket server at a URL, or "daemon" for the daemon's programs. A
// connection that serves the owner (the WebSocket's) calls opened(sink)
// when it opens, so the owner's events go out on it, and closed(sink)
// when it goes, so what it held is let go.
export function programDoor(owner) {
  return Object.freeze({
    name: "programs",
    owner,
    handlers: programVerbs,
    cdpPolicy: programs.programPolicy,
    admit: programs.admit,
    record: programs.record,
    opened: (sink) => owners.setSink(owner, sink),
    closed: (sink) => programs.release(owner, sink),
    unknown: (type) => `unknown command type "${type}": this connection serves ${Object.keys(programVerbs).join(", ")}`,
  });
}

// While a tab is in the user's hands no verb may drive it, and no verb
// may drive a page the site rules deny, whichever door it comes through;
// the rules follow the tabs the bridge opens.
for (const table of [actions, programVerbs]) {
  policy.followVerbs(table);
  policy.guardVerbs(table);
  handoff.guardVerbs(table);
}

// The daemon's local programs are one owner: their tabs are theirs
// whichever program made them (the daemon keeps them apart if it must).
const daemonPrograms = programDoor("daemon");

async function ping() {
  return { pong: true };
}

// cancel stops the command the daemon no longer waits for (its caller
// cancelled it, or its deadline passed), among the commands of the same
// connection. Its reply, if any, goes nowhere.
function cancel(msg, ctx) {
  return { cancelled: ctx.cancel(msg.commandId) };
}

// programCall runs command through the program door for the daemon's
// local programs; a cancel of program.call stops it too. Its errors are
// this (native) link's {code, message}.
async function programCall(msg, ctx) {
  const command = msg.command;
  if (!command || typeof command !== "object" || Array.isArray(command) || typeof command.type !== "string") {
    throw new BridgeError(Codes.invalidArgument, "command must be an object with a type");
  }
  return run({ ...command, id: msg.id }, { ...ctx, door: daemonPrograms });
}

// run runs one message on ctx's door and returns its result; it throws
// what the handler throws.
async function run(msg, ctx) {
  if (!msg || typeof msg.type !== "string") {
    throw new BridgeError(Codes.invalidArgument, "message has no type");
  }
  const door = ctx?.door;
  if (!door) throw new BridgeError(Codes.internal, "the connection was opened without a door");
  if (!Object.hasOwn(VERBS, msg.type) || !Object.hasOwn(door.handlers, msg.type)) {
    throw new BridgeError(Codes.unknownVerb, door.unknown(msg.type));
  }
  await door.admit?.(msg, ctx);
  // The bridge touched this tab: record it from now on (handlers/record.js).
  if (door === actionsDoor && msg.type !== "tab.close") record.touch(msg.tabId, msg.type);
  const started = Date.now();
  try {
    const result = (await door.handlers[msg.type](msg, ctx)) ?? {};
    door.record?.(msg, ctx, null, Date.now() - started);
    return result;
  } catch (err) {
    door.record?.(msg, ctx, err, Date.now() - started);
    throw err;
  }
}

// dispatch runs one message and returns the reply to send.
export async function dispatch(msg, ctx) {
  const id = msg && msg.id;
  try {
    return { id, result: await run(msg, ctx) };
  } catch (err) {
    return { id, error: (ctx?.wireError || toWireError)(err) };
  }
}
