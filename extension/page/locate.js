// Locators (SPEC §2): find elements by selector, visible text, role + name,
// label, placeholder, ref or a point; scroll one into view and give a point
// to click; and the frame handshake that translates a point in a child
// frame into its parent's coordinates. Builds on page/dom.js.
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.locate) return;
  bb.loaded.locate = true;

  const MAX_MATCHES = 50;

  const fail = (code, message) => Object.assign(new Error(message), { code });

  // matcher compares normalised text: case-insensitive substring, or exact
  // equality when asked.
  const matcher = (want, exact) => {
    const w = bb.norm(want);
    if (exact) return (s) => bb.norm(s) === w;
    const lw = w.toLowerCase();
    return (s) => bb.norm(s).toLowerCase().includes(lw);
  };

  const INTERACTIVE = "a[href],button,input,select,textarea,summary,label,[role=button],[role=link],[role=checkbox],[role=switch],[role=radio],[role=tab],[role=menuitem],[role=option],[contenteditable=''],[contenteditable=true],[tabindex]";

  const parentElement = Object.getOwnPropertyDescriptor(Node.prototype, "parentElement").get;
  const assignedSlot = Object.getOwnPropertyDescriptor(Element.prototype, "assignedSlot").get;

  // composedParents are the nodes above n in the rendered tree: its parent
  // (a shadow root's host for a root's child) and, for a slotted node, the
  // slot it shows in (known for open roots only).
  const composedParents = (n) => {
    const out = [];
    let p = bb.parentNode(n);
    if (p && bb.nodeType(p) === 11) p = p.host || null;
    if (p) out.push(p);
    if (bb.nodeType(n) === 1) {
      const slot = assignedSlot.call(n);
      if (slot) out.push(slot);
    }
    return out;
  };

  // promote moves a text match up to the control it sits in (a <span> in a
  // <button>), so the report names what a person would say they clicked.
  const promote = (el) => {
    let n = el;
    for (let i = 0; i < 4 && n; i++) {
      if (bb.matches(n, INTERACTIVE)) return n;
      const root = bb.rootNode(n);
      n = parentElement.call(n) || (root instanceof ShadowRoot ? root.host : null);
    }
    return el;
  };

  // innermost keeps the elements none of whose descendants also matched.
  // It marks every composed ancestor of every match once (stopping at an
  // ancestor already marked), so the cost is the size of the tree above
  // the matches, not matches × their subtrees.
  const innermost = (els) => {
    const set = new Set(els);
    const above = new Set();
    for (const el of els) {
      const stack = composedParents(el);
      while (stack.length) {
        const n = stack.pop();
        if (above.has(n)) continue;
        above.add(n);
        stack.push(...composedParents(n));
      }
    }
    return els.filter((el) => {
      if (above.has(el)) return false;
      // A slot inside a closed root does not show as its nodes' parent:
      // ask the slot for them.
      if (bb.tag(el) === "slot") {
        for (const a of el.assignedNodes({ flatten: true })) if (set.has(a) || above.has(a)) return false;
      }
      return true;
    });
  };

  function byText(text, exact) {
    const m = matcher(text, exact);
    // Cheap prefilter on textContent (every word must be in it; blocks may
    // run together there, so not the whole phrase), then the rendered text.
    const words = bb.norm(text).toLowerCase().split(" ");
    const cands = [];
    for (const el of bb.elements(bb.body() || bb.root())) {
      try {
        const tag = bb.tag(el);
        if (["script", "style", "noscript", "template", "head"].includes(tag)) continue;
        const tc = bb.textContent(el).toLowerCase();
        if (!words.every((w) => tc.includes(w)) && tag !== "input") continue;
        const t = tag === "input" && ["button", "submit", "reset"].includes((el.type || "").toLowerCase()) ? el.value : bb.visibleText(el);
        if (m(t)) cands.push(el);
      } catch (_) { /* an element the page made odd: not a match */ }
    }
    const seen = new Set();
    const out = [];
    for (const el of innermost(cands)) {
      const p = promote(el);
      if (!seen.has(p)) { seen.add(p); out.push(p); }
    }
    return out;
  }

  function byRole(role, name, exact) {
    const m = name ? matcher(name, exact) : () => true;
    const r = bb.norm(role).toLowerCase();
    const out = [];
    for (const el of bb.elements(bb.root())) {
      try {
        if (bb.role(el) === r && m(bb.accessibleName(el))) out.push(el);
      } catch (_) { /* an element the page made odd: not a match */ }
    }
    return out;
  }

  function byLabel(label, exact) {
    const m = matcher(label, exact);
    const out = [];
    for (const el of bb.elements(bb.root())) {
      try {
        const tag = bb.tag(el);
        const isField = ["input", "select", "textarea"].includes(tag) || bb.editable(el) ||
          ["textbox", "checkbox", "radio", "switch", "combobox", "listbox", "slider", "searchbox", "spinbutton"].includes(bb.attr(el, "role") || "");
        if (!isField || (tag === "input" && el.type === "hidden")) continue;
        const l = bb.labelText(el) || bb.norm(bb.attr(el, "aria-label"));
        if (l && m(l)) out.push(el);
      } catch (_) { /* an element the page made odd: not a match */ }
    }
    return out;
  }

  function byPlaceholder(ph, exact) {
    const m = matcher(ph, exact);
    const out = [];
    for (const el of bb.elements(bb.root())) {
      const p = bb.attr(el, "placeholder") || bb.attr(el, "aria-placeholder");
      if (p && m(p)) out.push(el);
    }
    return out;
  }

  function bySelector(sel) {
    try {
      return bb.deepQueryAll(sel);
    } catch (e) {
      throw fail("invalid_argument", `selector ${JSON.stringify(sel)} is not valid CSS: ${e.message}`);
    }
  }

  // describe is what Go gets for each match.
  bb.describe = (el) => {
    const r = bb.rectOf(el);
    return {
      ref: bb.refFor(el),
      tag: bb.tag(el),
      role: bb.role(el),
      name: bb.accessibleName(el).slice(0, 120),
      text: bb.visibleText(el).slice(0, 120),
      visible: bb.isVisible(el),
      rect: { x: r.x, y: r.y, width: r.width, height: r.height },
    };
  };

  // candidates suggests what the caller may have meant when nothing
  // matched: visible interactive elements whose names share the most words.
  function candidates(want) {
    const words = bb.norm(want).toLowerCase().split(" ").filter(Boolean);
    const scored = [];
    for (const el of bb.elements(bb.root())) {
      try {
        if (!bb.matches(el, INTERACTIVE) || !bb.isVisible(el)) continue;
        const name = (bb.accessibleName(el) || bb.visibleText(el)).toLowerCase();
        if (!name) continue;
        let score = 0;
        for (const w of words) if (name.includes(w)) score += w.length;
        for (let i = 0; i < Math.min(3, name.length); i++) if (words.join(" ").includes(name.slice(i, i + 3))) score += 0.1;
        if (score > 0) scored.push([score, el]);
      } catch (_) { /* an element the page made odd: no candidate */ }
    }
    scored.sort((a, b) => b[0] - a[0]);
    return scored.slice(0, 3).map(([, el]) => bb.describe(el));
  }

  // locate returns the matches of one locator in this frame, in document
  // order (at most MAX_MATCHES described, count is the true total).
  bb.locate = (a) => {
    let els;
    let want = "";
    if (a.ref) {
      const el = bb.byRef(a.ref);
      els = el ? [el] : [];
      want = a.ref;
    } else if (a.selector) {
      els = bySelector(a.selector);
      want = a.selector;
    } else if (a.role) {
      els = byRole(a.role, a.name, a.exact);
      want = a.name || a.role;
    } else if (a.text) {
      els = byText(a.text, a.exact);
      want = a.text;
    } else if (a.label) {
      els = byLabel(a.label, a.exact);
      want = a.label;
    } else if (a.placeholder) {
      els = byPlaceholder(a.placeholder, a.exact);
      want = a.placeholder;
    } else {
      throw fail("invalid_argument", "no locator given");
    }
    const out = { count: els.length, matches: els.slice(0, MAX_MATCHES).map(bb.describe) };
    if (!els.length && a.suggest) out.candidates = candidates(want);
    // In the top frame, measure the point of the element the daemon will
    // pick when nothing else decides (the first visible match) right away:
    // one round trip less for the common click. Child frames do not, as
    // scrolling them for a match that may not be chosen would show.
    if (a.point && window === window.top) {
      const i = out.matches.findIndex((m) => m.visible);
      if (i >= 0) out.point = { index: i, ...bb.point({ ref: out.matches[i].ref }) };
    }
    return out;
  };

  // point scrolls the element of ref into view (centred, only when not
  // already fully visible) and returns the centre of its visible part in
  // this frame's viewport, with what is on top there.
  bb.point = (a) => {
    const el = bb.byRef(a.ref);
    if (!el) throw fail("element_not_found", "the element is gone from the page (it was removed or the page changed); locate it again");
    let r = bb.rectOf(el);
    const vw = innerWidth, vh = innerHeight;
    if (a.scroll !== false && (r.top < 0 || r.left < 0 || r.bottom > vh || r.right > vw)) {
      if (getComputedStyle(el).display === "contents") {
        // scrollIntoView does nothing without a box: scroll the page.
        scrollBy(0, r.top + r.height / 2 - vh / 2);
      } else {
        el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      }
      r = bb.rectOf(el);
    }
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, vw);
    const y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, vh);
    const x = x1 > x0 ? (x0 + x1) / 2 : r.left + r.width / 2;
    const y = y1 > y0 ? (y0 + y1) / 2 : r.top + r.height / 2;
    let top = null;
    let hit = bb.elementFromPoint(document, x, y);
    // Descend into shadow roots, open and closed, to the real target.
    for (let root; hit && (root = bb.shadowRoot(hit));) {
      const inner = bb.elementFromPoint(root, x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    const hitTag = hit ? bb.tag(hit) : "";
    if (hit && hit !== el && !bb.contains(el, hit) && !(hitTag === "iframe" || hitTag === "frame")) {
      const composedContains = (() => {
        for (let n = hit; n; n = bb.parentNode(n) || n.host) if (n === el) return true;
        return false;
      })();
      if (!composedContains) top = { tag: hitTag, text: bb.visibleText(hit).slice(0, 40) };
    }
    return { x, y, obscuredBy: top, inViewport: x >= 0 && y >= 0 && x <= vw && y <= vh, element: bb.describe(el) };
  };

  // underPointer describes the element at a viewport point of this frame
  // (inside shadow roots; a frame's own element when the point is on one),
  // for hover's result: what the pointer rests on once the page reacted.
  bb.underPointer = (a) => {
    let hit = bb.elementFromPoint(document, a.x, a.y);
    for (let root; hit && (root = bb.shadowRoot(hit));) {
      const inner = bb.elementFromPoint(root, a.x, a.y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit ? bb.describe(hit) : null;
  };

  // docPoint turns a point in document coordinates into a viewport point,
  // scrolling it into view when it is outside.
  bb.docPoint = (a) => {
    let x = a.x - scrollX, y = a.y - scrollY;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) {
      scrollTo(Math.max(0, a.x - innerWidth / 2), Math.max(0, a.y - innerHeight / 2));
      x = a.x - scrollX;
      y = a.y - scrollY;
    }
    return { x, y };
  };

  // Frame handshake. A child frame cannot learn where its <iframe> sits in
  // a cross-origin parent, and the parent cannot tell which <iframe> is the
  // extension's frameId N. So the child posts a one-time token to its
  // parent; the parent's isolated world sees the message with event.source
  // = that iframe's window and finds the element whose contentWindow it is.
  //
  // The page sees these messages too and may post its own: the first
  // message for a token wins (a later copy cannot redirect it), only
  // windows of this frame's own child frames count, and when over
  // MAX_TOKENS unclaimed tokens are held (a page flooding us), old ones are
  // dropped and new ones ignored.
  const MAX_TOKENS = 100;
  const TOKEN_TTL_MS = 10000;
  const tokens = new Map(); // token -> { src: source window, at: time }
  const isChild = (w) => {
    try {
      return !!w && w !== window && w.parent === window;
    } catch (_) {
      return false;
    }
  };
  EventTarget.prototype.addEventListener.call(window, "message", (e) => {
    const d = e.data;
    if (!d || typeof d !== "object" || typeof d.__bbFrameToken !== "string") return;
    const token = d.__bbFrameToken;
    if (!/^[A-Za-z0-9_-]{8,128}$/.test(token) || tokens.has(token) || !isChild(e.source)) return;
    if (tokens.size >= MAX_TOKENS) {
      const now = performance.now();
      for (const [k, v] of tokens) if (now - v.at > TOKEN_TTL_MS) tokens.delete(k);
      if (tokens.size >= MAX_TOKENS) return;
    }
    tokens.set(token, { src: e.source, at: performance.now() });
  });

  // ready loads this script into a frame without doing anything else.
  bb.ready = () => true;

  bb.announce = (a) => {
    parent.postMessage({ __bbFrameToken: a.token }, "*");
    return true;
  };

  // frameOffset finds the iframe that announced token and returns where
  // the child's point (a.x, a.y) is in this frame's viewport, scrolling
  // the iframe so that point is visible.
  bb.frameOffset = async (a) => {
    let entry;
    for (let i = 0; i < 40 && !(entry = tokens.get(a.token)); i++) await new Promise((r) => setTimeout(r, 5));
    tokens.delete(a.token);
    const src = entry && entry.src;
    if (!src) throw fail("element_not_found", "could not find the frame of the element in its parent page");
    let frame = null;
    for (const el of bb.deepQueryAll("iframe,frame")) if (el.contentWindow === src) { frame = el; break; }
    if (!frame) throw fail("element_not_found", "could not find the frame element in its parent page");
    const measure = () => {
      const r = bb.rect(frame);
      const cs = getComputedStyle(frame);
      const left = r.left + frame.clientLeft + parseFloat(cs.paddingLeft || 0);
      const top = r.top + frame.clientTop + parseFloat(cs.paddingTop || 0);
      return { x: left + a.x, y: top + a.y };
    };
    let p = measure();
    if (p.x < 0 || p.y < 0 || p.x > innerWidth || p.y > innerHeight) {
      scrollBy(p.x < 0 || p.x > innerWidth ? p.x - innerWidth / 2 : 0, p.y < 0 || p.y > innerHeight ? p.y - innerHeight / 2 : 0);
      p = measure();
    }
    return p;
  };
})();
