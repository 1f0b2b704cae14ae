// page.evaluate: the evaluate action (docs/design.md#actions) — an expression the agent
// wrote, run in the page's own JavaScript context (the MAIN world) of one
// frame. The daemon sends it only once the user has turned evaluate on
// (browser-bridge policy evaluate on, or the switch on the extension's
// page); the site rules and the hand-off guard apply as to every verb
// with a tabId (dispatch.js).
//
// The expression runs with the page's own indirect eval, so it sees what
// the page's scripts see (its globals, its frameworks) and is subject to
// the page's Content Security Policy: a page that forbids 'unsafe-eval'
// refuses it with an EvalError, which comes back as the failure. A
// promise is awaited; the value is turned into JSON in the page and cut
// there at maxChars, so a huge value never crosses the wire whole.
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";

const MAX_EXPRESSION = 100_000;

// evaluateInPage runs in the page's MAIN world: it must be
// self-contained. Values JSON cannot carry are described instead: a DOM
// node as its tag, id and classes, a function by name, a cycle, a
// BigInt, undefined inside objects, the window.
function evaluateInPage(expression, maxChars) {
  const url = String(location.href);
  const fail = (e) => {
    let error;
    try {
      error = e instanceof Error ? `${e.name}: ${e.message}` : `Uncaught ${typeof e === "object" ? JSON.stringify(e) : String(e)}`;
    } catch (_) {
      error = "Uncaught a value that cannot be shown";
    }
    return { error: String(error).slice(0, 2000), url };
  };
  const done = (v) => {
    try {
      const type = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
      if (v === undefined) return { type, json: "", total: 0, url };
      const seen = new WeakSet();
      const describe = (val) => {
        if (typeof val === "bigint") return `${val}n`;
        if (typeof val === "function") return `[function ${val.name || "anonymous"}]`;
        if (typeof val === "symbol") return String(val);
        if (val && typeof val === "object") {
          if (val === globalThis) return "[window]";
          if (typeof Node !== "undefined" && val instanceof Node) {
            const el = val;
            if (el.nodeType !== 1) return `[${el.nodeName}]`;
            return `<${el.localName}${el.id ? "#" + el.id : ""}${el.classList && el.classList.length ? "." + Array.from(el.classList).join(".") : ""}>`;
          }
          if (seen.has(val)) return "[circular]";
          seen.add(val);
          if (val instanceof Map) return Object.fromEntries(Array.from(val, ([k, x]) => [String(k), x]));
          if (val instanceof Set) return Array.from(val);
          if (val instanceof Error) return `${val.name}: ${val.message}`;
        }
        return val;
      };
      const json = JSON.stringify(v, (k, val) => describe(val), 0) ?? JSON.stringify(describe(v));
      const text = String(json ?? "null");
      return { type, json: text.slice(0, maxChars), total: text.length, url };
    } catch (e) {
      return fail(e);
    }
  };
  let v;
  try {
    v = (0, eval)(expression);
  } catch (e) {
    return fail(e);
  }
  if (v && (typeof v === "object" || typeof v === "function") && typeof v.then === "function") {
    return Promise.resolve(v).then(done, fail);
  }
  return done(v);
}

export async function run(msg) {
  const tabId = intArg(msg, "tabId");
  if (typeof msg.expression !== "string" || !msg.expression.trim() || msg.expression.length > MAX_EXPRESSION) {
    throw new BridgeError(Codes.invalidArgument, `expression must be JavaScript of 1 to ${MAX_EXPRESSION} characters`);
  }
  const frameId = Number.isInteger(msg.frameId) ? msg.frameId : 0;
  const maxChars = Number.isInteger(msg.maxChars) && msg.maxChars > 0 ? msg.maxChars : 20000;
  const [r] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] },
    world: "MAIN",
    func: evaluateInPage,
    args: [msg.expression, maxChars],
    injectImmediately: true,
  });
  const out = (r && r.result) || {};
  return {
    frameId: r ? r.frameId : frameId,
    url: String(out.url || ""),
    ...(typeof out.error === "string" ? { error: out.error } : { type: String(out.type || ""), json: String(out.json ?? ""), total: Number(out.total) || 0 }),
  };
}
