// chrome.debugger primitives (CDP 1.3). The passthrough refuses methods that
// would step around the bridge's limits (SPEC §4): reading cookies or
// storage, setting files (upload has its own checked path), and anything
// beyond the tab.
//
// Attachment hygiene: attaching shows Chrome's "started debugging this
// browser" bar on every tab of every window (and shrinks every viewport by
// its height), so the bridge attaches only to the tabs an action needs and
// detaches after IDLE_MS without use — a burst of actions keeps one
// attachment instead of flickering the bar per command. "Without use"
// counts from the end of the last command: the idle timer is armed only
// when no command to the tab is in flight, so a slow command (a large
// screenshot, a page that takes long to answer) is never cut off.
import { BridgeError, Codes } from "../protocol.js";
import { cancelled, intArg } from "./tabinfo.js";

const IDLE_MS = 5000;

const attached = new Map(); // tabId -> idle timer (null while commands are in flight)
const inflight = new Map(); // tabId -> number of commands in flight
const userCancelled = new Set(); // tabs whose debugging the user cancelled

// Dialogs (alert, confirm, prompt, beforeunload) stop the page: the input
// event that opened one does not finish until someone answers it. The
// Page domain tells us when one opens, so a command can return at once
// and say so instead of hanging until its deadline.
const dialogs = new Map(); // tabId -> {type, message, defaultPrompt}
const dialogWaiters = new Map(); // tabId -> Set of callbacks

chrome.debugger.onEvent.addListener((source, method, params) => {
  const tabId = source.tabId;
  if (method === "Page.javascriptDialogOpening") {
    const d = { type: params.type, message: String(params.message || "").slice(0, 500), defaultPrompt: params.defaultPrompt || "" };
    dialogs.set(tabId, d);
    for (const cb of dialogWaiters.get(tabId) || []) cb(d);
  } else if (method === "Page.javascriptDialogClosed") {
    dialogs.delete(tabId);
  }
});

// untilDialog resolves when a dialog is open on the tab; cancel() drops
// the waiter.
function untilDialog(tabId) {
  let cb;
  const promise = new Promise((resolve) => {
    cb = (d) => resolve({ __dialog: d });
    if (dialogs.has(tabId)) return cb(dialogs.get(tabId));
    if (!dialogWaiters.has(tabId)) dialogWaiters.set(tabId, new Set());
    dialogWaiters.get(tabId).add(cb);
  });
  return { promise, cancel: () => dialogWaiters.get(tabId)?.delete(cb) };
}

chrome.debugger.onDetach.addListener((source, reason) => {
  dialogs.delete(source.tabId);
  childSessions.delete(source.tabId);
  clearTimeout(attached.get(source.tabId));
  attached.delete(source.tabId);
  // The user pressed Cancel on the debugging bar: remember it so the
  // failing command says so instead of something cryptic.
  if (reason === "canceled_by_user") userCancelled.add(source.tabId);
});

// Matched case-insensitively: the browser's dispatcher is not asked to
// be strict about case on our behalf.
const DENIED = [
  /^Network\.(getCookies|getAllCookies|setCookie|setCookies|deleteCookies|clearBrowserCookies)$/i,
  /^Storage\./i, /^DOMStorage\./i, /^IndexedDB\./i, /^CacheStorage\./i,
  /^DOM\.setFileInputFiles$/i, /^Target\./i, /^Browser\./i, /^SystemInfo\./i,
];

export function deniedMethod(method) {
  return DENIED.some((re) => re.test(method));
}

