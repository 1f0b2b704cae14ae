// performance: a trace of a tab, recorded through the debugger
// (chrome.debugger allows the Tracing and IO domains on a tab target), as
// DevTools' Performance panel records one: Tracing.start with the
// timeline's categories, returned as a stream, read in chunks with
// IO.read by the daemon (trace.read), which derives the metrics
// (internal/trace). Chrome's "is debugging this browser" bar shows while
// the trace records: the debugger is attached for it (docs/reference.md,
// performance). These are the extension's own calls: they do not pass
// through the actions' CDP door (cdp.js).
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";
import { ensureAttached, hold, sendCommand } from "./cdp.js";

// The categories DevTools' Performance panel records (less its
// screenshots): enough for the panel to show the trace, and for the
// metrics.
const CATEGORIES = [
  "-*", "blink.console", "blink.user_timing", "devtools.timeline", "loading", "latencyInfo", "toplevel",
  "v8.execute", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
  "disabled-by-default-devtools.timeline.stack", "disabled-by-default-devtools.timeline.invalidationTracking",
  "disabled-by-default-layout_shift.debug", "disabled-by-default-v8.cpu_profiler",
];

const MAX_DURATION_MS = 30000;
const SETTLE_MS = 1000; // after the load, for the last paints and shifts
const COMPLETE_WAIT_MS = 15000;
const CHUNK = 4 << 20;

const recording = new Set(); // tabs with a trace in progress
const loaded = new Map(); // tabId -> callback on Page.loadEventFired
const complete = new Map(); // tabId -> callback on Tracing.tracingComplete

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method === "Page.loadEventFired") loaded.get(source.tabId)?.();
  else if (method === "Tracing.tracingComplete") complete.get(source.tabId)?.(params || {});
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// record traces the tab: its reload until it has loaded and settled, or
// the next durationMs; waitMs bounds the wait for the load. → {stream,
// loaded} (stream: the IO handle trace.read reads).
export async function record(msg) {
  const tabId = intArg(msg, "tabId");
  const reload = msg.reload !== false;
  const duration = Number.isInteger(msg.durationMs) ? msg.durationMs : 0;
  if (!reload && (duration < 1 || duration > MAX_DURATION_MS)) {
    throw new BridgeError(Codes.invalidArgument, `durationMs must be 1 to ${MAX_DURATION_MS} ms`);
  }
  const wait = Number.isInteger(msg.waitMs) && msg.waitMs > 0 ? Math.min(msg.waitMs, 60000) : 30000;
  if (recording.has(tabId)) throw new BridgeError(Codes.invalidArgument, "a trace of this tab is already recording");
  recording.add(tabId);
  try {
    return await hold(tabId, async () => {
      await ensureAttached(tabId);
      const done = new Promise((resolve) => complete.set(tabId, resolve));
      try {
        await sendCommand(tabId, "Tracing.start", {
          traceConfig: { includedCategories: CATEGORIES, recordMode: "recordAsMuchAsPossible" },
          transferMode: "ReturnAsStream", streamFormat: "json", streamCompression: "none",
        });
      } catch (err) {
        if (/already/i.test(String(err && err.message))) {
          throw new BridgeError(Codes.blockedByPolicy, "another debugger (DevTools' Performance panel, say) is recording a trace of this tab: stop that recording and try again");
        }
        throw err;
      }
      let didLoad = null;
      let failure = null;
      try {
        if (reload) {
          const onLoad = new Promise((resolve) => loaded.set(tabId, () => resolve(true)));
          await sendCommand(tabId, "Page.reload", { ignoreCache: false });
          didLoad = await Promise.race([onLoad, sleep(wait).then(() => false)]);
          loaded.delete(tabId);
          await sleep(SETTLE_MS);
        } else {
          await sleep(duration);
        }
      } catch (err) {
        failure = err;
      }
      const ended = await sendCommand(tabId, "Tracing.end").then(() => true, (err) => { failure = failure || err; return false; });
      const end = ended ? await Promise.race([done, sleep(COMPLETE_WAIT_MS).then(() => null)]) : null;
      if (failure) {
        // The trace nobody will read is let go.
        if (end && end.stream) await sendCommand(tabId, "IO.close", { handle: end.stream }).catch(() => {});
        throw failure;
      }
      if (!end || !end.stream) throw new BridgeError(Codes.timeout, "the browser did not hand over the trace");
      return { stream: end.stream, loaded: didLoad };
    });
  } finally {
    recording.delete(tabId);
    loaded.delete(tabId);
    complete.delete(tabId);
  }
}

// read reads the next chunk of a trace's stream → {data, eof}; close (or
// the end) closes the stream.
export async function read(msg) {
  const tabId = intArg(msg, "tabId");
  const handle = String(msg.handle || "");
  if (!handle) throw new BridgeError(Codes.invalidArgument, "handle is required");
  if (msg.close) {
    await sendCommand(tabId, "IO.close", { handle }).catch(() => {});
    return { data: "", eof: true };
  }
  const r = await sendCommand(tabId, "IO.read", { handle, size: CHUNK });
  const data = r.base64Encoded ? atob(r.data || "") : (r.data || "");
  if (r.eof) await sendCommand(tabId, "IO.close", { handle }).catch(() => {});
  return { data, eof: !!r.eof };
}

// nodes describes DOM nodes by their backend IDs (the trace's): each
// one's accessible role and name, tag, id and the start of its text →
// {nodes: [{nodeId, role, name, tag, id, text}]} (a node gone is left
// out). The text is cut from the node's markup here, with no script run
// in the page.
export async function nodes(msg) {
  const tabId = intArg(msg, "tabId");
  const ids = (Array.isArray(msg.nodeIds) ? msg.nodeIds : []).filter((n) => Number.isInteger(n) && n > 0).slice(0, 30);
  const out = [];
  await hold(tabId, async () => {
    await ensureAttached(tabId);
    for (const backendNodeId of ids) {
      try {
        const { node } = await sendCommand(tabId, "DOM.describeNode", { backendNodeId });
        const d = { nodeId: backendNodeId, tag: String(node.localName || node.nodeName || "").toLowerCase().slice(0, 40) };
        const attrs = node.attributes || [];
        for (let i = 0; i + 1 < attrs.length; i += 2) if (attrs[i] === "id") d.id = String(attrs[i + 1]).slice(0, 80);
        const ax = await sendCommand(tabId, "Accessibility.getPartialAXTree", { backendNodeId, fetchRelatives: false }).catch(() => null);
        const a = ax && ax.nodes && ax.nodes.find((n) => n.backendDOMNodeId === backendNodeId) || ax?.nodes?.[0];
        if (a && !a.ignored) {
          d.role = String(a.role?.value || "").slice(0, 40);
          d.name = String(a.name?.value || "").slice(0, 120);
        }
        const html = await sendCommand(tabId, "DOM.getOuterHTML", { backendNodeId }).catch(() => null);
        if (html && typeof html.outerHTML === "string") {
          d.text = html.outerHTML.slice(0, 4000).replace(/<[^>]*>?/g, " ").replace(/\s+/g, " ").trim().slice(0, 80);
        }
        out.push(d);
      } catch {
        // The node is gone (the page changed since the trace).
      }
    }
  });
  return { nodes: out };
}
