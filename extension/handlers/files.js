// Upload: handing files the daemon has checked to a page's file input,
// through chrome.debugger. Two ways in:
//   - dom.setFiles: a page script marked the input with a one-time token;
//     the debugger finds it by that attribute (in the tab, or in one of its
//     out-of-process frames) and sets the files.
//   - dom.chooseFiles: the target is a button that opens a file chooser;
//     it is clicked while Chrome hands file choosers to the debugger
//     instead of showing them, and the input behind the chooser gets the
//     files.
// Out-of-process (cross-origin) frames are targets of their own, which the
// tab's session does not see: they are reached through flat child sessions
// (Target.setAutoAttach; chrome.debugger sends to them with a sessionId
// since Chrome 125).
import { BridgeError, Codes } from "../protocol.js";
import { cancelled, intArg } from "./tabinfo.js";
import { aborted, ensureAttached, hold, sendCommand, untilDialog } from "./cdp.js";

const CHOOSER_WAIT_MS = 2000; // for the chooser, after the click
const SETTLE_MS = 2000; // for a click still running when the wait ended

// childSessions: tabId -> Set of the sessionIds of the tab's out-of-process
// frames, known while auto-attach is on for the tab.
const childSessions = new Map();
// choosers: tabId -> callback for Page.fileChooserOpened while an upload
// waits for one.
const choosers = new Map();

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method === "Page.fileChooserOpened") {
    choosers.get(source.tabId)?.(source, params);
    return;
  }
  if (source.sessionId) return; // a child's own children are not tracked
  if (method === "Target.attachedToTarget") {
    if (!childSessions.has(source.tabId)) childSessions.set(source.tabId, new Set());
    childSessions.get(source.tabId).add(params.sessionId);
  } else if (method === "Target.detachedFromTarget") {
    childSessions.get(source.tabId)?.delete(params.sessionId);
  }
});

chrome.debugger.onDetach.addListener((source) => {
  childSessions.delete(source.tabId);
  choosers.delete(source.tabId);
});

// send sends a CDP command to the tab ({tabId}) or to one of its child
// sessions ({tabId, sessionId}), with the tab counted as in use.
function send(target, method, params) {
  if (!target.sessionId) return sendCommand(target.tabId, method, params);
  return hold(target.tabId, async () => {
    try {
      return (await chrome.debugger.sendCommand(target, method, params || {})) ?? {};
    } catch (err) {
      const m = String(err && err.message);
      if (/sessionId/i.test(m) && /unexpected|invalid|unknown/i.test(m)) {
        throw new BridgeError(Codes.blockedByPolicy, `this browser cannot reach cross-origin frames through the debugger (${m}); it needs Chrome 125 or later`);
      }
      throw err;
    }
  });
}