// touch restarts the idle timer of an attached tab; while commands to the
// tab are in flight there is none (the last one to finish arms it).
function touch(tabId) {
  clearTimeout(attached.get(tabId));
  if ((inflight.get(tabId) || 0) > 0) {
    attached.set(tabId, null);
    return;
  }
  attached.set(tabId, setTimeout(() => {
    if ((inflight.get(tabId) || 0) > 0) return;
    attached.delete(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }, IDLE_MS));
}

// hold runs fn with the tab counted as in use: no idle detach meanwhile.
async function hold(tabId, fn) {
  inflight.set(tabId, (inflight.get(tabId) || 0) + 1);
  if (attached.has(tabId)) {
    clearTimeout(attached.get(tabId));
    attached.set(tabId, null);
  }
  try {
    return await fn();
  } finally {
    const n = (inflight.get(tabId) || 1) - 1;
    if (n > 0) inflight.set(tabId, n);
    else inflight.delete(tabId);
    if (attached.has(tabId)) touch(tabId);
  }
}

export async function attach(msg) {
  await ensureAttached(intArg(msg, "tabId"));
  return { ok: true };
}

export async function ensureAttached(tabId) {
  if (attached.has(tabId)) {
    touch(tabId);
    return;
  }
  userCancelled.delete(tabId);
  try {
    await chrome.debugger.attach({ tabId }, "1.3");
  } catch (err) {
    const m = String(err && err.message);
    if (/another debugger|already attached/i.test(m) && !/already attached to the tab with id/i.test(m)) {
      throw new BridgeError(Codes.blockedByPolicy, `another debugger (DevTools or another extension) holds this tab: ${m}. Close DevTools on that tab and try again`);
    }
    if (!/already attached/i.test(m)) throw err;
  }
  // Page events report dialogs (see untilDialog); a dialog already open
  // is announced again on enable.
  await chrome.debugger.sendCommand({ tabId }, "Page.enable").catch(() => {});
  touch(tabId);
}

export async function detach(msg) {
  const tabId = intArg(msg, "tabId");
  clearTimeout(attached.get(tabId));
  attached.delete(tabId);
  try {
    await chrome.debugger.detach({ tabId });
  } catch (err) {
    if (!/not attached/i.test(String(err && err.message))) throw err;
  }
  return { ok: true };
}

function checkMethod(method) {
  if (typeof method !== "string" || !/^[A-Za-z]+\.[A-Za-z]+$/.test(method)) {
    throw new BridgeError(Codes.invalidArgument, "method must look like Domain.method");
  }
  if (deniedMethod(method)) {
    throw new BridgeError(Codes.blockedByPolicy, `CDP method ${method} is not allowed through the bridge (cookies, storage, files and browser-wide targets are off limits; use the bridge's own actions)`);
  }
}

function sendCommand(tabId, method, params) {
  return hold(tabId, async () => {
    try {
      return (await chrome.debugger.sendCommand({ tabId }, method, params || {})) ?? {};
    } catch (err) {
      if (userCancelled.has(tabId)) {
        throw new BridgeError(Codes.blockedByPolicy, "the user cancelled the bridge's debugging session on this tab (the Cancel button of the debugging bar); run the command again to allow it");
      }
      throw err;
    }
  });
}

export async function send(msg) {
  const tabId = intArg(msg, "tabId");
  checkMethod(msg.method);
  return hold(tabId, async () => {
    await ensureAttached(tabId);
    return sendCommand(tabId, msg.method, msg.params);
  });
}

// batch runs several CDP commands in order in one round trip (a click is
// mouseMoved + mousePressed + mouseReleased: one command to the extension
// keeps the tail latency tight). It stops at the first failure, and when
// a dialog opens (or is open) it returns at once with the dialog and the
// index of the command it interrupted: that command finishes by itself
// once the dialog is answered; the daemon answers it and sends the rest.
export async function batch(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const cmds = Array.isArray(msg.commands) ? msg.commands : [];
  for (const c of cmds) checkMethod(c && c.method);
  await ensureAttached(tabId);
  const results = [];
  for (let i = 0; i < cmds.length; i++) {
    if (ctx?.signal?.aborted) throw cancelled();
    const c = cmds[i];
    const wait = untilDialog(tabId);
    const sent = sendCommand(tabId, c.method, c.params);
    sent.catch(() => {}); // an interrupted command may fail later, unheard
    try {
      const r = await Promise.race([sent, wait.promise]);
      if (r && r.__dialog) return { results, dialog: r.__dialog, interrupted: i };
      results.push(r);
    } finally {
      wait.cancel();
    }
  }
  return { results };
}

// setFiles sets the files of the file input that a page script marked with
// data-bb-upload=<token> (the isolated world's element cannot be handed to
// CDP directly; a search by attribute pierces shadow roots). Paths were
// checked by the daemon before this command was sent.
export async function setFiles(msg) {
  const tabId = intArg(msg, "tabId");
  const token = String(msg.token || "");
  if (!/^[a-f0-9]{16,64}$/.test(token)) throw new BridgeError(Codes.invalidArgument, "bad upload token");
  if (!Array.isArray(msg.files) || !msg.files.every((f) => typeof f === "string")) {
    throw new BridgeError(Codes.invalidArgument, "files must be a list of paths");
  }
  return hold(tabId, () => setFilesHeld(tabId, token, msg.files));
}

async function setFilesHeld(tabId, token, files) {
  await ensureAttached(tabId);
  await sendCommand(tabId, "DOM.getDocument", { depth: -1, pierce: true });
  const search = await sendCommand(tabId, "DOM.performSearch", { query: `[data-bb-upload="${token}"]`, includeUserAgentShadowDOM: false });
  try {
    if (!search.resultCount) {
      if (await setFilesInChildFrames(tabId, token, files)) return { ok: true };
      throw new BridgeError(Codes.elementNotFound, "the file input is not reachable from the tab's debugger");
    }
    // The token marks exactly one input. More than one means the page
    // copied the marker onto other elements: which one is ours cannot be
    // told, so no files are set.
    if (search.resultCount !== 1) {
      throw new BridgeError(Codes.blockedByPolicy, `the page copied the bridge's upload marker onto ${search.resultCount} elements, so the file input cannot be told apart; no files were set`);
    }
    const { nodeIds } = await sendCommand(tabId, "DOM.getSearchResults", { searchId: search.searchId, fromIndex: 0, toIndex: 1 });
    await setFileInputFiles(tabId, { files, nodeId: nodeIds[0] });
  } finally {
    await sendCommand(tabId, "DOM.discardSearchResults", { searchId: search.searchId }).catch(() => {});
  }
  return { ok: true };
}

// childSessions: tabId -> Map(sessionId -> targetInfo) of the tab's
// out-of-process frames, known once Target.setAutoAttach ran on the tab.
const childSessions = new Map();

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.sessionId) return; // events of the children's own children
  if (method === "Target.attachedToTarget") {
    if (!childSessions.has(source.tabId)) childSessions.set(source.tabId, new Map());
    childSessions.get(source.tabId).set(params.sessionId, params.targetInfo);
  } else if (method === "Target.detachedFromTarget") {
    childSessions.get(source.tabId)?.delete(params.sessionId);
  }
});

