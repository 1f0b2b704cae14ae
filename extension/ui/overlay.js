// The hand-off overlay's holder, injected into the page's top frame
// (handlers/handoff.js) in the extension's isolated world: it places the
// extension frame ui/handoff.html in a corner, in the top layer (a manual
// popover) above the page's own stacking, and puts it back when the page
// removes, hides or restyles it. The frame's content is cross-origin to
// the page, so the page can neither read the message nor click Done.
//
// The page may also put its own look-alike over it: a
// popover, a dialog or a full-screen element shown later goes above in the
// top layer, and a click meant for the bridge's Done lands on the page's.
// So the box is raised back to the top of the top layer:
//   - at once whenever the page shows something over it in the top layer
//     (its beforetoggle and toggle events, fullscreenchange): in a
//     microtask queued from beforetoggle, the box is on top again before
//     the page's script has even returned to the event loop, so nothing
//     is drawn or clicked in between; and what the page shows over it
//     again right after is not let open (onTopLayer);
//   - on every frame and every LOOK_MS, when a click at its middle or
//     corners would not reach it (a look-alike kept in a closed shadow
//     root of the page's, whose events the bridge does not see); what
//     keeps covering it is hidden until the hand-off ends (look).
// The box itself is a popover inside the holder's closed shadow root, not
// the holder: its own toggle events (not composed) never leave the shadow
// root, so the page cannot tell when the bridge raises it, and cannot
// answer each raise with its own.
// A modal dialog of the page's makes everything outside it inert, however
// high the box is drawn: while one is open, the holder lives inside it
// (home()).
// Whatever the page shows, only the bridge's own Done ends the hand-off
// (the page's look-alike is the page's), and the extension's own page
// keeps the buttons too.
globalThis.__bbHandoffOverlay ??= (() => {
  const LOOK_MS = 200;
  let host = null; // the holder, in the page's document
  let box = null; // the popover inside its closed shadow root
  let frame = null;
  let observer = null;
  let looking = null; // {interval, frame} of the looks while shown
  let src = "";
  let corner = "top";
  // The frame's title and height (the hand-off's unless show says).
  let title = "Browser Bridge: your agent hands you this tab";
  let height = 188;

  // style is both the holder's and the box's: the holder's place in the
  // page's own stacking is the box's place in the top layer.
  const style = () => [
    "all: initial !important",
    "position: fixed !important",
    (corner === "bottom" ? "bottom" : "top") + ": 16px !important",
    "right: 16px !important",
    "left: auto !important",
    (corner === "bottom" ? "top" : "bottom") + ": auto !important",
    "width: min(380px, calc(100vw - 32px)) !important",
    `height: ${height}px !important`,
    "margin: 0 !important",
    "padding: 0 !important",
    "border: 0 !important",
    "background: transparent !important",
    "overflow: visible !important",
    "display: block !important",
    "visibility: visible !important",
    "opacity: 1 !important",
    "transform: none !important",
    "filter: none !important",
    "clip-path: none !important",
    "pointer-events: auto !important",
    "z-index: 2147483647 !important",
    "color-scheme: normal !important",
  ].join(";");

  function build() {
    // A name of its own each time: a page cannot define the element
    // first, nor style it by name.
    host = document.createElement("bb-handoff-" + crypto.randomUUID().slice(0, 8));
    const root = host.attachShadow({ mode: "closed" });
    box = document.createElement("div");
    box.popover = "manual";
    box.addEventListener("toggle", (e) => {
      if (e.newState === "closed") setTimeout(() => host && attach(), 0);
    });
    frame = document.createElement("iframe");
    frame.src = src;
    frame.title = title;
    frame.setAttribute("style", "border:0;width:100%;height:100%;display:block;background:transparent;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.28)");
    box.append(frame);
    root.append(box);
  }

  function attach() {
    if (!host) build();
    // The holder keeps its style and nothing else (hidden, inert, a
    // popover of the page's making…).
    for (const name of host.getAttributeNames()) if (name !== "style") host.removeAttribute(name);
    if (host.getAttribute("style") !== style()) host.setAttribute("style", style());
    if (box.getAttribute("style") !== style()) box.setAttribute("style", style());
    // Put back only when it was taken out or its home changed: moving a
    // frame reloads it.
    const want = home();
    if (host.parentNode !== want) want.append(host);
    // An inert ancestor would make the box unclickable wherever it is
    // drawn: during a hand-off the page is the user's, not the page's to
    // lock.
    for (let e = host.parentElement; e; e = e.parentElement) if (e.hasAttribute("inert")) e.removeAttribute("inert");
    // The top layer keeps it above whatever the page stacks; a browser
    // without popovers still has the z-index.
    try {
      if (!box.matches(":popover-open")) box.showPopover();
    } catch (_) { /* not connected yet, or no popover support */ }
  }

  // home is where the holder lives: the page's body, or, while the page
  // shows a modal dialog, that dialog. A modal dialog makes everything
  // outside it inert — the box too, however high it is drawn — and only
  // its own content answers clicks. (The last one in the document when
  // there are several.)
  function home() {
    const modals = document.querySelectorAll("dialog:modal");
    return modals[modals.length - 1] || document.body || document.documentElement;
  }

  // raise puts the box at the top of the top layer again: a popover shown
  // again goes above everything shown before it. Hiding and showing in
  // one go draws nothing in between, and does not reload the frame.
  function raise() {
    if (!host) return;
    attach();
    try {
      box.hidePopover();
      box.showPopover();
    } catch (_) { /* no popover support: the z-index is all there is */ }
  }

  // reachable says whether a click at the box's middle and near its
  // corners (those inside the viewport) would reach it.
  function reachable() {
    const r = box.getBoundingClientRect();
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 4, r.top + 4], [r.right - 4, r.top + 4], [r.left + 4, r.bottom - 4], [r.right - 4, r.bottom - 4]];
    return points
      .filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)
      .every(([x, y]) => document.elementFromPoint(x, y) === host);
  }

  // look raises the box when a click would not reach it. What covers it
  // again within REPEAT_MS of the box going over it, without the bridge
  // seeing it open (a look-alike in a closed shadow root of the page's,
  // whose events do not leave it; a page that stops the events), is put
  // away (display: none) until the hand-off ends. When raising does not
  // help (something the bridge does not know of keeps the box from
  // clicks), it waits a second before it tries again rather than hide and
  // show the box on every frame.
  const REPEAT_MS = 1000;
  const raisedOver = new WeakMap(); // page element -> when the box last went over it
  let stuckUntil = 0;
  function look() {
    if (!host) return;
    attach();
    if (reachable() || Date.now() < stuckUntil) return;
    const over = coverer();
    if (over) {
      if (Date.now() - (raisedOver.get(over) ?? -Infinity) < REPEAT_MS) putAway(over);
      raisedOver.set(over, Date.now());
    }
    raise();
    if (!reachable()) stuckUntil = Date.now() + 1000;
  }

  // coverer is the page's element over the box's middle, if one is (never
  // the page's root or body, nor what holds the box).
  function coverer() {
    const r = box.getBoundingClientRect();
    const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!el || el === host || el.contains(host) || el === document.documentElement || el === document.body) return null;
    return el;
  }

  // putAway hides a page's element that keeps covering the box, until the
  // hand-off ends (hide() gives it its style back).
  const putAwayStyles = new Map(); // element -> its style attribute before
  function putAway(el) {
    if (!putAwayStyles.has(el)) putAwayStyles.set(el, el.getAttribute("style"));
    el.style.setProperty("display", "none", "important");
  }

  // Something of the page's entered the top layer: when it covers the
  // box, the box goes back over it. From beforetoggle, in a microtask: it
  // runs once the page's call to showPopover (or show, showModal) has
  // returned, before anything is drawn or clicked. An element that comes
  // back over the box within REPEAT_MS of the box going over it is a page
  // fighting for the top: it is not let open again while that lasts
  // (its beforetoggle is cancelled). Raising the box each time instead
  // would hide and show it as fast as the page can, and a click on the
  // box's frame does not survive that.
  function onTopLayer(e) {
    if (!host || e.target === host) return;
    if (e.type === "fullscreenchange") {
      queueMicrotask(look);
      return;
    }
    if (e.newState !== "open") return;
    const el = e.target;
    if (e.type === "beforetoggle" && e.cancelable && Date.now() - (raisedOver.get(el) ?? -Infinity) < REPEAT_MS) {
      e.preventDefault();
      raisedOver.set(el, Date.now());
      return;
    }
    queueMicrotask(() => {
      if (!host || reachable()) return;
      raisedOver.set(el, Date.now());
      raise();
    });
  }
  const TOP_LAYER_EVENTS = ["beforetoggle", "toggle", "fullscreenchange"];

  // watch puts the holder back when the page takes it out of the
  // document (or replaces the body) or touches its attributes, and keeps
  // the box on top.
  function watch() {
    if (observer) return;
    observer = new MutationObserver(() => {
      if (host) attach();
    });
    observer.observe(document, { childList: true, subtree: true });
    observer.observe(host, { attributes: true });
    for (const type of TOP_LAYER_EVENTS) addEventListener(type, onTopLayer, true);
    looking = { interval: setInterval(look, LOOK_MS), frame: 0 };
    const everyFrame = () => {
      if (!looking) return;
      look();
      looking.frame = requestAnimationFrame(everyFrame);
    };
    looking.frame = requestAnimationFrame(everyFrame);
  }

  return {
    show(url, where, opts) {
      corner = where === "bottom" ? "bottom" : "top";
      if (opts && typeof opts.title === "string") title = opts.title;
      if (opts && Number.isInteger(opts.height)) height = Math.min(Math.max(opts.height, 120), 400);
      if (frame) frame.title = title;
      if (frame && src !== url) frame.src = url;
      src = url;
      attach();
      watch();
      raise();
    },
    hide() {
      observer?.disconnect();
      observer = null;
      for (const type of TOP_LAYER_EVENTS) removeEventListener(type, onTopLayer, true);
      if (looking) {
        clearInterval(looking.interval);
        cancelAnimationFrame(looking.frame);
        looking = null;
      }
      for (const [el, style] of putAwayStyles) {
        if (style === null) el.removeAttribute("style");
        else el.setAttribute("style", style);
      }
      putAwayStyles.clear();
      const h = host;
      host = null;
      box = null;
      frame = null;
      h?.remove();
    },
  };
})();
