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
export async function setFiles(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const token = String(msg.token || "");
  if (!/^[a-f0-9]{16,64}$/.test(token)) throw new BridgeError(Codes.invalidArgument, "bad upload token");
  checkFiles(msg);
  return hold(tabId, async () => {
    await ensureAttached(tabId);
    const top = { tabId };
    let found = await bounded(findMarked(top, token), ctx, tabId);
    let autoAttached = false;
    try {
      if (!found.length) {
        autoAttached = true;
        for (const t of await bounded(children(tabId), ctx, tabId)) {
          // A frame that went away or does not answer is skipped; a
          // browser too old for child sessions is said so.
          const inFrame = await bounded(findMarked(t, token), ctx, tabId).catch((err) => {
            if (err instanceof BridgeError && err.code === Codes.blockedByPolicy) throw err;
            return [];
          });
          found = found.concat(inFrame);
        }
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
      // Not while an upload through a chooser uses the child sessions.
      if (autoAttached && !choosers.has(tabId)) await stopChildren(tabId);
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
// sizes as the page received them. Paths were checked by the daemon.
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
    // One upload through a chooser per tab at a time, until its clean-up
    // is done: a later one's interception must not be turned off by it.
    if (choosers.has(tabId)) throw new BridgeError(Codes.invalidArgument, "another upload is choosing files in this tab; try again when it is done");
    let opened;
    const chooser = new Promise((resolve) => { opened = resolve; });
    choosers.set(tabId, (source, params) => opened({ source, params }));
    const targets = [{ tabId }];
    let clicked = Promise.resolve();
    let autoAttached = false;
    try {
      // Each step is bounded: a page holding a dialog, or a frozen frame,
      // answers nothing, and an upload must never hang for that.
      const { frameTree } = await bounded(send({ tabId }, "Page.getFrameTree"), ctx, tabId);
      const topFrame = frameTree.frame.id;
      if (msg.inFrame) {
        autoAttached = true;
        targets.push(...(await bounded(children(tabId), ctx, tabId)));
      }
      await bounded(send({ tabId }, "Page.setInterceptFileChooserDialog", { enabled: true }), ctx, tabId);
      for (const t of targets.slice(1)) {
        // A child frame that went away, or does not answer, is skipped.
        await bounded((async () => {
          await send(t, "Page.enable");
          await send(t, "Page.setInterceptFileChooserDialog", { enabled: true });
        })(), ctx, tabId).catch(() => {});
      }
      if (ctx?.signal?.aborted) throw cancelled();
      // The whole click goes out, whatever happens meanwhile: a press
      // without its release would leave the button held down.
      clicked = (async () => {
        for (const c of cmds) await sendCommand(tabId, c.method, c.params);
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
      // The chooser must come from the clicked element's frame: in the top
      // document for an element there, in a child frame for one in a
      // frame — never from the page that embeds a frame's widget.
      const fromTop = !source.sessionId && params.frameId === topFrame;
      if (fromTop === !!msg.inFrame) {
        throw new BridgeError(Codes.blockedByPolicy, "a file chooser opened in another frame than the clicked element's, so no files were set; locate the file input itself (it may be hidden) and upload to it");
      }
      if (!params.backendNodeId) {
        throw new BridgeError(Codes.blockedByPolicy, "the page opened a file chooser that is not tied to a file input (the File System Access API); the bridge can only upload to file inputs");
      }
      if (params.mode === "selectSingle" && msg.files.length > 1) {
        throw new BridgeError(Codes.invalidArgument, `this file input takes one file; ${msg.files.length} were given — give one path`);
      }
      const target = source.sessionId ? { tabId, sessionId: source.sessionId } : { tabId };
      try {
        const input = await isolatedInput(target, params.frameId, params.backendNodeId);
        try {
          if (await callOn(target, input, PICKS_FOLDER)) throw folderInput();
          await callOn(target, input, WATCH_CHANGE);
          await setFileInputFiles(target, { files: msg.files, backendNodeId: params.backendNodeId });
          return await callOn(target, input, READ_FILES);
        } finally {
          await send(target, "Runtime.releaseObject", { objectId: input }).catch(() => {});
        }
      } catch (err) {
        if (err instanceof BridgeError) throw err;
        // The page went on (the button navigates too, or replaced the
        // input) while the files were set: what it got cannot be told.
        throw new BridgeError(Codes.elementNotFound, `the page navigated away or replaced its file input while the files were set (${String(err && err.message).slice(0, 120)}); check the page (extract or screenshot) before trying again`);
      }
    } finally {
      // A click still on its way may yet open a chooser: let it land while
      // interception is on (then no dialog shows), within limits.
      await Promise.race([clicked.catch(() => {}), new Promise((r) => setTimeout(r, SETTLE_MS))]);
      for (const t of targets) {
        await bounded(send(t, "Page.setInterceptFileChooserDialog", { enabled: false }), null, tabId).catch(() => {});
      }
      if (autoAttached) await stopChildren(tabId);
      choosers.delete(tabId);
    }
  });
}

const STEP_MS = 5000;

// bounded is p, failed when the tab shows a dialog (the page answers
// nothing then), when the command is cancelled, or after STEP_MS.
function bounded(p, ctx, tabId) {
  const dialog = untilDialog(tabId);
  const stopped = aborted(ctx);
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new BridgeError(Codes.timeout, "the tab did not answer the debugger in time; it may be frozen")), STEP_MS);
  });
  const held = dialog.promise.then((d) => {
    throw new BridgeError(Codes.timeout, `the tab shows a ${d.__dialog.type} dialog; the next action answers it — try again`);
  });
  return Promise.race([p, late, held, stopped.promise]).finally(() => {
    clearTimeout(timer);
    dialog.cancel();
    stopped.cancel();
  });
}