// setFilesInChildFrames looks for the marked input in the tab's
// out-of-process (cross-origin) frames, which the tab's own session does
// not see: each is a target of its own, reached through a flat child
// session. It reports whether it found and filled the input.
async function setFilesInChildFrames(tabId, token, files) {
  await sendCommand(tabId, "Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  for (const sessionId of childSessions.get(tabId)?.keys() || []) {
    const target = { tabId, sessionId };
    try {
      await chrome.debugger.sendCommand(target, "DOM.getDocument", { depth: -1, pierce: true });
      const search = await chrome.debugger.sendCommand(target, "DOM.performSearch", { query: `[data-bb-upload="${token}"]` });
      try {
        if (search.resultCount !== 1) continue;
        const { nodeIds } = await chrome.debugger.sendCommand(target, "DOM.getSearchResults", { searchId: search.searchId, fromIndex: 0, toIndex: 1 });
        await setFileInputFiles(tabId, { files, nodeId: nodeIds[0] }, sessionId);
        return true;
      } finally {
        await chrome.debugger.sendCommand(target, "DOM.discardSearchResults", { searchId: search.searchId }).catch(() => {});
      }
    } catch (err) {
      if (err instanceof BridgeError) throw err;
      console.warn("upload: child frame", sessionId, err); // a frame that went away
    }
  }
  return false;
}

// setFileInputFiles is DOM.setFileInputFiles with Chrome's refusal turned
// into what the user can do about it: an extension without file-URL access
// (a store install, by default) may not hand files to a page.
async function setFileInputFiles(tabId, params, sessionId) {
  try {
    if (sessionId) await chrome.debugger.sendCommand({ tabId, sessionId }, "DOM.setFileInputFiles", params);
    else await sendCommand(tabId, "DOM.setFileInputFiles", params);
  } catch (err) {
    const m = String(err && err.message);
    if (/not allowed|file access|permission/i.test(m)) {
      throw new BridgeError(Codes.blockedByPolicy, `Chrome refused to set the files (${m}): open chrome://extensions, Browser Bridge, Details, and turn on "Allow access to file URLs"`);
    }
    throw err;
  }
}

const CHOOSER_WAIT_MS = 2000;
const choosers = new Map(); // tabId -> callback for Page.fileChooserOpened

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method === "Page.fileChooserOpened") choosers.get(source.tabId)?.(params);
});

