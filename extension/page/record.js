// The recorder's extension half, in the isolated world of each frame of
// a tab: it takes the records of page/record-main.js (the page's own
// world) over their private channel, checks and cuts every field — they
// are the page's words, untrusted — adds the Content Security Policy
// violations the browser reports (trusted DOM events only), and sends
// them in batches to the service worker (handlers/record.js), which files
// them under the tab Chrome names as the sender.
//
// It is registered with record-main.js at document_start for every page
// (handlers/readiness.js; see record-main.js for why). A document of the
// bridge's tabs carries a marker (the Server-Timing entry MARK, which a
// session rule scoped to those tabs adds, handlers/policy.js): there the
// main half records from the start and this half takes its channel at
// once. Elsewhere the main half stays away unless this half wants it
// (WANT, a synchronous event it cancels). Either way it asks the worker
// whether this tab is recorded: a page that is not (the user's own
// browsing) goes quiet; a recorded one without the marker (a tab the
// bridge learnt was its own only after the load began) gets the main
// half from the worker then. When the bridge later touches a user's
// tab, the worker injects this file again (bb.record.restart) and then
// record-main.js: recording starts then. The value of the last run says
// whether the main half is still needed.
//
// For extract's readiness it also answers bb.record.scheduled() (called
// by page/quiet.js quietState): the main half's counts of what the page
// has scheduled, asked for and answered over the channel synchronously,
// checked and bounded (a page can make its own read wait or hurry, no
// more), and its own count of the scripts the page inserted that have
// not loaded yet (this world's observer, out of the page's reach).

