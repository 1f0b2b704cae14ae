// Masks sensitive fields (password, one-time-code and payment-card fields:
// bb.isSensitive in dom.js) while a screenshot is taken, so an autofilled
// card number is never captured in clear, and puts them back afterwards.
// The mask is -webkit-text-security on the element's inline style, with
// the page's own inline value kept to restore.
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.mask) return;
  bb.loaded.mask = true;

  const masked = new Map(); // element -> [value, priority] of its inline style before
  // Two screenshots of one tab may overlap (two agents, or the replay's
  // picture beside the agent's own screenshot): the first to finish must
  // not unmask what the other is capturing. So the mask is held as long
  // as one screenshot holds it, and a hold that is never let go (its
  // screenshot gave up) ends after HOLD_MS: longer than any capture may
  // take (a tall page's tiles, on a slow machine), since a mask that
  // ended mid-capture would let a card number into the picture.
  const HOLD_MS = 120000;
  let holds = 0;
  let expiry;

  // Every element under root, shadow roots (open and closed) included.
  const walk = (root, fn) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = it.currentNode; n; n = it.nextNode()) {
      if (n.nodeType === 1) {
        fn(n);
        const sr = bb.shadowRoot(n);
        if (sr) walk(sr, fn);
      }
    }
  };

  bb.maskSensitive = () => {
    holds++;
    clearTimeout(expiry);
    expiry = setTimeout(restore, HOLD_MS);
    let n = 0;
    walk(document, (el) => {
      if (masked.has(el) || !bb.isSensitive(el)) return;
      masked.set(el, [el.style.getPropertyValue("-webkit-text-security"), el.style.getPropertyPriority("-webkit-text-security")]);
      el.style.setProperty("-webkit-text-security", "disc", "important");
      n++;
    });
    // The pixel ratio, for the screenshot's scale (read here, in the
    // isolated world, where the page cannot redefine it).
    return { masked: n, ratio: devicePixelRatio };
  };

  bb.unmaskSensitive = () => {
    if (--holds > 0) return { unmasked: 0, held: holds };
    return { unmasked: restore() };
  };

  // restore puts back the page's own style of every masked field.
  const restore = () => {
    clearTimeout(expiry);
    holds = 0;
    for (const [el, [value, priority]] of masked) {
      if (value) el.style.setProperty("-webkit-text-security", value, priority);
      else el.style.removeProperty("-webkit-text-security");
    }
    const n = masked.size;
    masked.clear();
    return n;
  };
})();
