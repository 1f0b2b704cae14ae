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
//     actions. Its verbs are ACTIONS_HANDLERS (verbs.gen.js); its cdp is
//     the actions' allow-list (handlers/cdp.js).
//   - programDoor(owner): Hive's protocol for programs — the WebSocket
//     transport, and program.call from the daemon's local programs. Its
//     verbs are PROGRAM_HANDLERS (verbs.gen.js): Hive's, on the owner's own tabs, with
//     a cdp that refuses only the methods docs/design.md#wire-protocol
//     names (handlers/programs.js). It
//     cannot reach page.run, cdp.batch, dom.*, window.*, browser.state or
//     the actions' cdp, whatever the message says.
// Only types of VERBS that the door's table has run; anything else is
// refused with unknown_verb. The three tables are generated from
// internal/protocol/verbs.go (go generate ./internal/protocol);
// extension/verbs_test.go checks that each handler they name is a function
// one of the modules below exports.
import { BridgeError, Codes, toWireError } from "./protocol.js";
import { ACTIONS_HANDLERS, PROGRAM_HANDLERS, VERBS } from "./verbs.gen.js";
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
import * as emulate from "./handlers/emulate.js";
import * as evaluate from "./handlers/evaluate.js";
import * as record from "./handlers/record.js";
import * as trace from "./handlers/trace.js";

// The modules of the handlers the generated tables name, by the name
// they use ("tabs.create" is tabs.create); "local" is this file's own.
const modules = {
  tabs, windows, groups, cdp, files, state, page, readiness, programs, websocket,
  handoff, policy, ask, downloads, history, viewport, emulate, evaluate, record, trace,
  local: { ping, cancel, programCall },
};

// handlerTable turns a generated table of "module.function" names into
// the door's handlers; a name no module exports stops the worker at once
// rather than at the verb's first use.
function handlerTable(names) {
  const table = {};
  for (const [verb, name] of Object.entries(names)) {
    const [mod, fn] = name.split(".");
    const handler = modules[mod]?.[fn];
    if (typeof handler !== "function") throw new Error(`dispatch.js: verb ${verb}: no handler ${name}`);
    table[verb] = handler;
  }
  return table;
}

// The actions door's verbs, and the program door's.
const actions = handlerTable(ACTIONS_HANDLERS);
const programVerbs = handlerTable(PROGRAM_HANDLERS);

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
