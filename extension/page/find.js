// find: where a text is in one frame's rendered, visible page, shadow
// roots (open and closed) included. It runs in every frame; each answers
// the first max matches of its own document and how many there are, each
// with the words around it, a ref of the element that holds it (a locator
// for click, scroll, …) and its box in the frame's viewport. The page's
// text is read, never changed; password and card fields are not read (the
// search is over text nodes, and their values are no text nodes).
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.find) return;
  bb.loaded.find = true;

  const CONTEXT = 60; // characters each side of a match
  const cut = (s, n) => (s.length > n ? s.slice(0, n) : s);

  bb.find = ({ query, max }) => {
    const q = bb.norm(query).toLowerCase();
    const out = { matches: [], total: 0 };
    if (!q) return out;
    const root = bb.root();
    if (!root) return out;
    const visible = new Map();
    for (const el of bb.elements(root)) {
      const tag = bb.tag(el);
      if (tag === "script" || tag === "style" || tag === "noscript" || tag === "template") continue;
      for (const n of bb.renderedChildren(el)) {
        if (bb.nodeType(n) !== 3) continue;
        const raw = bb.textContent(n);
        const low = raw.replace(/\s+/g, " ").toLowerCase();
        if (!low.includes(q)) continue;
        if (!visible.has(el)) visible.set(el, bb.isVisible(el));
        if (!visible.get(el)) continue;
        // Whitespace runs count as one space in the query, so match on
        // the text as the page renders it and map back.
        let from = 0;
        for (;;) {
          const at = low.indexOf(q, from);
          if (at < 0) break;
          from = at + q.length;
          out.total++;
          if (out.matches.length >= max) continue;
          const text = bb.visibleText(el);
          const i = text.toLowerCase().indexOf(q);
          const start = Math.max(0, (i < 0 ? 0 : i) - CONTEXT);
          const context = cut(text.slice(start, (i < 0 ? 0 : i) + q.length + CONTEXT), 2 * CONTEXT + q.length);
          let r = bb.rectOf(el);
          if (raw.length === low.length) {
            try {
              const range = bb.range();
              range.setStart(n, at);
              range.setEnd(n, at + q.length);
              const rr = range.getBoundingClientRect();
              if (rr.width > 0 || rr.height > 0) r = rr;
            } catch (_) { /* the element's box stands in */ }
          }
          out.matches.push({
            text: i < 0 ? cut(bb.norm(raw), 200) : text.slice(i, i + q.length),
            context: (start > 0 ? "…" : "") + context + (start + context.length < text.length ? "…" : ""),
            ref: bb.refFor(el),
            rect: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) },
          });
        }
      }
    }
    return out;
  };
})();
