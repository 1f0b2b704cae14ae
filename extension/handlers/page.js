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
function invoke(fn, args) {
  const bb = globalThis.__bb;
  if (!bb || typeof bb[fn] !== "function") return { __missing: true };
  try {
    const out = bb[fn](args);
    if (out && typeof out.then === "function") {
      return out.then((v) => ({ value: v }), (e) => ({ error: String((e && e.message) || e), code: e && e.code }));
    }
    return { value: out };
  } catch (e) {
    return { error: String((e && e.message) || e), code: e && e.code };
  }
}

export async function run(msg) {
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
  else if (Number.isInteger(msg.frameId)) target.frameIds = [msg.frameId];
  const call = () => chrome.scripting.executeScript({ target, func: invoke, args: [msg.fn, msg.args ?? {}] });
  let results = await call();
  if (results.some((r) => r.result && r.result.__missing)) {
    // Inject into the frames that lack the functions (all of the target:
    // injecting again is harmless, every file guards with __bb.loaded).
    await chrome.scripting.executeScript({ target, files });
    results = await call();
  }
  return {
    frames: results.map((r) => ({
      frameId: r.frameId,
      documentId: r.documentId,
      ...(r.result && r.result.__missing ? { error: "the page script did not load in this frame" } : r.result || {}),
    })),
  };
}