// The file input, seen from an isolated world of its frame: there the page
// cannot redefine what its properties return, and what the bridge notes
// on it stays out of the page's sight.
async function isolatedInput(target, frameId, backendNodeId) {
  const { executionContextId } = await send(target, "Page.createIsolatedWorld", { frameId, worldName: "browser-bridge-upload" });
  const { object } = await send(target, "DOM.resolveNode", { backendNodeId, executionContextId });
  return object.objectId;
}

// PICKS_FOLDER says the input picks a folder (webkitdirectory).
const PICKS_FOLDER = "function () { return !!this.webkitdirectory; }";

function folderInput() {
  return new BridgeError(Codes.invalidArgument, "this file input picks a folder (webkitdirectory); the bridge uploads files, not folders — look for a file input or button that takes files");
}

// WATCH_CHANGE notes the files when the page is told of them: many pages
// read them on change and then empty the input.
const WATCH_CHANGE = `function () {
  const input = this;
  const root = input.getRootNode();
  const note = (ev) => {
    if (ev.target !== input) return;
    input.__bbFiles = Array.from(input.files || [], (f) => ({ name: String(f.name), size: Number(f.size) }));
    root.removeEventListener("change", note, true);
  };
  // Captured at the root: before the page's own listeners, which may
  // empty the input.
  root.addEventListener("change", note, true);
}`;

// READ_FILES reports the files as the page received them (names and
// sizes, never content), and whether the input still holds them.
const READ_FILES = `function () {
  const now = Array.from(this.files || [], (f) => ({ name: String(f.name), size: Number(f.size) }));
  const seen = this.__bbFiles;
  delete this.__bbFiles;
  return seen && seen.length > now.length ? { files: seen, emptied: true } : { files: now };
}`;

async function callOn(target, objectId, functionDeclaration) {
  const { result, exceptionDetails } = await send(target, "Runtime.callFunctionOn", { objectId, functionDeclaration, returnByValue: true });
  if (exceptionDetails) throw new Error("reading the file input failed: " + (exceptionDetails.text || "an exception"));
  return result && result.value;
}
