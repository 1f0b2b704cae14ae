// The recorder's page half, in the page's own (main) world: the only place
// a page's console calls, uncaught exceptions, unhandled rejections and the
// bodies its fetch and XHR calls read can be seen without the debugger (and
// its "is debugging this browser" banner). Its other half is page/record.js
// in the extension's isolated world, which takes these records to the
// service worker (handlers/record.js).
//
// When it runs. handlers/readiness.js registers it as a content script at
// document_start in the MAIN world (with record.js, ISOLATED, registered
// before it). That is the one way to run before the page's own scripts:
// scripting.executeScript, even with injectImmediately at
// webNavigation.onCommitted, is sent to the renderer after the commit,
// while the parser already runs the page's first inline scripts — the
// very messages a developer looks for (errors while loading) would be
// lost. Chrome cannot register a content script for some tabs only, so
// it is registered for every page, and checks first whose page it is
// (see the start of the function below): in the bridge's own tabs, and in
// the tabs it has touched, it records from the document's start; in the
// user's untouched tabs it returns at once, having changed nothing. A tab
// the bridge touches later gets it by executeScript (recording starts
// then), and its later documents from their start. A page that sends the
// marker itself only makes this half start and, once the worker says
// the tab is not recorded, step aside again.
//
// What it counts. In the same world it keeps, for extract's readiness
// (internal/actions/readiness.go), what the page has scheduled that will
// change it soon: timers of at most SHORT_MS that have not run, intervals
// that short (a page that never stops), animation frames asked for and
// not drawn, and fetch and XHR calls in flight. record.js asks for the
// counts over the channel when the daemon looks at the tab (page/quiet.js
// quietState). They count only from the document's start (fromStart), in
// the pages the bridge records. The page's callbacks are never wrapped
// (nothing of ours is on their stacks): a timer of the page is followed
// by a marker of our own with the same delay, and a frame by a frame of
// ours; the browser runs those after the page's callback (timers of equal
// delay run in the order they were set, frame callbacks in the order they
// were asked for), so when the marker runs the page's callback has run.
//
// What the page can do to it. The page owns this world: it can wrap
// console itself, or call it with any text, so everything that comes from
// here is only ever "what the page logged" — record.js and the worker
// accept console, exception and rejection records from it and nothing
// else (network and security records come from webRequest and trusted DOM
// events), each field checked and cut, and the worker files them under
// the tab Chrome names as the sender. So a page that finds the recorder
// can at most log what it could have logged anyway. To keep it from
// noticing and from reading the channel, the console methods are wrapped
// in Proxies (Function.prototype.toString shows them native), the
// channel is a detached element only the two halves hold (handed over by a
// synchronous event before any page script runs), every built-in this file
// uses is taken at its start, and records are JSON of null-prototype
// objects with primitive values (no toJSON a page could plant applies).
(() => {
  // Whose page. Registered for every page, it first reads, touching
  // nothing the page could see, whether this document is one the bridge
  // records from its start: a declarativeNetRequest session rule scoped
  // to the bridge's tabs (and the tabs it has touched) adds the
  // Server-Timing entry MARK to their documents (handlers/policy.js).
  // Otherwise it goes on only if record.js (the isolated world) wants it
  // — the bridge touched this tab and injected it — which that half says
  // by cancelling a synchronous event. In the user's untouched tabs it
  // returns here: the page's functions are never swapped, and nothing of
  // this file is ever on the page's stacks.
  const MARK = "browser-bridge-record";
  const WANT = "browser-bridge-record-want";
  try {
    const nav = performance.getEntriesByType("navigation")[0];
    const timing = (nav && nav.serverTiming) || [];
    let marked = false;
    for (let i = 0; i < timing.length; i++) if (timing[i].name === MARK) marked = true;
    if (!marked && document.dispatchEvent(new CustomEvent(WANT, { cancelable: true }))) return;
  } catch (_) {
    return;
  }
  const TEXT_MAX = 2000;
  const URL_MAX = 4096;
  const BODY_MAX = 256 * 1024;
  const BUFFER_MAX = 1000;
  const HELLO = "browser-bridge-record-hello";
  const ASK = "browser-bridge-record-ask";

  // Built-ins, taken before any page script can replace them.
  const W = window;
  const doc = document;
  const ET = EventTarget.prototype;
  const addListener = ET.addEventListener;
  const removeListener = ET.removeEventListener;
  const dispatch = ET.dispatchEvent;
  const Custom = CustomEvent;
  const Mouse = MouseEvent;
  const createElement = Document.prototype.createElement;
  const stringify = JSON.stringify;
  const now = Date.now;
  const apply = Reflect.apply;
  const setTimer = W.setTimeout;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const create = Object.create;
  const keys = Object.keys;
  const ProxyC = Proxy;
  const StringC = String;
  const isArray = Array.isArray;
  const errorStack = (e) => { try { return e && typeof e.stack === "string" ? e.stack : ""; } catch (_) { return ""; } };
  const slice = (s, n) => apply(StringC.prototype.slice, s, [0, n]);
  const replace = (s, re, f) => apply(StringC.prototype.replace, s, [re, f]);
  const indexOf = StringC.prototype.indexOf;
  const PromiseThen = Promise.prototype.then;
  const ResponseP = W.Response && Response.prototype;
  const clone = ResponseP && ResponseP.clone;
  const headersGet = W.Headers && Headers.prototype.get;
  const respHeaders = ResponseP && getOwnPropertyDescriptor(ResponseP, "headers").get;
  const respStatus = ResponseP && getOwnPropertyDescriptor(ResponseP, "status").get;
  const respURL = ResponseP && getOwnPropertyDescriptor(ResponseP, "url").get;
  const respBody = ResponseP && getOwnPropertyDescriptor(ResponseP, "body").get;
  const getReader = W.ReadableStream && ReadableStream.prototype.getReader;
  const readerRead = W.ReadableStreamDefaultReader && ReadableStreamDefaultReader.prototype.read;
  const readerCancel = W.ReadableStreamDefaultReader && ReadableStreamDefaultReader.prototype.cancel;
  const Decoder = W.TextDecoder;
  const decode = Decoder && Decoder.prototype.decode;
  const XHR = W.XMLHttpRequest && XMLHttpRequest.prototype;
  const xhrOpen = XHR && XHR.open;
  const xhrSend = XHR && XHR.send;
  const xhrStatus = XHR && getOwnPropertyDescriptor(XHR, "status").get;
  const xhrType = XHR && getOwnPropertyDescriptor(XHR, "responseType").get;
  const xhrText = XHR && getOwnPropertyDescriptor(XHR, "responseText").get;
  const xhrURL = XHR && getOwnPropertyDescriptor(XHR, "responseURL").get;
  const xhrHeader = XHR && XHR.getResponseHeader;
  const readyState = getOwnPropertyDescriptor(Document.prototype, "readyState").get;
  const bodyOf = getOwnPropertyDescriptor(Document.prototype, "body").get;
  const perf = W.performance;
  const perfNow = Performance.prototype.now;
  const NumberC = Number;
  const trunc = Math.trunc;
  const isFiniteN = Number.isFinite;
  const WeakMapC = WeakMap;
  // Options and event inits are read as dictionaries, inherited getters
  // included: null-prototype ones keep the page's Object.prototype out.
  const ONCE = create(null);
  ONCE.once = true;
  // trap is a Proxy handler with only apply: a null-prototype object, so
  // that no trap the page puts on Object.prototype (get, has, …) is
  // looked up through it.
  const trap = (fn) => {
    const h = create(null);
    h.apply = fn;
    return h;
  };
  // The page's arguments, by own index: a getter it put on
  // Array.prototype is not run for one it left out.
  const arg = (args, i) => (args.length > i ? args[i] : undefined);
  const wmGet = WeakMap.prototype.get;
  const wmSet = WeakMap.prototype.set;

  // The channel: a detached element, handed to record.js by a synchronous
  // event on the document while no page script has run yet.
  const port = apply(createElement, doc, ["browser-bridge-record"]);
  let connected = false;
  let stopped = false;
  const buffer = []; // records before record.js took the channel
  const onAck = () => {
    connected = true;
    // Indexed loops here and below: the page owns Array.prototype's
    // iterator by the time these run.
    for (let i = 0; i < buffer.length; i++) send(buffer[i]);
    buffer.length = 0;
  };
  apply(addListener, port, ["ack", onAck]);
  apply(addListener, port, ["stop", () => unhook()]);
  const hello = () => apply(dispatch, doc, [new Mouse(HELLO, { relatedTarget: port })]);
  // record.js came first (the usual order): it takes the channel now. It
  // may come later (another order, or injected after): then it asks.
  const onAsk = () => { if (!connected) hello(); };
  apply(addListener, doc, [ASK, onAsk, true]);
  hello();

  function send(rec) {
    if (stopped) return;
    if (!connected) {
      if (buffer.length < BUFFER_MAX) buffer.push(rec);
      return;
    }
    try {
      apply(dispatch, port, [new Custom("r", { detail: stringify(rec) })]);
    } catch (_) { /* a record that cannot be sent is lost, never the page's call */ }
  }

  function record(fields) {
    const r = create(null);
    const ks = keys(fields);
    for (let i = 0; i < ks.length; i++) r[ks[i]] = fields[ks[i]];
    r.time = now();
    send(r);
  }

  // ---- Text of console arguments, as DevTools would show them, cut ----
  let busy = false; // a getter that logs while we format must not recurse
  // show is a value as text; objects as a JSON-like preview two levels
  // deep and at most PREVIEW_KEYS members each, so that logging a page's
  // whole state costs the page no more than a glance.
  const PREVIEW_KEYS = 20;
  function show(v, depth) {
    try {
      if (typeof v === "string") return depth ? stringify(v) : v;
      if (v === null) return "null";
      if (typeof v === "undefined") return "undefined";
      if (typeof v === "function") return "ƒ " + (v.name || "anonymous") + "()";
      if (typeof v === "symbol" || typeof v === "bigint") return StringC(v);
      if (typeof v !== "object") return StringC(v);
      if (v instanceof Error) return errorStack(v) || StringC(v);
      if (depth >= 2) return isArray(v) ? "[…]" : "{…}";
      let out = "";
      if (isArray(v)) {
        const n = v.length;
        for (let i = 0; i < n && i < PREVIEW_KEYS && out.length < TEXT_MAX; i++) out += (i ? "," : "") + show(v[i], depth + 1);
        return "[" + out + (n > PREVIEW_KEYS ? ",…" : "") + "]";
      }
      const ks = keys(v);
      for (let i = 0; i < ks.length && i < PREVIEW_KEYS && out.length < TEXT_MAX; i++) out += (i ? "," : "") + stringify(ks[i]) + ":" + show(v[ks[i]], depth + 1);
      return "{" + out + (ks.length > PREVIEW_KEYS ? ",…" : "") + "}";
    } catch (_) {
      try { return StringC(v); } catch (_) { return "[object]"; }
    }
  }

  function format(args) {
    let out = "";
    let i = 0;
    if (typeof args[0] === "string" && args.length > 1) {
      out = replace(args[0], /%[sdifoOc%]/g, (m) => {
        if (m === "%%") return "%";
        if (i + 1 >= args.length) return m;
        const a = args[++i];
        if (m === "%c") return "";
        if (m === "%d" || m === "%i") return StringC(parseInt(a, 10));
        if (m === "%f") return StringC(parseFloat(a));
        return show(a, 0);
      });
      i++;
    }
    for (; i < args.length; i++) {
      out += (out ? " " : "") + show(args[i], 0);
      if (out.length > TEXT_MAX) break;
    }
    return slice(out, TEXT_MAX);
  }

  // ---- console ----
  // callSite is where the page called console: the first frame of a
  // stack taken in the wrapper that is not this file's (its URL, read
  // from a stack at the start). A page that set Error.prepareStackTrace
  // would be handed the wrapper's frames by that stack: no call site then
  // (looked up as a descriptor, which runs no getter of the page's).
  const ErrorC = Error;
  const frameRe = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/gm;
  const firstFrameURL = (stack) => {
    let url = "";
    replace(stack, frameRe, (_, fn, u) => { url = url || u; return ""; });
    return url;
  };
  const ownURL = firstFrameURL(errorStack(new ErrorC()));
  // isURL: "scheme:…", without the page's RegExp.prototype.exec.
  const isURL = (u) => {
    const colon = apply(indexOf, u, [":"]);
    return colon > 0 && apply(indexOf, u, [" "]) < 0 && apply(indexOf, u, ["<"]) < 0;
  };
  function callSite() {
    if (getOwnPropertyDescriptor(ErrorC, "prepareStackTrace")) return null;
    let site = null;
    replace(slice(errorStack(new ErrorC()), 8000), frameRe, (_, fn, url, line, col) => {
      // A script with no URL of its own (one evaluated, "<anonymous>")
      // has no call site to give.
      if (!site && url !== ownURL) site = isURL(url) ? { url, line: NumberC(line), column: NumberC(col) } : {};
      return "";
    });
    return site;
  }
  const LEVELS = { debug: "debug", log: "log", info: "info", warn: "warning", error: "error", trace: "log", dir: "log", table: "log", assert: "error" };
  const wrapped = [];
  const con = W.console;
  for (const name in LEVELS) {
    const orig = con && con[name];
    if (typeof orig !== "function") continue;
    const level = LEVELS[name];
    const proxy = new ProxyC(orig, trap((target, self, args) => {
        if (!busy && !stopped) {
          busy = true;
          try {
            const site = callSite();
            const at = site && site.url ? { url: site.url, line: site.line, column: site.column } : {};
            if (name === "assert") {
              if (!args[0]) record({ level, source: "console", text: "Assertion failed" + (args.length > 1 ? ": " + format(apply(Array.prototype.slice, args, [1])) : ""), ...at });
            } else {
              record({ level, source: "console", text: format(args), ...at });
            }
          } catch (_) {
            /* a record we cannot make is lost, never the page's call */
          } finally {
            busy = false;
          }
        }
        return apply(target, self, args);
      }));
    try {
      con[name] = proxy;
      wrapped.push([name, orig, proxy]);
    } catch (_) { /* a frozen console: nothing recorded from it */ }
  }

  // ---- exceptions and rejections ----
  // The top stack frames, as "function\turl\tline\tcolumn" lines (a
  // string, not an array: no Array.prototype.toJSON applies).
  function frames(stack) {
    let out = "";
    let n = 0;
    replace(slice(stack, 8000), frameRe, (_, fn, url, line, col) => {
      if (n++ < 5) out += (fn || "") + "\t" + url + "\t" + line + "\t" + col + "\n";
      return "";
    });
    return out;
  }
  const onError = (e) => {
    // Failed loads of images and scripts also fire error (not bubbling,
    // seen in the capture phase): webRequest records those.
    if (e.target !== W || stopped) return;
    const err = e.error;
    record({ level: "error", source: "exception", text: slice(StringC(e.message || show(err, 0)), TEXT_MAX),
      url: StringC(e.filename || ""), line: e.lineno | 0, column: e.colno | 0, stack: frames(errorStack(err)) });
  };
  const onRejection = (e) => {
    if (stopped) return;
    const reason = e.reason;
    const text = reason instanceof Error ? StringC(reason) : show(reason, 0);
    record({ level: "error", source: "rejection", text: slice("Uncaught (in promise) " + text, TEXT_MAX), stack: frames(errorStack(reason)) });
  };
  apply(addListener, W, ["error", onError, true]);
  apply(addListener, W, ["unhandledrejection", onRejection, true]);

  // ---- bodies of fetch and XHR responses ----
  // webRequest sees every request but no response body; these are the
  // bodies the page's own scripts read, text only, capped.
  const textual = (type) => /^(text\/|application\/(.*\+)?(json|xml|javascript|x-www-form-urlencoded|graphql))/i.test(type || "") && !/event-stream/i.test(type || "");
  // state: "" (text is the body), "over" (over the cap) or "binary".
  // sent is the request's body when the page gave a string (a JSON or
  // text body), for the worker to keep when webRequest did not: its
  // per-tab listener of request bodies starts only once a new tab is known
  // to be the bridge's, after the page's first requests may have gone.
  // at is when the page made the call (before its request left): the
  // worker gives the body to the first request of that method and URL
  // that began after it, which is the call's own.
  function body(via, at, method, url, status, type, text, state, sent) {
    record({ source: "body", via, at, method: StringC(method || "GET"), url: slice(StringC(url || ""), URL_MAX), status: status | 0, mimeType: StringC(type || ""),
      body: state ? "" : slice(text, BODY_MAX), state, sent: typeof sent === "string" ? slice(sent, BODY_MAX) : "" });
  }
  // sentOf is a body argument when it is a string: anything else (a
  // FormData, a Blob, a page object with a toString) is not converted.
  const sentOf = (b) => (typeof b === "string" ? b : "");
  const origFetch = W.fetch;
  let fetchProxy = null;
  if (typeof origFetch === "function" && clone && getReader && Decoder) {
    fetchProxy = new ProxyC(origFetch, trap((target, self, args) => {
        const at = now();
        const p = apply(target, self, args);
        if (stopped) return p;
        requestStarted();
        // The page gets q, which settles as p does: p now has handlers of
        // ours, so its rejection would count as handled, and a fetch the
        // page does not await would fail without the unhandled rejection
        // it shows without the bridge (the very line console looks for).
        // q has none until the page adds them.
        let q = p;
        try {
          q = apply(PromiseThen, p, [(v) => { requestEnded(); return v; }, (e) => { requestEnded(); throw e; }]);
        } catch (_) { requestEnded(); }
        let method = "GET";
        let sent = "";
        try {
          const init = arg(args, 1);
          const req = arg(args, 0);
          method = (init && init.method) || (req && typeof req === "object" && req.method) || "GET";
          // Only a body the page gave as an own data property: no getter
          // of its runs again for us.
          const d = init && typeof init === "object" ? getOwnPropertyDescriptor(init, "body") : undefined;
          sent = sentOf(d && d.value);
        } catch (_) { /* a getter that throws: GET */ }
        apply(PromiseThen, p, [(res) => {
          try {
            const type = apply(headersGet, apply(respHeaders, res, []), ["content-type"]) || "";
            const url = apply(respURL, res, []);
            const status = apply(respStatus, res, []);
            if (!textual(type)) return body("fetch", at, method, url, status, type, "", "binary", sent);
            const copy = apply(clone, res, []);
            const stream = apply(respBody, copy, []);
            if (!stream) return;
            const reader = apply(getReader, stream, []);
            const dec = new Decoder();
            let text = "";
            const pump = () => apply(PromiseThen, apply(readerRead, reader, []), [(chunk) => {
              if (chunk.done) return body("fetch", at, method, url, status, type, text, "", sent);
              text += apply(decode, dec, [chunk.value, { stream: true }]);
              if (text.length > BODY_MAX) {
                apply(readerCancel, reader, []);
                return body("fetch", at, method, url, status, type, "", "over", sent);
              }
              return pump();
            }, () => {}]);
            pump();
          } catch (_) { /* a body we cannot read is not recorded */ }
        }, () => {}]);
        return q;
      }));
    W.fetch = fetchProxy;
  }
  let openProxy = null;
  let sendProxy = null;
  if (XHR && xhrOpen && xhrSend) {
    const methods = new WeakMapC();
    openProxy = new ProxyC(xhrOpen, trap((target, self, args) => {
        try { apply(wmSet, methods, [self, StringC(arg(args, 0) || "GET")]); } catch (_) { /* not an XHR */ }
        return apply(target, self, args);
      }));
    sendProxy = new ProxyC(xhrSend, trap((target, self, args) => {
        if (stopped) return apply(target, self, args);
        // In flight from send to loadend (a synchronous request has ended
        // by the time send returns); once: an XHR sent again gets its own.
        let counted = false;
        let ended = false;
        const sent = sentOf(arg(args, 0));
        const at = now();
        try {
          apply(addListener, self, ["loadend", () => {
            ended = true;
            if (counted) requestEnded();
            try {
              const rt = apply(xhrType, self, []);
              const type = apply(xhrHeader, self, ["content-type"]) || "";
              const method = apply(wmGet, methods, [self]);
              const url = apply(xhrURL, self, []);
              const status = apply(xhrStatus, self, []);
              if ((rt !== "" && rt !== "text") || !textual(type)) return body("xhr", at, method, url, status, type, "", "binary", sent);
              const text = apply(xhrText, self, []);
              body("xhr", at, method, url, status, type, text, text.length > BODY_MAX ? "over" : "", sent);
            } catch (_) { /* an aborted or odd request */ }
          }, ONCE]);
        } catch (_) { /* not an XHR: send throws below */ }
        const out = apply(target, self, args);
        if (!ended) {
          counted = true;
          requestStarted();
        }
        return out;
      }));
    XHR.open = openProxy;
    XHR.send = sendProxy;
  }

  // ---- What the page has scheduled ----
  // Tables of what is pending by the page's ID, at most TABLE_MAX each (a
  // page that schedules more counts as busy until the last of those would
  // be due). Times are performance.now() ms. A frame not drawn within
  // FRAME_MAX (a hidden tab draws none) no longer counts. A timer is kept
  // with the time it is due: one that is due and has not run (a hidden
  // tab's, which Chrome runs at most once a second; a busy machine's) is
  // about to change the page, for up to SHORT_MS past its time.
  const SHORT_MS = 1000;
  const GRACE_MS = 30;
  const FRAME_MS = 50;
  const FRAME_MAX = 250;
  const TABLE_MAX = 500;
  const fromStart = apply(readyState, doc, []) === "loading" && !apply(bodyOf, doc, []);
  const clock = () => apply(perfNow, perf, []);
  const table = (busy) => ({ at: create(null), n: 0, busy });
  const timers = table(true);
  const asked = table(true); // animation frames, by the time they were asked for
  const intervals = table(false);
  let floodUntil = 0;
  let inflight = 0;
  // The current run of work: how many things are pending, when the run
  // began, and until when it lasts after its last thing ended; a run of
  // frames asked for one after another.
  let open = 0;
  let busySince = 0;
  let busyUntil = -1;
  let loopSince = 0;
  let lastFrame = -Infinity;

  function begin() {
    const now = clock();
    if (open === 0 && now > busyUntil) busySince = now;
    open++;
  }
  function end() {
    if (open > 0) open--;
    busyUntil = clock() + GRACE_MS;
  }
  function put(t, id, v) {
    if (typeof id !== "number" || id in t.at || t.n >= TABLE_MAX) return false;
    t.at[id] = v;
    t.n++;
    if (t.busy) begin();
    return true;
  }
  function drop(t, id) {
    if (!(id in t.at)) return;
    delete t.at[id];
    t.n--;
    if (t.busy) end();
  }
  function requestStarted() {
    begin();
    inflight++;
  }
  function requestEnded() {
    if (inflight > 0) {
      inflight--;
      end();
    }
  }
  // delayOf is a timer's delay in ms as the browser reads it, or NaN for
  // one we do not count: an object's valueOf is the page's code, not run
  // here.
  function delayOf(v) {
    if (v === undefined) return 0;
    if (typeof v !== "number" && typeof v !== "string") return NaN;
    const d = NumberC(v);
    return isFiniteN(d) ? (d > 0 ? d : 0) : 0;
  }
  // idOf is a timer or frame ID as clear* reads it (a number, or a
  // string of one, cut to a whole number: clearInterval(3.7) clears 3),
  // or undefined.
  function idOf(v) {
    const n = typeof v === "number" ? v : typeof v === "string" ? NumberC(v) : NaN;
    return n === n ? trunc(n) : undefined;
  }
  const hooked = [];
  function hook(name, after) {
    const orig = W[name];
    if (typeof orig !== "function") return null;
    const proxy = new ProxyC(orig, trap((target, self, args) => {
      const out = apply(target, self, args);
      if (!stopped) {
        try { after(out, args); } catch (_) { /* never the page's call */ }
      }
      return out;
    }));
    try {
      W[name] = proxy;
      hooked.push([name, orig, proxy]);
    } catch (_) { /* a frozen window property: not counted */ }
    return orig;
  }
  let frameNative = null;
  hook("setTimeout", (id, args) => {
    const d = delayOf(arg(args, 1));
    if (!(d <= SHORT_MS)) return;
    if (put(timers, id, clock() + d)) apply(setTimer, W, [() => drop(timers, id), d]);
    else if (typeof id === "number" && !(id in timers.at)) floodUntil = clock() + d + GRACE_MS;
  });
  hook("setInterval", (id, args) => {
    if (delayOf(arg(args, 1)) <= SHORT_MS) put(intervals, id, 1);
  });
  const clear = (_, args) => {
    const id = idOf(arg(args, 0));
    if (id === undefined) return;
    drop(timers, id); // its marker, when it runs, finds nothing
    drop(intervals, id);
  };
  hook("clearTimeout", clear);
  hook("clearInterval", clear);
  frameNative = hook("requestAnimationFrame", (id) => {
    const now = clock();
    if (now - lastFrame > FRAME_MS) loopSince = now;
    lastFrame = now;
    if (put(asked, id, now)) apply(frameNative, W, [() => drop(asked, id)]);
  });
  hook("cancelAnimationFrame", (_, args) => {
    const id = idOf(arg(args, 0));
    if (id !== undefined) drop(asked, id);
  });

  // scheduled is the counts, as record.js asks for them: overdue is how
  // many timers are due and have not run, busyMs how long work has been
  // pending without a break (0: none is), loopMs how long the page has
  // asked for a frame in every frame, and dueMs, when every pending timer
  // is in the table, how long until the first of them is due (so the
  // daemon need not look again before then).
  function scheduled() {
    const now = clock();
    for (const k in asked.at) {
      if (now - asked.at[k] > FRAME_MAX) drop(asked, NumberC(k));
    }
    let due = Infinity;
    let overdue = 0;
    for (const k in timers.at) {
      const at = timers.at[k];
      if (at < due) due = at;
      const late = now - at;
      if (late >= 0 && late <= SHORT_MS) overdue++;
    }
    const r = create(null);
    r.fromStart = fromStart;
    r.timers = timers.n + (floodUntil > now ? 1 : 0);
    r.overdue = overdue;
    r.intervals = intervals.n;
    r.frames = asked.n;
    r.requests = inflight;
    r.busyMs = open > 0 || floodUntil > now ? now - busySince : 0;
    r.loopMs = now - lastFrame <= FRAME_MS ? now - loopSince : 0;
    if (timers.n > 0 && !(floodUntil > now)) r.dueMs = due - now;
    return r;
  }
  apply(addListener, port, ["q", () => {
    if (stopped) return;
    try {
      const init = create(null);
      init.detail = stringify(scheduled());
      apply(dispatch, port, [new Custom("s", init)]);
    } catch (_) { /* no answer: the daemon keeps to its rule without counts */ }
  }]);

  // unhook puts back what the page would have had without the recorder, as
  // long as the page has not replaced it with its own since.
  function unhook() {
    if (stopped) return;
    stopped = true;
    buffer.length = 0;
    for (let i = 0; i < wrapped.length; i++) {
      const name = wrapped[i][0];
      try { if (con[name] === wrapped[i][2]) con[name] = wrapped[i][1]; } catch (_) { /* leave it */ }
    }
    try { if (fetchProxy && W.fetch === fetchProxy) W.fetch = origFetch; } catch (_) { /* leave it */ }
    try { if (openProxy && XHR.open === openProxy) XHR.open = xhrOpen; } catch (_) { /* leave it */ }
    try { if (sendProxy && XHR.send === sendProxy) XHR.send = xhrSend; } catch (_) { /* leave it */ }
    for (let i = 0; i < hooked.length; i++) {
      const name = hooked[i][0];
      try { if (W[name] === hooked[i][2]) W[name] = hooked[i][1]; } catch (_) { /* leave it */ }
    }
    apply(removeListener, W, ["error", onError, true]);
    apply(removeListener, W, ["unhandledrejection", onRejection, true]);
    apply(removeListener, doc, [ASK, onAsk, true]);
  }
  // Nobody took the channel (record.js is not in this page): give the
  // page back its console rather than keep a buffer nobody reads.
  apply(setTimer, W, [() => { if (!connected) unhook(); }, 10_000]);
})();