// chooseFiles is upload through the page's own file chooser, for an
// element that is not a file input but opens one when clicked (the common
// "Choose file" button in front of a hidden input). With file-chooser
// interception on, the click (trusted CDP mouse events, sent as the
// commands given) opens no dialog; Chrome reports the input behind it,
// which gets the files. It reports the files' names and sizes as the page
// sees them. Paths were checked by the daemon before this command was sent.
export async function chooseFiles(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  if (!Array.isArray(msg.files) || !msg.files.length || !msg.files.every((f) => typeof f === "string")) {
    throw new BridgeError(Codes.invalidArgument, "files must be a list of paths");
  }
  const cmds = Array.isArray(msg.commands) ? msg.commands : [];
  for (const c of cmds) {
    if (!c || c.method !== "Input.dispatchMouseEvent") throw new BridgeError(Codes.invalidArgument, "chooseFiles clicks with Input.dispatchMouseEvent only");
  }
  return hold(tabId, async () => {
    await ensureAttached(tabId);
    if (choosers.has(tabId)) throw new BridgeError(Codes.invalidArgument, "another upload is choosing files in this tab; try again when it is done");
    let opened;
    const chooser = new Promise((resolve) => { opened = resolve; });
    choosers.set(tabId, opened);
    await sendCommand(tabId, "Page.setInterceptFileChooserDialog", { enabled: true });
    try {
      const dialog = untilDialog(tabId);
      let timer;
      const clicked = (async () => {
        for (const c of cmds) await sendCommand(tabId, c.method, c.params);
        return new Promise((resolve) => { timer = setTimeout(() => resolve(null), CHOOSER_WAIT_MS); });
      })();
      const stopped = aborted(ctx);
      let got;
      try {
        got = await Promise.race([chooser, clicked, dialog.promise, stopped.promise]);
      } finally {
        clearTimeout(timer);
        dialog.cancel();
        stopped.cancel();
      }
      if (got && got.__dialog) {
        await sendCommand(tabId, "Page.handleJavaScriptDialog", { accept: false }).catch(() => {});
        throw new BridgeError(Codes.invalidArgument, `clicking the element opened a ${got.__dialog.type} dialog (dismissed), not a file chooser`);
      }
      if (!got) {
        throw new BridgeError(Codes.invalidArgument, `the element is not a file input, and clicking it opened no file chooser within ${CHOOSER_WAIT_MS} ms; locate the <input type=file> or the button that opens it`);
      }
      if (!got.backendNodeId) {
        throw new BridgeError(Codes.blockedByPolicy, "the page opened a file chooser that is not tied to a file input (the File System Access API); the bridge can only upload to file inputs");
      }
      if (got.mode === "selectSingle" && msg.files.length > 1) {
        throw new BridgeError(Codes.invalidArgument, `this file input takes one file; ${msg.files.length} were given`);
      }
      await setFileInputFiles(tabId, { files: msg.files, backendNodeId: got.backendNodeId });
      return { files: await fileNames(tabId, got.backendNodeId) };
    } finally {
      choosers.delete(tabId);
      await sendCommand(tabId, "Page.setInterceptFileChooserDialog", { enabled: false }).catch(() => {});
    }
  });
}

// fileNames reads a file input's files — names and sizes, never content.
async function fileNames(tabId, backendNodeId) {
  const { object } = await sendCommand(tabId, "DOM.resolveNode", { backendNodeId });
  try {
    const { result } = await sendCommand(tabId, "Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: "function () { return Array.from(this.files || [], (f) => ({ name: String(f.name), size: Number(f.size) })); }",
      returnByValue: true,
    });
    return Array.isArray(result && result.value) ? result.value : [];
  } finally {
    await sendCommand(tabId, "Runtime.releaseObject", { objectId: object.objectId }).catch(() => {});
  }
}

// aborted resolves when the command is cancelled (see dispatch.js).
function aborted(ctx) {
  const signal = ctx && ctx.signal;
  let cb;
  const promise = new Promise((_, reject) => {
    cb = () => reject(cancelled());
    if (signal) {
      if (signal.aborted) return cb();
      signal.addEventListener("abort", cb, { once: true });
    }
  });
  promise.catch(() => {});
  return { promise, cancel: () => signal?.removeEventListener("abort", cb) };
}
