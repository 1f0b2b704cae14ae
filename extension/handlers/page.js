// page.run: runs one of the extension's own page scripts (extension/page/*.js)
// in a tab's frames, in the extension's isolated world, and returns each
// frame's result. Scripts are files shipped with the extension — never code
// sent by the daemon (Chrome Web Store rules forbid remotely supplied code).
//
// A page script file defines functions on globalThis.__bb (the isolated
// world's global, which persists between calls for the life of the
// document) and marks itself in __bb.loaded. page.run calls
// __bb[fn](args) and injects the files only when fn is missing, so a
// repeated call costs one executeScript.
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";

const FILE = /^page\/[a-z0-9_-]+\.js$/;

// invoke runs in the page (isolated world): it must be self-contained.
// globalThis.__bb is read only as an own property: before a page script
// defined it, the name finds the page's named elements (<div id="__bb">).
// A failure carries code only when it is one of our string codes
// (a DOMException's code is a number).
// Every answer carries the frame's URL: the daemon drops the answers of
// frames at URLs the bridge may not read (a file: page framing a secret
// file) before any action looks at them.
function invoke(fn, args) {
  const url = String(location.href);
  const bb = Object.hasOwn(globalThis, "__bb") ? globalThis.__bb : undefined;
  if (!bb || !Object.hasOwn(bb, fn) || typeof bb[fn] !== "function") return { __missing: true, url };
  const failure = (e) => {
    const out = { error: String((e && e.message) || e), url };
    if (e && typeof e.code === "string") out.code = e.code;
    return out;
  };
  try {
    const out = bb[fn](args);
    if (out && typeof out.then === "function") return out.then((v) => ({ value: v, url }), failure);
    return { value: out, url };
  } catch (e) {
    return failure(e);
  }
}

export async function run(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const files = Array.isArray(msg.files) ? msg.files : [];
  if (!files.length || !files.every((f) => typeof f === "string" && FILE.test(f))) {
    throw new BridgeError(Codes.invalidArgument, "files must name page scripts such as page/dom.js");
  }
  if (typeof msg.fn !== "string" || !/^[A-Za-z][A-Za-z0-9]*$/.test(msg.fn)) {
    throw new BridgeError(Codes.invalidArgument, "fn must name a page function");
  }
  const target = { tabId };
  if (msg.allFrames) target.allFrames = true;
  else if (ctx && Array.isArray(ctx.documentIds)) {
    // The documents that passed the site rules (handlers/policy.js
    // guardedRun); not a parameter of the wire.
    target.documentIds = ctx.documentIds;
  } else if (Number.isInteger(msg.frameId)) target.frameIds = [msg.frameId];
  // injectImmediately: do not wait for document_idle, which a frame whose
  // parser is blocked by a hanging script never reaches.
  const call = () => chrome.scripting.executeScript({ target, func: invoke, args: [msg.fn, msg.args ?? {}], injectImmediately: true });
  let results = await call();
  if (results.some((r) => r.result && r.result.__missing)) {
    // Inject into the frames that lack the functions (all of the target:
    // injecting again is harmless, every file guards with __bb.loaded).
    await chrome.scripting.executeScript({ target, files, injectImmediately: true });
    results = await call();
  }
  return {
    frames: results.map((r) => ({
      frameId: r.frameId,
      documentId: r.documentId,
      ...(r.result && r.result.__missing ? { error: "the page script did not load in this frame", url: r.result.url } : r.result || {}),
    })),
  };
}