(() => {
  if (!Object.hasOwn(globalThis, "__bb")) {
    Object.defineProperty(globalThis, "__bb", { value: { loaded: {} }, configurable: false, enumerable: false, writable: false });
  }
  const bb = globalThis.__bb;
  if (bb.record) return bb.record.restart();

  const HELLO = "browser-bridge-record-hello";
  const ASK = "browser-bridge-record-ask";
  const MARK = "browser-bridge-record";
  const WANT = "browser-bridge-record-want";
  const TEXT_MAX = 2000;
  const URL_MAX = 4096;
  const BODY_MAX = 256 * 1024;
  // The worker keeps the newest 1,000 messages of a tab: a page that logs
  // faster than batches go drops its oldest here already.
  const QUEUE_MAX = 1000;
  const BATCH = 200;
  // A batch's text (bodies, sent bodies, messages) stays well under
  // Chrome's 64 MB message limit, past which the whole batch is lost: the
  // worker keeps 1 MB of bodies per tab anyway.
  const BATCH_CHARS = 4 * 1024 * 1024;
  const FLUSH_MS = 150;
  const LEVELS = new Set(["error", "warning", "info", "log", "debug"]);
  const SOURCES = new Set(["console", "exception", "rejection", "body"]);

  let port = null; // the main half's channel element
  let recording; // undefined until the worker answers
  let queue = [];
  let lost = 0; // records the queue had no room for
  let timer = 0;
  let wanted = false; // the main half may start in this unmarked document

  let marked = false;
  try {
    const nav = performance.getEntriesByType("navigation")[0];
    marked = ((nav && nav.serverTiming) || []).some((e) => e.name === MARK);
  } catch (_) { /* no timing: not marked */ }
  // The main half asks, before it touches anything, whether it may.
  document.addEventListener(WANT, (e) => {
    if (wanted && recording !== false) {
      e.stopImmediatePropagation();
      e.preventDefault();
    }
  }, true);

  // The scripts the page inserted (src, a script type) and when, until
  // their load or error; one that never says (a script in a detached
  // subtree, or parsed by innerHTML, never runs) counts SCRIPT_MS at most.
  const SCRIPT_MS = 3000;
  const SCRIPTS_MAX = 100;
  const JS_TYPES = new Set(["", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript"]);
  const loading = new Map(); // script element -> when it was inserted
  const scripts = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (!(n instanceof HTMLScriptElement) || loading.size >= SCRIPTS_MAX) continue;
        if (n.src && !n.noModule && JS_TYPES.has(n.type.trim().toLowerCase())) loading.set(n, performance.now());
      }
    }
  });
  scripts.observe(document, { childList: true, subtree: true });
  const loaded = (e) => loading.delete(e.target);
  document.addEventListener("load", loaded, true);
  document.addEventListener("error", loaded, true);
  let answer = null; // the main half's answer to "q"
  const onScheduled = (e) => { answer = typeof e.detail === "string" ? e.detail.slice(0, 1000) : null; };

  const str = (v, n) => (typeof v === "string" ? v.slice(0, n) : "");
  const int = (v) => (Number.isFinite(v) ? Math.max(0, Math.min(Math.trunc(v), 1e9)) : 0);

  // clean keeps the fields a record of its source may have, each of its
  // type and size; anything else is dropped.
  function clean(r) {
    if (!r || typeof r !== "object" || !SOURCES.has(r.source)) return null;
    const time = Number.isFinite(r.time) ? r.time : Date.now();
    if (r.source === "body") {
      return { source: "body", via: r.via === "fetch" ? "fetch" : "xhr", at: Number.isFinite(r.at) ? r.at : 0, method: str(r.method, 16).toUpperCase() || "GET", url: str(r.url, URL_MAX),
        status: int(r.status), mimeType: str(r.mimeType, 200), body: str(r.body, BODY_MAX), state: r.state === "over" || r.state === "binary" ? r.state : "", sent: str(r.sent, BODY_MAX), time };
    }
    const stack = [];
    for (const line of str(r.stack, 8000).split("\n").slice(0, 5)) {
      const [fn, url, ln, col] = line.split("\t");
      if (url === undefined) continue;
      stack.push({ function: str(fn, 200), url: str(url, URL_MAX), line: int(Number(ln)), column: int(Number(col)) });
    }
    return { level: LEVELS.has(r.level) ? r.level : "log", source: r.source, text: str(r.text, TEXT_MAX),
      url: str(r.url, URL_MAX), line: int(r.line), column: int(r.column), stack, time };
  }

  function push(rec) {
    if (!rec || recording === false) return;
    if (queue.length >= QUEUE_MAX) {
      queue.shift();
      lost++;
    }
    queue.push(rec);
    if (!recording) return;
    if (queue.length >= BATCH) flush();
    else if (rec.level === "error") {
      // An error goes at the end of the page's task, not FLUSH_MS later:
      // the action that set it off reports it (internal/actions/report.go).
      clearTimeout(timer);
      timer = setTimeout(flush, 0);
    } else if (!timer) timer = setTimeout(flush, FLUSH_MS);
  }

  function flush() {
    clearTimeout(timer);
    timer = 0;
    if (!recording || (!queue.length && !lost)) return;
    let take = 0;
    for (let size = 0; take < queue.length && take < BATCH; take++) {
      const q = queue[take];
      size += (q.body ? q.body.length : 0) + (q.sent ? q.sent.length : 0) + (q.text ? q.text.length : 0);
      if (take > 0 && size > BATCH_CHARS) break;
    }
    const records = queue.splice(0, take);
    const n = lost;
    lost = 0;
    chrome.runtime.sendMessage({ type: "record.batch", records, lost: n }).catch(() => {});
    if (queue.length && !timer) timer = setTimeout(flush, FLUSH_MS);
  }

  const onRecord = (e) => {
    let r = null;
    try { r = JSON.parse(typeof e.detail === "string" ? e.detail : "null"); } catch (_) { /* not ours */ }
    push(clean(r));
  };

  const onHello = (e) => {
    const el = e.relatedTarget;
    if (port || !(el instanceof Element)) return;
    // Nobody else hears of the channel.
    e.stopImmediatePropagation();
    document.removeEventListener(HELLO, onHello, true);
    if (recording === false) {
      el.dispatchEvent(new CustomEvent("stop"));
      return;
    }
    port = el;
    port.addEventListener("r", onRecord);
    port.addEventListener("s", onScheduled);
    port.dispatchEvent(new CustomEvent("ack"));
  };

  function listen() {
    document.addEventListener(HELLO, onHello, true);
    // The main half came first: it answers an ask with its hello.
    document.dispatchEvent(new CustomEvent(ASK));
  }

  // stop tells the main half to put the page's functions back, and drops
  // what was queued.
  function stop() {
    recording = false;
    wanted = false;
    queue = [];
    document.removeEventListener(HELLO, onHello, true);
    scripts.disconnect();
    loading.clear();
    document.removeEventListener("load", loaded, true);
    document.removeEventListener("error", loaded, true);
    if (port) {
      port.removeEventListener("r", onRecord);
      port.removeEventListener("s", onScheduled);
      port.dispatchEvent(new CustomEvent("stop"));
      port = null;
    }
  }

  function start() {
    recording = true;
    flush();
  }

  // Content Security Policy violations: the browser's own report, a
  // trusted event (a page's synthetic one is not).
  document.addEventListener("securitypolicyviolation", (e) => {
    if (!e.isTrusted) return;
    const what = e.blockedURI ? `'${e.blockedURI}'` : "an inline resource";
    push({ level: "error", source: "security", time: Date.now(), url: str(e.sourceFile, URL_MAX), line: int(e.lineNumber), column: int(e.columnNumber),
      text: str(`Refused to load ${what} because it violates the Content Security Policy directive "${e.violatedDirective}"`, TEXT_MAX), stack: [] });
  }, true);

  // scheduled is what the page has scheduled (see page/record-main.js),
  // or null when the main half is not here or did not count from the
  // document's start (a page the bridge began to record later).
  function scheduled() {
    // The readiness rule counts the top frame's schedule only.
    if (!port || window.top !== window) return null;
    answer = null;
    port.dispatchEvent(new CustomEvent("q"));
    let a = null;
    try { a = JSON.parse(answer); } catch (_) { return null; }
    if (!a || typeof a !== "object" || a.fromStart !== true) return null;
    const now = performance.now();
    for (const [el, at] of loading) {
      if (now - at > SCRIPT_MS || !el.isConnected) loading.delete(el);
    }
    const count = (v) => (Number.isFinite(v) ? Math.max(0, Math.min(Math.trunc(v), 1e6)) : 0);
    const ms = (v) => (Number.isFinite(v) ? Math.max(0, Math.min(Math.round(v), 1e9)) : 0);
    const r = { timers: count(a.timers), overdue: count(a.overdue), intervals: count(a.intervals), frames: count(a.frames),
      requests: count(a.requests), scripts: loading.size, busyMs: ms(a.busyMs), loopMs: ms(a.loopMs) };
    if (Number.isFinite(a.dueMs)) r.dueMs = ms(a.dueMs); // an overdue timer: 0
    return r;
  }

  bb.record = {
    // restart records this document from now on (the bridge touched the
    // tab); it says whether the main half must be injected again.
    restart() {
      if (recording && port) return false;
      recording = true;
      wanted = true;
      if (!port) listen();
      return !port;
    },
    stop,
    scheduled,
  };

  if (marked) listen();
  chrome.runtime.sendMessage({ type: "record.page", marked }).then((a) => {
    if (!a || !a.record) return stop();
    if (!port && !wanted) {
      // A recorded tab whose document came without the marker: the
      // worker puts the main half in now.
      wanted = true;
      listen();
      chrome.runtime.sendMessage({ type: "record.main" }).catch(() => {});
    }
    start();
  }, () => stop());
  // Injected by the worker (at document_idle, not at document_start
  // while the document is still loading): the bridge touched the tab,
  // and injects the main half next.
  if (!marked && document.readyState !== "loading") {
    wanted = true;
    listen();
  }
  return !port;
})();
