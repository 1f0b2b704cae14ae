//# allFunctionsCalledOnLoad
// (The line above is V8's compile hint: see handlers/readiness.js.)
// Locators (docs/design.md#actions): find elements by selector, visible text, role + name,
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

  // What a person can click, for ranking several text matches (docs/design.md#actions):
  // controls, links, labels and ARIA widgets first (2), then elements
  // that look clickable — an onclick attribute, or cursor: pointer as a
  // hint (1) — then static text (0). A negative tabindex only makes an
  // element focusable by script (a heading that receives focus after a
  // route change), so it does not count.
  const CLICKABLE = "a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,label,[contenteditable=''],[contenteditable=true],[tabindex]:not([tabindex^='-'])";
  const WIDGET_ROLES = new Set(["button", "link", "checkbox", "switch", "radio", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "treeitem", "combobox", "textbox", "searchbox", "slider", "spinbutton", "gridcell"]);
  bb.clickRank = (el) => {
    try {
      if (bb.matches(el, CLICKABLE) || WIDGET_ROLES.has(bb.role(el))) return 2;
      if (bb.hasAttr(el, "onclick")) return 1;
      if (getComputedStyle(el).cursor === "pointer") return 1;
    } catch (_) { /* an element the page made odd: static */ }
    return 0;
  };

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

  // Sensitive fields and value selectors. Pages
  // mirror what is typed into the value attribute (React does), so
  // input[type=password][value^="a"] would tell a password one character
  // at a time. A selector's tests of the value attribute are rewritten so
  // that they are never true of a password, one-time-code or card field:
  // [value…] becomes :is([value…]:not(<the sensitive fields>)). The rewrite
  // reaches every place a test can hide (:has(), :not(), combinators), and
  // the browser's own matcher runs the result.
  const SENSITIVE_RULES = "input[type=password i],input[autocomplete*=password i],input[autocomplete*=one-time-code i],input[autocomplete*=cc- i],textarea[autocomplete*=one-time-code i]";
  bb.SENSITIVE_NOTE = "password, one-time-code and card fields never match a selector that tests their value";

  // unescapeIdent undoes CSS escapes (\61 or \a is "a"), as the selector
  // parser does, so [v\61lue=…] is seen to test value.
  const unescapeIdent = (s) => s.replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\([\s\S])/g, (_, hex, ch) => {
    if (hex) {
      const cp = parseInt(hex, 16);
      return cp && cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
    }
    return ch;
  });

  // valueTests returns the [start, end) spans of the attribute selectors
  // of sel that name the value attribute (in any case or namespace).
  const valueTests = (sel) => {
    const spans = [];
    for (let i = 0; i < sel.length; i++) {
      const c = sel[i];
      if (c === "\\") { i++; continue; }
      if (c === '"' || c === "'") {
        for (i++; i < sel.length && sel[i] !== c; i++) if (sel[i] === "\\") i++;
        continue;
      }
      if (c !== "[") continue;
      const start = i;
      let end = -1;
      for (let j = i + 1; j < sel.length; j++) {
        const d = sel[j];
        if (d === "\\") { j++; continue; }
        if (d === '"' || d === "'") {
          for (j++; j < sel.length && sel[j] !== d; j++) if (sel[j] === "\\") j++;
          continue;
        }
        if (d === "]") { end = j + 1; break; }
      }
      if (end < 0) break; // not valid CSS: querySelectorAll says so
      const m = /^\[\s*(?:(?:\*|[^|\]=~^$*\s\\]*)\|(?!=))?((?:[^\]=~|^$*\s\\]|\\[0-9a-fA-F]{1,6}[ \t\n\r\f]?|\\[\s\S])+)/.exec(sel.slice(start, end));
      if (m && unescapeIdent(m[1]).toLowerCase() === "value") spans.push([start, end]);
      i = end - 1;
    }
    return spans;
  };

  // sensitiveFields lists this frame's sensitive fields (shadow roots
  // included).
  const sensitiveFields = () => {
    const out = [];
    for (const el of bb.deepQueryAll("input,textarea")) if (bb.isSensitive(el)) out.push(el);
    return out;
  };

  // guardSelector returns sel with its value tests kept off sensitive
  // fields, and whether it had to change it.
  const guardSelector = (sel) => {
    const spans = valueTests(sel);
    if (!spans.length) return { sel, guarded: false };
    const fields = sensitiveFields();
    if (!fields.length && !bb.deepQueryAll(SENSITIVE_RULES).length) return { sel, guarded: false };
    const not = [SENSITIVE_RULES, ...fields.map((el) => bb.cssPath(el)).filter(Boolean)].join(",");
    let out = "";
    let at = 0;
    for (const [a, b] of spans) {
      out += sel.slice(at, a) + ":is(" + sel.slice(a, b) + ":not(" + not + "))";
      at = b;
    }
    return { sel: out + sel.slice(at), guarded: true };
  };

  function bySelector(sel, note) {
    let g;
    try {
      g = guardSelector(sel);
      const els = bb.deepQueryAll(g.sel);
      if (g.guarded) note.sensitive = true;
      return els;
    } catch (e) {
      // The rewrite is valid wherever the original is: report the
      // original's error.
      try { bb.deepQueryAll(sel); } catch (e2) { e = e2; }
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
      enabled: bb.isEnabled(el),
      rect: { x: r.x, y: r.y, width: r.width, height: r.height },
    };
  };

  // candidates suggests what the caller may have meant when nothing
  // matched: visible interactive elements whose names share the most words.
  // With a role, the elements of that role come too, whatever their name
  // (role "switch", name "Theme" finds the switch named "Dark mode").
  function candidates(want, role) {
    const words = bb.norm(want).toLowerCase().split(" ").filter(Boolean);
    const scored = [];
    for (const el of bb.elements(bb.root())) {
      try {
        const sameRole = !!role && bb.role(el) === role;
        if (!(sameRole || bb.matches(el, INTERACTIVE)) || !bb.isVisible(el)) continue;
        const name = (bb.accessibleName(el) || bb.visibleText(el)).toLowerCase();
        if (!name) continue;
        let score = sameRole ? 0.05 : 0;
        for (const w of words) if (name.includes(w)) score += w.length;
        for (let i = 0; i < Math.min(3, name.length); i++) if (words.join(" ").includes(name.slice(i, i + 3))) score += 0.1;
        if (score > 0) scored.push([score, el]);
      } catch (_) { /* an element the page made odd: no candidate */ }
    }
    scored.sort((a, b) => b[0] - a[0]);
    return scored.slice(0, 3).map(([, el]) => bb.describe(el));
  }

  // locate returns the matches of one locator in this frame, in document
  // order (at most MAX_MATCHES described, count is the true total). With
  // a.prefer, a text locator's matches carry their clickRank, for the
  // daemon to take what can be clicked first (click, hover, press).
  bb.locate = (a) => {
    let els;
    let want = "";
    const note = {};
    if (a.ref) {
      const el = bb.byRef(a.ref);
      els = el ? [el] : [];
      want = a.ref;
    } else if (a.selector) {
      els = bySelector(a.selector, note);
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
    const rank = a.prefer && a.text;
    if (rank) out.matches.forEach((m, i) => { m.rank = bb.clickRank(els[i]); });
    if (note.sensitive) out.note = bb.SENSITIVE_NOTE;
    if (!els.length && a.suggest) out.candidates = candidates(want, a.role);
    // In the top frame, measure the point of the element the daemon will
    // pick when nothing else decides (the first visible match, of the
    // highest rank when ranked) right away: one round trip less for the
    // common click. Child frames do not, as scrolling them for a match that
    // may not be chosen would show.
    if (a.point && window === window.top) {
      let i = -1;
      out.matches.forEach((m, j) => {
        if (m.visible && (i < 0 || (rank && m.rank > out.matches[i].rank))) i = j;
      });
      if (i >= 0) out.point = { index: i, ...bb.point({ ref: out.matches[i].ref }) };
    }
    // An acting action's locate notes the page as it is now, for the
    // result to say how much the act changed it (pageChange below).
    if (a.mark && window === window.top) bb.pageMark(a.mark);
    return out;
  };

  // hitAt is the element at a viewport point of this frame, inside shadow
  // roots open and closed (a frame's own element when the point is on one).
  const hitAt = (x, y) => {
    let hit = bb.elementFromPoint(document, x, y);
    for (let root; hit && (root = bb.shadowRoot(hit));) {
      const inner = bb.elementFromPoint(root, x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };

  // composedContains: n is el or inside it in the rendered tree (through
  // shadow roots and the slots nodes show in).
  const composedContains = (el, n) => {
    for (let cur = n; cur; cur = bb.parentNode(cur) || cur.host) {
      if (cur === el) return true;
      if (bb.nodeType(cur) === 1) {
        const slot = assignedSlot.call(cur);
        if (slot && composedContains(el, slot)) return true;
      }
    }
    return false;
  };

  // receives says whether input at a point whose topmost element is hit
  // reaches el: hit is el or inside it, a label of el (a click on a label
  // is a click on its control: the visually hidden checkbox behind a
  // styled label), or the list box that draws the option el.
  const receives = (el, hit) => {
    if (!hit) return false;
    if (hit === el || composedContains(el, hit)) return true;
    // The options of a list box are drawn by their <select>, which is what
    // a hit test finds over them.
    const tag = bb.tag(el);
    if ((tag === "option" || tag === "optgroup") && bb.tag(hit) === "select" && bb.contains(hit, el)) return true;
    let labels = [];
    try {
      labels = el.labels ? Array.from(el.labels) : [];
    } catch (_) { /* not labelable */ }
    return labels.some((l) => l === hit || composedContains(l, hit));
  };

  // coverOf describes what is hit instead of the element, for the error.
  const coverOf = (hit) => {
    if (!hit) return { tag: "", text: "nothing (the point is outside the page)" };
    const tag = bb.tag(hit);
    const id = bb.attr(hit, "id");
    let text = bb.visibleText(hit).slice(0, 60);
    if (tag === "iframe" || tag === "frame") {
      try {
        text = new URL(hit.src, bb.baseURI()).origin;
      } catch (_) { text = ""; }
    }
    return { tag: tag + (id ? "#" + id : ""), text, name: bb.accessibleName(hit).slice(0, 60) };
  };

  // isEnabled: not a disabled control (itself, or in a disabled
  // fieldset), nor marked aria-disabled, itself or an ancestor.
  bb.isEnabled = (el) => {
    try {
      if (bb.matches(el, ":disabled")) return false;
    } catch (_) { /* not an element :disabled applies to */ }
    for (let n = el; n; n = bb.parentNode(n) || n.host) {
      if (bb.nodeType(n) === 1 && bb.attr(n, "aria-disabled") === "true") return false;
    }
    return true;
  };

  // boxesOf are the element's own rendered boxes: its client rects (one
  // per line for an inline element, so a link that wraps has two), or for
  // display: contents the boxes of its content.
  const boxesOf = (el) => {
    let rects;
    if (getComputedStyle(el).display === "contents") {
      const range = bb.range();
      range.selectNodeContents(el);
      rects = range.getClientRects();
    } else {
      rects = el.getClientRects();
    }
    return Array.from(rects).filter((r) => r.width > 0 && r.height > 0);
  };

  // Where in a box to try, in order: the middle, then a ring around it,
  // then nearer the edges.
  const SPOTS = [[0.5, 0.5], [0.3, 0.5], [0.7, 0.5], [0.5, 0.3], [0.5, 0.7], [0.3, 0.3], [0.7, 0.3], [0.3, 0.7], [0.7, 0.7],
    [0.12, 0.5], [0.88, 0.5], [0.5, 0.12], [0.5, 0.88], [0.12, 0.12], [0.88, 0.12], [0.12, 0.88], [0.88, 0.88]];
  const MAX_POINTS = 5;

  // clickPoints are points of this frame's viewport inside el's own boxes
  // where el would receive input (hit-tested), largest box first; cover
  // is what is hit instead when there is none.
  const clickPoints = (el) => {
    const vw = innerWidth, vh = innerHeight;
    const boxes = boxesOf(el).map((r) => ({ x0: Math.max(r.left, 0), y0: Math.max(r.top, 0), x1: Math.min(r.right, vw), y1: Math.min(r.bottom, vh) }))
      .filter((b) => b.x1 - b.x0 >= 1 && b.y1 - b.y0 >= 1)
      .sort((a, b) => (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0));
    const points = [];
    let cover = null;
    for (const b of boxes) {
      for (const [fx, fy] of SPOTS) {
        const x = b.x0 + (b.x1 - b.x0) * fx, y = b.y0 + (b.y1 - b.y0) * fy;
        const hit = hitAt(x, y);
        if (receives(el, hit)) {
          points.push({ x, y });
          break; // one point per box, the most central that works
        }
        if (!cover && hit) cover = hit;
      }
      if (points.length >= MAX_POINTS) break;
    }
    if (points.length) return { points, cover: null, inViewport: true };
    const hit = cover || hitAt(boxes.length ? (boxes[0].x0 + boxes[0].x1) / 2 : -1, boxes.length ? (boxes[0].y0 + boxes[0].y1) / 2 : -1);
    // What is hit is the element's own ancestor: the element lets pointer
    // events through (pointer-events: none), nothing covers it.
    const through = !!hit && composedContains(hit, el);
    return { points, cover: coverOf(hit), through, inViewport: boxes.length > 0 };
  };

  // The last trusted mouse move this frame saw, so a check after the
  // daemon moved the mouse can tell where the move landed (through every
  // frame, transform and cover between the top page and this element).
  let lastMove = null;
  EventTarget.prototype.addEventListener.call(window, "mousemove", (e) => {
    if (!e.isTrusted) return;
    let target = null;
    try {
      target = e.composedPath()[0] || e.target;
    } catch (_) { target = e.target; }
    lastMove = { at: performance.now(), x: e.clientX, y: e.clientY, target };
  }, { capture: true, passive: true });

  const rectJSON = (r) => ({ x: r.x, y: r.y, width: r.width, height: r.height });

  // animated: a CSS animation, transition or Web Animation runs on el or
  // on an element around it (which moves el with it).
  const animated = (el) => {
    try {
      for (const an of document.getAnimations()) {
        const t = an.playState === "running" && an.effect && an.effect.target;
        if (t && (t === el || composedContains(t, el))) return true;
      }
    } catch (_) { /* no animations to tell */ }
    return false;
  };

  // BUSY_MS: a DOM that changes again within this (three frames) is being
  // animated by a script; where it is not and nothing animates the
  // element, the element holds still.
  const BUSY_MS = 50;

  // point scrolls the element of ref into view (centred, only when not
  // already fully visible) and says whether input would reach it now:
  // visible, enabled, and the points of this frame's viewport inside its
  // own boxes where it is the topmost element (points[0] is the one to
  // use; x, y repeat it, or give the middle of the box when there is
  // none), or what covers it. box, at and settled are for the check just
  // before the press (recheck).
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
    const visible = bb.isVisible(el);
    const { points, cover, through, inViewport } = visible ? clickPoints(el) : { points: [], cover: null, inViewport: false };
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, vw);
    const y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, vh);
    const mid = { x: x1 > x0 ? (x0 + x1) / 2 : r.left + r.width / 2, y: y1 > y0 ? (y0 + y1) / 2 : r.top + r.height / 2 };
    const p = points[0] || mid;
    return {
      x: p.x, y: p.y, points, obscuredBy: points.length ? null : cover, through: !!through, visible, enabled: bb.isEnabled(el), inViewport,
      box: rectJSON(r), at: performance.now(),
      settled: !bb.busy(BUSY_MS) && !animated(el),
      viewport: { width: vw, height: vh }, element: bb.describe(el),
    };
  };

  // recheck looks again, just before the daemon presses, at what point
  // measured: is the element of ref still the one at (a.x, a.y), still
  // enabled, and (given a.box) in the same place — stable. With a.since it
  // also says where the last mouse move since then landed. On a page that
  // was settled at the measure (a.settled: nothing animated, no change for
  // a while) the box measured now, layout brought up to date, is where it
  // stays. On a busy one the box must also hold still from one animation
  // frame to the next, as a person would wait for it: something that moves
  // back and forth is caught, not only something that moved away.
  const nextFrame = () => new Promise((resolve) => {
    const t = setTimeout(resolve, 100); // a frame that never comes (a background tab)
    requestAnimationFrame(() => { clearTimeout(t); resolve(); });
  });
  const sameBox = (r, b) => Math.abs(r.x - b.x) <= 1 && Math.abs(r.y - b.y) <= 1 && Math.abs(r.width - b.width) <= 1 && Math.abs(r.height - b.height) <= 1;
  //
  // ok sums it up for cdp.batch's check, which presses only then: the
  // element (or the next <iframe>) is on top at the point when a.needHit;
  // and for the element itself (a.last) it held still (unless
  // a.ignoreMoved) and, when a.needHit, is enabled and the move landed on
  // it.
  bb.recheck = async (a) => {
    const out = await recheckOnce(a);
    out.ok = !out.gone && (!a.needHit || out.hit) && (!a.last ||
      ((!out.moved || !!a.ignoreMoved) && (!a.needHit || (out.enabled && !(out.landed && !out.landed.onIt)))));
    return out;
  };
  const recheckOnce = async (a) => {
    let el = bb.byRef(a.ref);
    if (!el) return { gone: true };
    let still = true;
    if (a.box && !a.settled) {
      await nextFrame();
      const r1 = bb.rectOf(el);
      await nextFrame();
      el = bb.byRef(a.ref);
      if (!el) return { gone: true };
      still = sameBox(bb.rectOf(el), r1);
    }
    const out = { enabled: bb.isEnabled(el) };
    const hit = hitAt(a.x, a.y);
    out.hit = receives(el, hit);
    if (!out.hit) out.cover = coverOf(hit);
    if (a.box) {
      const r = bb.rectOf(el);
      out.box = rectJSON(r);
      out.moved = !still || !sameBox(r, a.box);
    }
    if (a.since != null && lastMove && lastMove.at >= a.since) {
      const t = lastMove.target;
      // A target above el (a closed shadow root's host) cannot be told
      // apart from el: only what is beside it counts against the move.
      const onIt = receives(el, t) || (t && composedContains(t, el));
      out.landed = { onIt, x: lastMove.x, y: lastMove.y, near: Math.abs(lastMove.x - a.x) <= 2 && Math.abs(lastMove.y - a.y) <= 2 };
      if (!onIt) out.landed.cover = coverOf(t);
    }
    return out;
  };

  // hitsAt says, for each of a.points of this frame's viewport, whether
  // the element of a.ref (an <iframe> on the way down to an element) is on
  // top there, or what is instead.
  bb.hitsAt = (a) => {
    const el = bb.byRef(a.ref);
    return (a.points || []).map((p) => {
      const hit = hitAt(p.x, p.y);
      return el && receives(el, hit) ? { ok: true } : { ok: false, cover: coverOf(hit) };
    });
  };

  // underPointer describes the element at a viewport point of this frame
  // (inside shadow roots; a frame's own element when the point is on one),
  // for hover's result: what the pointer rests on once the page reacted.
  bb.underPointer = (a) => {
    const hit = hitAt(a.x, a.y);
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

  // atPoint describes what is at a viewport point of this frame, with a
  // ref, for a point locator: a later recheck compares it with what is
  // there just before the press.
  bb.atPoint = (a) => {
    const hit = hitAt(a.x, a.y);
    return hit ? { ref: bb.refFor(hit), cover: coverOf(hit) } : null;
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

  // frameOffset finds the iframe that announced token and describes it
  // for the daemon, which maps the child's points into this frame through
  // the browser's own geometry of the frame (DOM.getBoxModel, transforms
  // included): its ref; the content box's offset in its border box and
  // its size, untransformed (content); its border box's size (border), to
  // tell it apart from other elements; and a point of this frame's
  // viewport where it is the topmost element (probe), or what covers it.
  // x, y is where the child's point (a.x, a.y) is when no transform is at
  // work, the fallback; the iframe is scrolled so that point is visible.
  bb.frameOffset = async (a) => {
    let entry;
    for (let i = 0; i < 40 && !(entry = tokens.get(a.token)); i++) await new Promise((r) => setTimeout(r, 5));
    tokens.delete(a.token);
    const src = entry && entry.src;
    if (!src) throw fail("element_not_found", "could not find the frame of the element in its parent page");
    let frame = null;
    for (const el of bb.deepQueryAll("iframe,frame")) if (el.contentWindow === src) { frame = el; break; }
    if (!frame) throw fail("element_not_found", "could not find the frame element in its parent page");
    const cs = getComputedStyle(frame);
    const pad = (side) => parseFloat(cs["padding" + side] || 0) || 0;
    const content = {
      left: frame.clientLeft + pad("Left"), top: frame.clientTop + pad("Top"),
      width: frame.clientWidth - pad("Left") - pad("Right"), height: frame.clientHeight - pad("Top") - pad("Bottom"),
    };
    const measure = () => {
      const r = bb.rect(frame);
      return { x: r.left + content.left + a.x, y: r.top + content.top + a.y };
    };
    let p = measure();
    if (p.x < 0 || p.y < 0 || p.x > innerWidth || p.y > innerHeight) {
      scrollBy(p.x < 0 || p.x > innerWidth ? p.x - innerWidth / 2 : 0, p.y < 0 || p.y > innerHeight ? p.y - innerHeight / 2 : 0);
      p = measure();
    }
    const r = bb.rect(frame);
    const b = { x0: Math.max(r.left, 0), y0: Math.max(r.top, 0), x1: Math.min(r.right, innerWidth), y1: Math.min(r.bottom, innerHeight) };
    let probe = null;
    if (b.x1 > b.x0 && b.y1 > b.y0) {
      for (const [fx, fy] of SPOTS) {
        const x = b.x0 + (b.x1 - b.x0) * fx, y = b.y0 + (b.y1 - b.y0) * fy;
        if (hitAt(x, y) === frame) { probe = { x, y }; break; }
      }
    }
    return {
      x: p.x, y: p.y, ref: bb.refFor(frame), content, border: { width: frame.offsetWidth, height: frame.offsetHeight },
      box: rectJSON(r), probe, cover: probe ? null : coverOf(hitAt((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2)),
    };
  };
  // How much an act changed the page (docs/reference.md, "What an action
  // changed on the page"). The last locate of an acting action notes the
  // page's rendered text blocks (pageMark), as a hash and a length each,
  // and watches the document for changes; the observe step after the act
  // compares the page with that note (pageChange) in the same round trip
  // as its look at the tab. Only what differs is sent: the blocks both
  // lists share at the start and at the end are counted, not listed. The
  // daemon counts the changed blocks (internal/changes.Count).
  const BLOCKS = new Set(["p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "pre", "blockquote", "dt", "dd",
    "figcaption", "caption", "summary", "legend", "label", "button", "option", "div", "section", "article", "main",
    "aside", "header", "footer", "nav", "form", "fieldset", "ul", "ol", "dl", "table", "body", "output"]);
  const SKIP = new Set(["script", "style", "noscript", "template", "textarea", "select"]);
  // Past these a page is too big to note cheaply: no note, no report.
  const MAX_NODES = 20000, MAX_BLOCKS = 5000;
  // A mark older than this is not the act's (an action that failed after
  // its locate).
  const MARK_MS = 120000;
  // How long a page whose text did not change, but whose document did, is
  // watched for more before it is said to be unchanged.
  const QUIET_MS = 100;

  const hash = (s) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return (h >>> 0).toString(36);
  };

  // pageBlocks is the page's rendered text, block by block, in page
  // order: [hash, length] for each block element's own text (its text
  // nodes that no nearer block holds). null: too big.
  const pageBlocks = () => {
    const body = bb.body();
    if (!body) return [];
    const blockOf = new Map(), shown = new Map(), text = new Map();
    const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (++n > MAX_NODES) return null;
      const s = bb.textContent(t);
      if (!s.trim()) continue;
      const parent = bb.parentNode(t);
      if (!(parent instanceof Element)) continue;
      let block = blockOf.get(parent);
      if (block === undefined) {
        block = parent;
        while (block && block !== body && !BLOCKS.has(bb.tag(block))) {
          if (SKIP.has(bb.tag(block))) { block = null; break; }
          block = bb.parentNode(block);
        }
        if (block && SKIP.has(bb.tag(block))) block = null;
        blockOf.set(parent, block);
      }
      if (!block) continue;
      let vis = shown.get(parent);
      if (vis === undefined) {
        vis = rendered(parent);
        shown.set(parent, vis);
      }
      if (!vis) continue;
      const prev = text.get(block);
      text.set(block, prev === undefined ? s : prev + s);
    }
    const out = [];
    for (const s of text.values()) {
      const t = bb.norm(s);
      if (!t) continue;
      if (out.length >= MAX_BLOCKS) return null;
      out.push([hash(t), t.length]);
    }
    return out;
  };

  // rendered says whether el is shown: checkVisibility, but an element
  // with display: contents (no box of its own) as dom.js's isVisible
  // judges it.
  const rendered = (el) => el.checkVisibility({ visibilityProperty: true }) ||
    (getComputedStyle(el).display === "contents" && bb.isVisible(el));

  // hasShadowHosts says whether the page holds a shadow root, whose text
  // and changes the note does not see: a page with one is never said to
  // be unchanged.
  const hasShadowHosts = () => {
    const walk = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
    let n = 0;
    for (let e = walk.currentNode; e; e = walk.nextNode()) {
      if (++n > MAX_NODES || bb.shadowRoot(e)) return true;
    }
    return false;
  };

  let mark = null, watcher = null, changes = 0;

  // seeChanges counts the document's changes since the note that are
  // shown: a change inside a hidden element is none (until one is, then
  // every change counts, to tell a page still changing).
  const seeChanges = (records) => {
    if (changes) { changes += records.length; return; }
    for (const r of records) {
      const el = r.target.nodeType === Node.ELEMENT_NODE ? r.target : bb.parentNode(r.target);
      if (el instanceof Element && bb.isConnected(el) && rendered(el)) { changes++; return; }
    }
  };

  // pageMark notes the page for the act of the daemon's run token.
  bb.pageMark = (token) => {
    const blocks = pageBlocks();
    if (!blocks) { mark = null; return; }
    mark = { token, at: performance.now(), blocks };
    changes = 0;
    if (!watcher) watcher = new MutationObserver(seeChanges);
    watcher.disconnect();
    watcher.observe(document, { childList: true, characterData: true, subtree: true });
  };

  // pageChange compares the page with the mark of run token a.token, and
  // drops the mark. null: no such mark (the act's locate ran elsewhere,
  // or the act led to another document). "Unchanged" is said only when
  // true: when the text is the same but the document changed since the
  // mark (a spinner went in, a hidden panel filled), the page may be on
  // its way to a change, so it is watched QUIET_MS more. A text change in
  // that time is reported; a document that changed again in that time,
  // its text still the same, is still changing. Only such a page pays
  // the wait: one the act did not touch at all (or only touched its
  // attributes) is unchanged at once. A request the act sent whose answer
  // has not come back is not foreseen (docs/reference.md).
  bb.pageChange = async (a) => {
    const m = mark;
    mark = null;
    if (!m || m.token !== a.token || performance.now() - m.at > MARK_MS) {
      if (watcher) watcher.disconnect();
      return null;
    }
    const compare = () => {
      const now = pageBlocks();
      if (!now) return null;
      const was = m.blocks;
      let pre = 0;
      while (pre < was.length && pre < now.length && was[pre][0] === now[pre][0]) pre++;
      let post = 0;
      while (post < was.length - pre && post < now.length - pre && was[was.length - 1 - post][0] === now[now.length - 1 - post][0]) post++;
      return { before: was.slice(pre, was.length - post), after: now.slice(pre, now.length - post) };
    };
    let out = compare();
    const same = (o) => o && !o.before.length && !o.after.length;
    if (same(out) && changes > 0) {
      // The shown document changed but not its text (a spinner went in,
      // a panel filled): a text change may follow at once; else the page
      // is still on its way, never "unchanged".
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      out = compare();
      if (same(out)) out.stillChanging = true;
    }
    if (watcher) watcher.disconnect();
    if (same(out) && !out.stillChanging && hasShadowHosts()) return null;
    return out;
  };
})();
