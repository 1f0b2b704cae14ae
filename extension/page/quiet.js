// Quiet-DOM tracking for extract's readiness wait. This file is both:
//  - a content script, registered by handlers/readiness.js with
//    chrome.scripting.registerContentScripts (only while the bridge is in
//    use, never a static manifest entry), run at document_start in every
//    frame, so that it knows when the DOM last changed since the document
//    began; and
//  - a page script that page.run injects when the content script was not
//    there (a page loaded before the registration): then it only knows the
//    changes since its injection, and says so (fromStart: false).
// Both run in the extension's isolated world, which content scripts and
// scripting.executeScript share, so __bb.quietState sees the same record.
// Page content is untrusted: the observer only records times.
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

  // document_start: documentElement may not exist yet, so observe the
  // document itself. Parser insertions are mutations too, which is what we
  // want: a page still streaming in is not quiet.
  const fromStart = readyState.call(document) === "loading" && !body.call(document);
  const q = { since: performance.now(), last: performance.now(), count: 0, fromStart };
  bb.quiet = q;
  // Only structure and text count. Attribute changes (a carousel rotating
  // classes, a spinner's style) would keep many idle pages "busy" forever
  // without changing what a reader sees.
  const observer = new MutationObserver((records) => {
    q.last = performance.now();
    q.count += records.length;
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });

  // quietState reports how long the DOM has been unchanged and whether the
  // load event has passed.
  bb.quietState = () => ({
    readyState: String(readyState.call(document)),
    quietMs: Math.round(performance.now() - q.last),
    observedMs: Math.round(performance.now() - q.since),
    mutations: q.count,
    fromStart: q.fromStart,
    url: location.href,
  });
})();
