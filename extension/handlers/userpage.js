// The service worker's side of the extension's own pages (ui/): the page
// (popup, side panel, tab) and the hand-off frame ask here with
// chrome.runtime.sendMessage, and the worker answers from Chrome and, over
// the port to the daemon (daemon.js), from it (ui.state, ui.pause, ui.evaluate, ui.replay).
//
// Only the extension's own pages are answered: a content script or a web
// page has another sender URL (a web page cannot message the extension at
// all, as the manifest has no externally_connectable), and Chrome, not the
// sender, fills it in.
import { BridgeError, Codes, PROTOCOL_VERSION, TYPE_UI_EVALUATE, TYPE_UI_PAUSE, TYPE_UI_REPLAY, TYPE_UI_STATE, toWireError } from "../protocol.js";
import * as daemon from "../daemon.js";
import * as handoff from "./handoff.js";
import * as policy from "./policy.js";

// How long the page waits for the daemon: it asks every second, and a
// daemon that does not answer within this is "not running".
const ASK_MS = 2000;

let transports = [];

// listen answers the extension's pages; transports are background.js's
// list, for their states.
export function listen(list) {
  transports = list;
  chrome.runtime.onMessage.addListener((req, sender, reply) => {
    if (sender.id !== chrome.runtime.id || !String(sender.url || "").startsWith(chrome.runtime.getURL("ui/"))) return false;
    answer(req).then(reply, (err) => reply({ error: toWireError(err) }));
    return true; // the reply comes later
  });
}

async function answer(req) {
  switch (req && req.type) {
    case "ui.state":
      return state();
    case "ui.pause":
      return daemon.ask(TYPE_UI_PAUSE, { paused: !!req.paused }, ASK_MS);
    case "ui.evaluate":
      return daemon.ask(TYPE_UI_EVALUATE, { on: req.on === true }, ASK_MS);
    case "ui.replay": {
      const n = (v) => (Number.isSafeInteger(v) && v >= 0 ? v : undefined);
      return daemon.ask(TYPE_UI_REPLAY, { windowId: n(req.windowId), from: n(req.from), before: n(req.before), seq: n(req.seq) }, ASK_MS);
    }
    case "ui.retry":
      for (const t of transports) t.open();
      return {};
    case "handoff.get":
      return handoff.get(req.token);
    case "handoff.answer":
      return handoff.answer(req.token, req.outcome);
    case "handoff.move":
      return handoff.move(req.token);
  }
  throw new BridgeError(Codes.invalidArgument, `unknown request ${JSON.stringify(req && req.type)}`);
}

// state is everything the page shows.
async function state() {
  const [incognitoAllowed, fileAccess] = await Promise.all([
    chrome.extension.isAllowedIncognitoAccess(),
    chrome.extension.isAllowedFileSchemeAccess(),
  ]);
  const out = {
    extension: { id: chrome.runtime.id, version: chrome.runtime.getManifest().version, protocol: PROTOCOL_VERSION },
    transports: transports.map((t) => ({ name: t.name, ...t.status() })),
    incognitoAllowed,
    fileAccess,
    handoffs: handoff.list(),
    policy: policy.summary(),
  };
  try {
    out.daemon = await daemon.ask(TYPE_UI_STATE, {}, ASK_MS);
  } catch (err) {
    out.daemonError = toWireError(err);
  }
  return out;
}
