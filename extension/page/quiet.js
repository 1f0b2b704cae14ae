// What a page is doing, for extract's readiness wait (the rules are the
// daemon's: internal/actions/readiness.go). This file is both:
//  - a content script, registered by handlers/readiness.js with
//    chrome.scripting.registerContentScripts (only while the bridge is in
//    use, never a static manifest entry), run at document_start in every
//    frame, so that it knows the document's history from the start; and
//  - a page script that page.run injects when the content script was not
//    there (a page loaded before the registration): then it only knows what
//    happened since its injection, and says so (fromStart: false).
// Both run in the extension's isolated world, which content scripts and
// scripting.executeScript share, so __bb.quietState sees the same record.
// Page content is untrusted: the observers only record times.
(() => {
  // An own property, defined once (see page/dom.js): a page's
  // <div id="__bb"> must not stand in for it.
  if (!Object.hasOwn(globalThis, "__bb")) {
    Object.defineProperty(globalThis, "__bb", { value: { loaded: {} }, configurable: false, enumerable: false, writable: false });
  }
  const bb = globalThis.__bb;
  if (bb.loaded.quiet) return;
  bb.loaded.quiet = true;

  // The document's own getters: a named <img name="readyState"> must not
  // answer for them.
  const readyState = Object.getOwnPropertyDescriptor(Document.prototype, "readyState").get;
  const body = Object.getOwnPropertyDescriptor(Document.prototype, "body").get;

  const now0 = performance.now();
  const fromStart = readyState.call(document) === "loading" && !body.call(document);
  const q = { since: now0, last: now0, count: 0, input: 0, loadAt: 0, fromStart };
  bb.quiet = q;
  // The latest times of three things, a few of each: bursts of DOM
  // changes, inputs, and responses to the page's requests.
  const KEEP = 16;
  const bursts = [];
  const inputs = [];
  const responses = [];
  const keep = (list, t) => {
    list.push(t);
    if (list.length > KEEP) list.shift();
  };

  // DOM changes. document_start: documentElement may not exist yet, so
  // observe the document itself. Parser insertions are mutations too,
  // which is what we want: a page still streaming in is not quiet. Only
  // structure and text count: attribute changes (a carousel rotating
  // classes, a spinner's style) would keep many idle pages "busy" forever
  // without changing what a reader sees. Callbacks less than BURST_MS
  // apart are one burst.
  const BURST_MS = 10;
  const observer = new MutationObserver((records) => {
    const now = performance.now();
    if (!bursts.length || now - q.last > BURST_MS) keep(bursts, now);
    q.last = now;
    q.count += records.length;
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });

  // Input: a click or a key starts work that may change the page a moment
  // later (a timer, a fetch), before any DOM change shows it. Pointer and
  // key events count when trusted (the bridge's CDP input, the user);
  // input, change and submit count also when synthetic, since the bridge's
  // DOM actions (select, check) send those. Listeners in the isolated
  // world see the page's events without the page seeing them.
  const onInput = (e) => {
    if (e.isTrusted || e.type === "input" || e.type === "change" || e.type === "submit") {
      q.input = performance.now();
      keep(inputs, q.input);
    }
  };
  for (const type of ["pointerdown", "pointerup", "click", "keydown", "keyup", "input", "change", "submit"]) {
    addEventListener(type, onInput, { capture: true, passive: true });
  }

  // Responses: when the page's fetches, XHRs and scripts finished (resource
  // timing, which the isolated world sees too; an entry may arrive after
  // the change it caused, which is why the times are kept and judged only
  // when asked).
  const CAUSES = new Set(["fetch", "xmlhttprequest", "script", "iframe"]);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (CAUSES.has(e.initiatorType)) keep(responses, e.responseEnd);
    }).observe({ type: "resource", buffered: true });
  } catch (_) { /* no resource timing: every change after load counts as the page's own */ }

  addEventListener("load", () => { q.loadAt = performance.now(); }, { once: true });
  const loadAt = () => {
    if (q.loadAt) return q.loadAt;
    const nav = performance.getEntriesByType("navigation")[0];
    return nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : 0;
  };

  // A burst after the load event that no input and no response came just
  // before (within CAUSE_MS) is the page changing by itself: a ticker, a
  // feed, a timer. selfAt is the last such burst's time (0: none known).
  const CAUSE_MS = 100;
  const caused = (t) => [...inputs, ...responses].some((c) => t >= c && t - c <= CAUSE_MS);
  const selfAt = (loaded) => {
    for (let i = bursts.length - 1; i >= 0; i--) {
      if (bursts[i] <= loaded) return 0;
      if (!caused(bursts[i])) return bursts[i];
    }
    return 0;
  };

  // quietState reports, in ms until now: since the DOM last changed
  // (quietMs), since it last changed by itself after the load event
  // (selfQuietMs; absent when it did not), since the last input
  // (inputQuietMs; since the observation began when there was none) and
  // since the load event (sinceLoadMs; absent before it), and the
  // document's readyState; and, in the top frame of a page the bridge
  // records from its start, what the page has scheduled (scheduled: the
  // recorder's counts, page/record.js).
  bb.quietState = () => {
    const now = performance.now();
    const loaded = loadAt();
    const self = loaded ? selfAt(loaded) : 0;
    let scheduled = null;
    try {
      if (bb.record && typeof bb.record.scheduled === "function") scheduled = bb.record.scheduled();
    } catch (_) { /* no counts: the daemon keeps to its rule without them */ }
    return {
      ...(scheduled ? { scheduled } : {}),
      readyState: String(readyState.call(document)),
      quietMs: Math.round(now - q.last),
      ...(self ? { selfQuietMs: Math.round(now - self) } : {}),
      inputQuietMs: Math.round(now - (q.input || q.since)),
      ...(loaded ? { sinceLoadMs: Math.round(now - loaded) } : {}),
      observedMs: Math.round(now - q.since),
      mutations: q.count,
      fromStart: q.fromStart,
      url: location.href,
    };
  };
})();
