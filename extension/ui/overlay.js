// The hand-off overlay's holder, injected into the page's top frame
// (handlers/handoff.js) in the extension's isolated world: it places the
// extension frame ui/handoff.html in a corner, inside a closed shadow
// root, in the top layer (a manual popover) above the page's own stacking,
// and puts it back when the page removes, hides or restyles it. The
// frame's content is cross-origin to the page, so the page can neither
// read the message nor click Done; all it could do is hide the frame, and
// then the extension's own page still has the buttons.
globalThis.__bbHandoffOverlay ??= (() => {
  let host = null;
  let frame = null;
  let observer = null;
  let src = "";
  let corner = "top";
  // The frame's title and height (the hand-off's unless show says).
  let title = "Browser Bridge: your agent hands you this tab";
  let height = 188;

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
    frame = document.createElement("iframe");
    frame.src = src;
    frame.title = title;
    frame.setAttribute("style", "border:0;width:100%;height:100%;display:block;background:transparent;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.28)");
    root.append(frame);
  }

  function attach() {
    if (!host) build();
    if (host.getAttribute("style") !== style()) host.setAttribute("style", style());
    if (!host.popover) host.popover = "manual";
    // Put back only when it was taken out: moving a frame reloads it.
    if (!host.isConnected) (document.body || document.documentElement).append(host);
    // The top layer keeps it above whatever the page stacks; a browser
    // without popovers still has the z-index.
    try {
      if (!host.matches(":popover-open")) host.showPopover();
    } catch (_) { /* not connected yet, or no popover support */ }
  }

  // watch puts the holder back when the page takes it out of the
  // document (or replaces the body) or touches its attributes.
  function watch() {
    if (observer) return;
    observer = new MutationObserver(() => {
      if (host) attach();
    });
    observer.observe(document, { childList: true, subtree: true });
    observer.observe(host, { attributes: true });
    host.addEventListener("toggle", (e) => {
      if (e.newState === "closed") setTimeout(() => host && attach(), 0);
    });
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
    },
    hide() {
      observer?.disconnect();
      observer = null;
      const h = host;
      host = null;
      frame = null;
      h?.remove();
    },
  };
})();