// children turns auto-attach on for the tab and returns its out-of-process
// frames as targets (Chrome reports the frames that exist before it
// answers).
async function children(tabId) {
  await sendCommand(tabId, "Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  return Array.from(childSessions.get(tabId) || [], (sessionId) => ({ tabId, sessionId }));
}

// stopChildren turns auto-attach off again, so ad frames and workers do not
// keep sending events for the rest of the attachment.
async function stopChildren(tabId) {
  await sendCommand(tabId, "Target.setAutoAttach", { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => {});
  childSessions.delete(tabId);
}

function checkFiles(msg) {
  if (!Array.isArray(msg.files) || !msg.files.length || !msg.files.every((f) => typeof f === "string")) {
    throw new BridgeError(Codes.invalidArgument, "files must be a list of paths");
  }
}

// setFiles sets the files of the file input that a page script marked with
// data-bb-upload=<token> (the isolated world's element cannot be handed to
// CDP directly; a search by attribute pierces shadow roots). Paths were
// checked by the daemon before this command was sent.
export async function setFiles(msg) {
  const tabId = intArg(msg, "tabId");
  const token = String(msg.token || "");
  if (!/^[a-f0-9]{16,64}$/.test(token)) throw new BridgeError(Codes.invalidArgument, "bad upload token");
  checkFiles(msg);
  return hold(tabId, async () => {
    await ensureAttached(tabId);
    const top = { tabId };
    let found = await findMarked(top, token);
    let kids = [];
    try {
      if (!found.length) {
        kids = await children(tabId);
        for (const t of kids) found = found.concat(await findMarked(t, token).catch(() => [])); // a frame that went away
      }
      if (!found.length) {
        throw new BridgeError(Codes.elementNotFound, "the file input is not reachable from the tab's debugger (a frame inside a cross-origin frame, or the page replaced the input); locate it again and retry");
      }
      // The token marks exactly one input. More than one means the page
      // copied the marker onto other elements: which one is ours cannot be
      // told, so no files are set.
      if (found.length !== 1) {
        throw new BridgeError(Codes.blockedByPolicy, `the page copied the bridge's upload marker onto ${found.length} elements, so the file input cannot be told apart; no files were set`);
      }
      await setFileInputFiles(found[0].target, { files: msg.files, backendNodeId: found[0].backendNodeId });
    } finally {
      if (kids.length || childSessions.has(tabId)) await stopChildren(tabId);
    }
    return { ok: true };
  });
}

// findMarked returns the elements carrying the upload marker in target's
// document, as {target, backendNodeId}.
async function findMarked(target, token) {
  await send(target, "DOM.getDocument", { depth: -1, pierce: true });
  const search = await send(target, "DOM.performSearch", { query: `[data-bb-upload="${token}"]`, includeUserAgentShadowDOM: false });
  try {
    if (!search.resultCount) return [];
    const { nodeIds } = await send(target, "DOM.getSearchResults", { searchId: search.searchId, fromIndex: 0, toIndex: Math.min(search.resultCount, 10) });
    const out = [];
    for (const nodeId of nodeIds) {
      const { node } = await send(target, "DOM.describeNode", { nodeId });
      out.push({ target, backendNodeId: node.backendNodeId });
    }
    return out;
  } finally {
    await send(target, "DOM.discardSearchResults", { searchId: search.searchId }).catch(() => {});
  }
}

// setFileInputFiles is DOM.setFileInputFiles with Chrome's refusal turned
// into what the user can do about it: an extension without file-URL access
// (a store install, by default) may not hand files to a page.
async function setFileInputFiles(target, params) {
  try {
    await send(target, "DOM.setFileInputFiles", params);
  } catch (err) {
    const m = String(err && err.message);
    if (/not allowed|file access|permission/i.test(m)) {
      throw new BridgeError(Codes.blockedByPolicy, `Chrome refused to set the files (${m}): open chrome://extensions, Browser Bridge, Details, and turn on "Allow access to file URLs"`);
    }
    throw err;
  }
}

// chooseFiles is upload through the page's own file chooser, for an
// element that is not a file input but opens one when clicked (the common
// "Choose file" button in front of a hidden input). The click is the
// trusted CDP mouse events given as commands. inFrame says the element is
// in a child frame, which may be out of process: interception is then
// turned on in the frames' sessions too. It reports the files' names and
// sizes as the input holds them. Paths were checked by the daemon.
export async function chooseFiles(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  checkFiles(msg);
  const cmds = Array.isArray(msg.commands) ? msg.commands : [];
  if (!cmds.length || !cmds.every((c) => c && c.method === "Input.dispatchMouseEvent")) {
    throw new BridgeError(Codes.invalidArgument, "chooseFiles clicks with Input.dispatchMouseEvent commands only");
  }
  return hold(tabId, async () => {
    if (ctx?.signal?.aborted) throw cancelled();
    await ensureAttached(tabId);
    if (choosers.has(tabId)) throw new BridgeError(Codes.timeout, "another upload is choosing files in this tab; try again when it is done");
    let opened;
    const chooser = new Promise((resolve) => { opened = resolve; });
    choosers.set(tabId, (source, params) => opened({ source, params }));
    const targets = [{ tabId }];
    let clicked = Promise.resolve();
    let stop = false;
    try {
      if (msg.inFrame) targets.push(...(await children(tabId)));
      for (const t of targets) {
        const on = (async () => {
          await send(t, "Page.enable");
          await send(t, "Page.setInterceptFileChooserDialog", { enabled: true });
        })();
        // The tab's own session must intercept; a child frame that went
        // away meanwhile does not matter.
        if (!t.sessionId) await on;
        else await on.catch(() => {});
      }
      clicked = (async () => {
        for (const c of cmds) {
          if (stop) return;
          await sendCommand(tabId, c.method, c.params);
        }
      })();
      clicked.catch(() => {});
      let timer;
      const waited = clicked.then(() => new Promise((resolve) => { timer = setTimeout(() => resolve(null), CHOOSER_WAIT_MS); }));
      const dialog = untilDialog(tabId);
      const stopped = aborted(ctx);
      let got;
      try {
        got = await Promise.race([chooser, waited, dialog.promise, stopped.promise]);
      } finally {
        stop = true;
        clearTimeout(timer);
        dialog.cancel();
        stopped.cancel();
      }
      if (got && got.__dialog) {
        await sendCommand(tabId, "Page.handleJavaScriptDialog", { accept: false }).catch(() => {});
        throw new BridgeError(Codes.invalidArgument, `a ${got.__dialog.type} dialog opened (the bridge dismissed it) instead of a file chooser: ${got.__dialog.message}`);
      }
      if (!got) {
        throw new BridgeError(Codes.invalidArgument, `the element is not a file input, and clicking it opened no file chooser within ${CHOOSER_WAIT_MS} ms; locate the <input type=file> (it may be hidden) or the button that opens it`);
      }
      const { source, params } = got;
      if (!params.backendNodeId) {
        throw new BridgeError(Codes.blockedByPolicy, "the page opened a file chooser that is not tied to a file input (the File System Access API); the bridge can only upload to file inputs");
      }
      if (params.mode === "selectSingle" && msg.files.length > 1) {
        throw new BridgeError(Codes.invalidArgument, `this file input takes one file; ${msg.files.length} were given`);
      }
      const target = source.sessionId ? { tabId, sessionId: source.sessionId } : { tabId };
      await setFileInputFiles(target, { files: msg.files, backendNodeId: params.backendNodeId });
      return { files: await fileNames(target, params.frameId, params.backendNodeId) };
    } finally {
      choosers.delete(tabId);
      // A click still on its way may yet open a chooser: let it land while
      // interception is on (then no dialog shows), within limits.
      await Promise.race([clicked.catch(() => {}), new Promise((r) => setTimeout(r, SETTLE_MS))]);
      for (const t of targets) await send(t, "Page.setInterceptFileChooserDialog", { enabled: false }).catch(() => {});
      if (targets.length > 1) await stopChildren(tabId);
    }
  });
}

// fileNames reads a file input's files — names and sizes, never content —
// in an isolated world of its frame, where the page cannot redefine what
// `files` returns.
async function fileNames(target, frameId, backendNodeId) {
  const { executionContextId } = await send(target, "Page.createIsolatedWorld", { frameId, worldName: "browser-bridge-upload" });
  const { object } = await send(target, "DOM.resolveNode", { backendNodeId, executionContextId });
  try {
    const { result } = await send(target, "Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: "function () { return Array.from(this.files || [], (f) => ({ name: String(f.name), size: Number(f.size) })); }",
      returnByValue: true,
    });
    return Array.isArray(result && result.value) ? result.value : [];
  } finally {
    await send(target, "Runtime.releaseObject", { objectId: object.objectId }).catch(() => {});
  }
}
