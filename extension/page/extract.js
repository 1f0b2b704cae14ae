// extract: serializes the rendered, visible DOM of one frame for the daemon,
// which turns it into text, markdown, a reader view, links and headings
// (internal/extract). It runs in every frame of the tab (page.run with
// allFrames); each frame answers for its own document and marks where its
// child frames sit, so the daemon can put their content in place.
//
// The tree goes back as a JSON string (JSON.stringify here, decoded by the
// daemon): Chrome's converter of script results stops at a nesting depth of
// 100 and turns deeper values into null, which lost deep content.
//
// The wire shape of a node (decoded by internal/extract, which fuzzes it):
//   text:    a JSON string
//   element: [tag, attrs, ...children], attrs an object of strings or 0
//   a frame: ["frame", {"id": "<frameId>", "src": "<url>"}]
// Tags are a small known set (unknown elements become div or span by their
// display); attributes are only those a reader needs, with URLs made
// absolute. Password and payment-card fields never give their value.
//
// Page content is untrusted and may clobber DOM properties (a <form> whose
// <input name="getAttribute"> shadows the method): the walk reads through
// the pristine accessors of page/dom.js, and an element that still throws
// is passed through without its wrapper instead of failing the frame.
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.extract) return;
  bb.loaded.extract = true;

  const SKIP = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base",
    "svg", "math", "canvas", "video", "audio", "object", "embed", "map", "datalist", "param", "source",
    "track", "option", "optgroup", "area", "picture-source"]);
  const KEEP = new Set(["a", "abbr", "address", "article", "aside", "b", "blockquote", "caption", "cite", "code",
    "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "ins", "kbd", "label", "legend", "li", "main",
    "mark", "nav", "ol", "p", "pre", "q", "s", "samp", "section", "small", "span", "strong", "sub", "summary",
    "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "button", "center"]);
  // Containers whose id/class/role the reader view scores (readability
  // weighs "article", "content", "sidebar", "nav", … in them).
  const SCORED = new Set(["div", "section", "article", "aside", "nav", "header", "footer", "main", "ul", "ol",
    "form", "table", "p", "span"]);
  const EMPTY_OK = new Set(["img", "hr", "br", "td", "th"]);
  const BLOCKISH = /^(block|flex|grid|list-item|table|flow-root|table-row-group|table-row|table-cell|table-caption)/;

  // Only these (and custom elements) can host a shadow root; asking the
  // browser about closed roots of any other element is wasted time.
  const SHADOW_HOSTS = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4",
    "h5", "h6", "header", "main", "nav", "p", "section", "span"]);
  // Boxes whose geometry cannot hide them on their own (table parts ignore
  // overflow and are not positioned off-screen by themselves): skipping
  // their layout query keeps big tables fast. Inline boxes are checked:
  // a span can be moved, scaled or clipped out of sight like any box.
  const NO_BOX_CHECK = new Set(["table-row", "table-cell", "table-row-group", "table-header-group", "table-footer-group"]);

  // children of a node as rendered: a shadow host shows its shadow root
  // (open or closed), a slot its assigned nodes (page/dom.js has the same
  // rule in bb.renderedChildren; this one skips elements that cannot host
  // a root).
  const renderedChildren = (n) => {
    if (bb.nodeType(n) === 1) {
      const tag = bb.tag(n);
      if (tag === "slot") {
        const assigned = n.assignedNodes({ flatten: true });
        if (assigned.length) return assigned;
      } else if (SHADOW_HOSTS.has(tag) || tag.includes("-")) {
        const root = bb.shadowRoot(n);
        if (root) return bb.childNodes(root);
      }
    }
    return bb.childNodes(n);
  };

  // MAX_DEPTH bounds the nesting of the tree sent (deeper elements pass
  // their content through without a wrapper); MAX_WALK bounds how deep the
  // walk descends into the DOM at all (deeper content is cut and the frame
  // marked truncated).
  const MAX_DEPTH = 300;
  const MAX_WALK = 1000;
  const MAX_ATTR = 2048;

  const cut = (s, n) => (s.length > n ? s.slice(0, n) : s);

  // frameIdOf maps an <iframe>/<frame> element to the frame ID the browser
  // uses in scripting results (Chrome: runtime.getFrameId; -1 when this
  // browser lacks it, and the daemon then matches frames by URL and order).
  const frameIdOf = (el) => {
    try {
      if (chrome.runtime && typeof chrome.runtime.getFrameId === "function") {
        const id = chrome.runtime.getFrameId(el);
        if (Number.isInteger(id)) return id;
      }
    } catch (_) { /* a frame that is not ready has no ID yet */ }
    return -1;
  };

  // hidden says whether el and everything under it is invisible to a
  // person, and how: "" (it is not), "gone" (not rendered, transparent,
  // collapsed on one axis with its overflow cut, the screen-reader-only
  // idiom, a closed <details> — the page's ordinary hiding) or "trick"
  // (rendered, but where or how nobody sees it: of no size on both axes,
  // scaled to nothing, clipped to nothing, under an opaque layer, moved
  // before the page's start or outside what its container or the page
  // shows — the ways text is hidden from people and shown to machines;
  // these are counted in a warning, at the page's level as inside a
  // scrolling box). visibility: hidden is not here: children may
  // turn visible again, so it only silences the element's own text. Nor
  // is aria-hidden: it hides from screen readers, not from eyes (code
  // editors draw their text that way). env carries the clip of the
  // ancestors that cut their overflow, in viewport coordinates.
  const checkVisibility = Element.prototype.checkVisibility;
  // On a right-to-left page the start is the right edge: content left of
  // it can be scrolled to, content past it cannot. (The page's direction
  // is the body's, which HTML gives the viewport.)
  const rtl = getComputedStyle(document.body || document.documentElement).direction === "rtl";
  const hidden = (el, style, env) => {
    if (style.display === "none") return "gone";
    // display: contents has no box of its own (checkVisibility says false
    // for it); its children are judged one by one.
    if (style.display === "contents") return "";
    // checkVisibility also catches what CSS hides from above: a closed
    // <details>, content-visibility: hidden.
    if (typeof checkVisibility === "function" && !checkVisibility.call(el, { opacityProperty: true })) return "gone";
    if (style.opacity === "0") return "gone";
    const tag = bb.tag(el);
    if (NO_BOX_CHECK.has(style.display) && tag !== "img") return "";
    const r = bb.rect(el);
    const cuts = (v) => v !== "visible";
    if (r.width <= 0 || r.height <= 0) {
      // Collapsed on one axis is how accordions and menus close; of no
      // size at all, a box holds text for machines only.
      if (cuts(style.overflowX) || cuts(style.overflowY)) return r.width <= 0 && r.height <= 0 ? "trick" : "gone";
      // A box scaled to nothing takes its content with it.
      if (style.transform !== "none" && flatTransform(style.transform)) return "trick";
    }
    // The "visually hidden" idiom: a 1px box with its content clipped.
    if (r.width <= 1 && r.height <= 1 && (cuts(style.overflowX) || style.clip !== "auto" || style.clipPath !== "none")) return "gone";
    if (style.clipPath === "inset(50%)") return "gone";
    // Not the 1px idiom above: a box of its full size clipped to nothing.
    if (emptyClip(style.clip)) return "trick";
    if (style.clipPath !== "none" && emptyClipPath(style.clipPath)) return "trick";
    // Content before the page's start (left: -9999px) cannot be scrolled
    // to; inside a scrolling box the box's own range (env.clip) decides
    // instead, and counts it the same way.
    const beforeStart = rtl ? r.left + window.scrollX >= document.documentElement.clientWidth : r.right + window.scrollX <= 0;
    if (!env.view && (beforeStart || r.bottom + window.scrollY <= 0)) {
      // A skip link ("Skip to content": a short in-page link kept
      // off-screen until it has focus) is the page's ordinary
      // accessibility; a block of text in such a link is still a trick.
      if (tag === "a" && (el.getAttribute("href") || "").startsWith("#") && el.textContent.trim().length <= 40) return "gone";
      return "trick";
    }
    if (tag === "img" && r.width <= 2 && r.height <= 2) return "gone"; // tracking pixels
    if (r.width > 0 && r.height > 0 && outside(r, env.clip)) return "trick";
    if (style.position === "fixed" && (r.left >= window.innerWidth || r.top >= window.innerHeight || r.right <= 0 || r.bottom <= 0)) return "trick";
    if ((style.position === "absolute" || style.position === "fixed") && farAway(el, r)) return "trick";
    return "";
  };

  // flatTransform: a transform that scales a box to nothing (scale(0),
  // matrix with a zero scale).
  const flatTransform = (t) => {
    const m = /^matrix(3d)?\(([^)]*)\)$/.exec(t);
    if (!m) return false;
    const v = m[2].split(",").map(Number);
    return m[1] ? Math.abs(v[0] * v[5] - v[1] * v[4]) < 1e-6 : Math.abs(v[0] * v[3] - v[1] * v[2]) < 1e-6;
  };
  // emptyClip: clip: rect(…) with no area.
  const emptyClip = (c) => {
    const m = /^rect\(([^)]*)\)$/.exec(c || "");
    if (!m) return false;
    const [top, right, bottom, left] = m[1].split(/[ ,]+/).map((x) => (x === "auto" ? NaN : parseFloat(x)));
    return bottom <= top || right <= left;
  };
  // emptyClipPath: a basic shape that leaves nothing — a circle or
  // ellipse of radius 0, an inset of half or more, a polygon whose
  // points are all one.
  const emptyClipPath = (c) => {
    let m = /^(circle|ellipse)\(\s*0(px|%)?\b/.exec(c);
    if (m) return true;
    m = /^inset\(([^)]*)\)$/.exec(c);
    if (m) {
      const v = m[1].split(/\s+round\s+/)[0].split(/\s+/);
      return v.some((x) => x.endsWith("%") && parseFloat(x) >= 50) ||
        (v.length === 1 && parseFloat(v[0]) >= 5000);
    }
    m = /^polygon\((?:[a-z]+,\s*)?([^)]*)\)$/.exec(c);
    if (m) {
      const pts = m[1].split(",").map((p) => p.trim());
      return pts.length > 0 && pts.every((p) => p === pts[0]);
    }
    return false;
  };
  // outside: r lies wholly outside the clip box (an ancestor that cuts
  // its overflow, or the page cut on the right).
  const outside = (r, c) => !!c && (r.right <= c.left || r.left >= c.right || r.bottom <= c.top || r.top >= c.bottom);
  // farAway: a positioned box placed more than a screen beyond the right
  // or the bottom of the box it is positioned in — where no layout puts a
  // menu or a tooltip, and where text is put to be out of sight.
  const offsetParent = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "offsetParent").get;
  const farAway = (el, r) => {
    let p = null;
    try { p = el instanceof HTMLElement ? offsetParent.call(el) : null; } catch (_) { /* none */ }
    const pr = p ? bb.rect(p) : { right: window.innerWidth - window.scrollX, bottom: window.innerHeight - window.scrollY };
    return r.left >= pr.right + window.innerWidth || r.top >= pr.bottom + 2 * window.innerHeight;
  };

  // clipOf is the clip env passes to el's children: el's padding box
  // intersected with the clip it is in, on each axis where el cuts its
  // overflow (hidden or clip). The page's own box clips on the right when
  // the page hides its horizontal overflow (content moved off to the
  // right — an off-canvas menu — cannot be scrolled to); vertically it
  // does not: pages stop scrolling while a dialog is open.
  //
  // A scrolling box (auto or scroll) lets a person scroll to all of its
  // content: on that axis its children are clipped to the range the box
  // scrolls over, not to what it shows now nor to the clip of its
  // ancestors (a chat log inside a card that hides its overflow). What
  // lies before that range (left: -9999px in the box) cannot be scrolled
  // to. A box that grows the other way (column-reverse, right to left)
  // scrolls over the range that ends at its end.
  const clipOf = (el, style, clip) => {
    const hides = (v) => v === "hidden" || v === "clip";
    const scrolls = (v) => v === "auto" || v === "scroll";
    const hideX = hides(style.overflowX), hideY = hides(style.overflowY);
    const scrollX = scrolls(style.overflowX), scrollY = scrolls(style.overflowY);
    if (!hideX && !hideY && !scrollX && !scrollY) return clip;
    const r = bb.rect(el);
    const c = clip ? { ...clip } : { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    if (hideX) {
      c.left = Math.max(c.left, r.left);
      c.right = Math.min(c.right, r.right);
    }
    if (hideY) {
      c.top = Math.max(c.top, r.top);
      c.bottom = Math.min(c.bottom, r.bottom);
    }
    const flex = /flex/.test(style.display);
    if (scrollX) {
      const reverse = style.direction === "rtl" || (flex && style.flexDirection === "row-reverse");
      [c.left, c.right] = range(r.left + el.clientLeft, el.clientWidth, el.scrollWidth, el.scrollLeft, reverse);
    }
    if (scrollY) {
      const reverse = flex && style.flexDirection === "column-reverse";
      [c.top, c.bottom] = range(r.top + el.clientTop, el.clientHeight, el.scrollHeight, el.scrollTop, reverse);
    }
    return c;
  };
  // range is the stretch, in viewport coordinates, that a box showing
  // size pixels from start scrolls over: its scrollable size from where
  // scrolling starts (0, or the far end for a box that grows backwards,
  // whose scroll position is then 0 or negative).
  const range = (start, size, total, pos, reverse) => {
    if (!reverse) return [start - pos, start - pos + total];
    const end = start + size - pos;
    return [end - total, end];
  };
  // viewOf is the part of the viewport a scrolling box el shows of its
  // content, within the view it is in itself (null: the whole viewport).
  const viewOf = (el, style, view) => {
    const scrolls = (v) => v === "auto" || v === "scroll";
    if (!scrolls(style.overflowX) && !scrolls(style.overflowY)) return view;
    const r = bb.rect(el);
    const v = { left: r.left + el.clientLeft, top: r.top + el.clientTop };
    v.right = v.left + el.clientWidth;
    v.bottom = v.top + el.clientHeight;
    if (view) {
      v.left = Math.max(v.left, view.left);
      v.top = Math.max(v.top, view.top);
      v.right = Math.min(v.right, view.right);
      v.bottom = Math.min(v.bottom, view.bottom);
    }
    return v;
  };
  // scrollMark says how much of a scrolling box's content shows, when
  // some of it is scrolled out of view: "items shown" (the box's rows, or
  // the rows of its only child: a list inside a scrolling wrapper), or ""
  // when all of it shows or it has no rows. A row is shown when any of it
  // (a pixel or more each way) is in view: a row taller than the box
  // shows while it fills the box.
  const scrollMark = (el, style, env) => {
    if (el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1) return "";
    let kids = Array.from(bb.childNodes(el)).filter((k) => bb.nodeType(k) === 1 && !SKIP.has(bb.tag(k)));
    for (let i = 0; i < 3 && kids.length === 1; i++) {
      kids = Array.from(bb.childNodes(kids[0])).filter((k) => bb.nodeType(k) === 1 && !SKIP.has(bb.tag(k)));
    }
    const view = env.view;
    let items = 0, shown = 0;
    for (const k of kids) {
      if (hidden(k, getComputedStyle(k), env)) continue;
      items++;
      const r = bb.rect(k);
      const w = Math.min(r.right, view.right) - Math.max(r.left, view.left);
      const h = Math.min(r.bottom, view.bottom) - Math.max(r.top, view.top);
      if (w >= 1 && h >= 1) shown++;
    }
    return items > 1 && shown < items ? items + " " + shown : "";
  };

  // Colours: "rgb(r, g, b)" or "rgba(r, g, b, a)" as [r, g, b, a]; null
  // for any other form (a colour function the page used), which is not
  // judged.
  const parseColor = (s) => {
    const m = /^rgba?\(([^)]*)\)$/.exec(s || "");
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    if (p.length < 3 || p.some((x) => Number.isNaN(x))) return null;
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const near = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) <= 12;
  // bgOf is the background the children of el are drawn on: el's own
  // when it is opaque, else the one it is on; null when it cannot be told
  // (an image, a part-transparent colour).
  const bgOf = (style, bg) => {
    if (style.backgroundImage && style.backgroundImage !== "none") return null;
    const c = parseColor(style.backgroundColor);
    if (!c || c[3] === 0) return bg;
    return c[3] === 1 ? c : null;
  };
  // paintedBehind: something may be drawn between el and the background
  // of its ancestor at (up to) stop: a sibling on the way that is an
  // image, has a background image or is positioned, and overlaps el.
  const PAINTS = new Set(["img", "video", "canvas", "svg", "picture", "iframe", "object", "embed"]);
  const paintedBehind = (el, r) => {
    for (let n = el, depth = 0; n && depth < 12; n = bb.parentNode(n), depth++) {
      const parent = bb.parentNode(n);
      if (!parent || bb.nodeType(parent) !== 1) return false;
      for (const sib of bb.childNodes(parent)) {
        if (sib === n || bb.nodeType(sib) !== 1) continue;
        const st = getComputedStyle(sib);
        if (!PAINTS.has(bb.tag(sib)) && st.backgroundImage === "none" && st.position === "static") continue;
        const sr = bb.rect(sib);
        if (sr.right > r.left && sr.left < r.right && sr.bottom > r.top && sr.top < r.bottom) return true;
      }
      if (getComputedStyle(parent).backgroundColor !== "rgba(0, 0, 0, 0)") return false; // the background itself
    }
    return false;
  };
  // textHidden says why the element's own text (its text nodes, not its
  // children's) cannot be read, or "": font-size 0, a transparent
  // colour, the colour of its background, indented out of its box.
  const textHidden = (el, style, bg) => {
    if (parseFloat(style.fontSize) === 0) return "trick";
    // Gradient text: transparent glyphs filled by the background.
    if (style.webkitBackgroundClip === "text" || style.backgroundClip === "text") return "";
    const fill = parseColor(style.webkitTextFillColor);
    const color = fill && style.webkitTextFillColor !== style.color ? fill : parseColor(style.color);
    if (color && color[3] === 0) return "trick";
    const indent = parseFloat(style.textIndent);
    if (indent <= -999 || (indent > 0 && style.overflowX !== "visible" && indent >= bb.rect(el).width)) return "trick";
    if (color && bg && color[3] === 1 && near(color, bg)) {
      const r = bb.rect(el);
      if (!paintedBehind(el, r)) return "trick";
    }
    return "";
  };
  // covered: the middle of a text's box, in view, is under an opaque
  // element that is neither it, inside it nor around it — a layer put on
  // top of it. Fixed and sticky bars (headers, banners) do not count: a
  // person scrolls the text out from under them. Only checked for a
  // bounded number of elements per frame.
  const covered = (el, r, view) => {
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false;
    // Scrolled out of its box: what is drawn there is not on top of it.
    if (view && (x < view.left || y < view.top || x >= view.right || y >= view.bottom)) return false;
    const hit = bb.elementFromPoint(bb.rootNode(el), x, y);
    if (!hit || hit === el || bb.contains(el, hit) || bb.contains(hit, el)) return false;
    for (let n = hit; n && bb.nodeType(n) === 1 && !bb.contains(n, el); n = bb.parentNode(n)) {
      const st = getComputedStyle(n);
      if (st.position === "fixed" || st.position === "sticky") return false;
    }
    const st = getComputedStyle(hit);
    if (parseFloat(st.opacity) < 1) return false;
    const bgc = parseColor(st.backgroundColor);
    return PAINTS.has(bb.tag(hit)) || (!!bgc && bgc[3] === 1) || (st.backgroundImage !== "none");
  };
  const MAX_COVER_CHECKS = 400;

  const absURL = (s) => {
    try {
      return new URL(s, bb.baseURI()).href;
    } catch (_) {
      return "";
    }
  };

  // tagFor maps an element to one of the known tags, or "" to pass its
  // children through without a wrapper.
  const tagFor = (el, tag, style) => {
    const role = (bb.attr(el, "role") || "").trim().toLowerCase();
    if (role === "heading") {
      const level = parseInt(bb.attr(el, "aria-level") || "2", 10);
      return "h" + Math.min(6, Math.max(1, Number.isFinite(level) ? level : 2));
    }
    if (KEEP.has(tag)) return tag === "center" ? "div" : tag;
    if (style.display === "contents") return "";
    return BLOCKISH.test(style.display) ? "div" : "span";
  };

  const attrsFor = (el, name) => {
    let a = 0;
    const set = (k, v) => {
      if (v === null || v === undefined || v === "") return;
      (a || (a = {}))[k] = cut(String(v), MAX_ATTR);
    };
    if (name === "a" && bb.hasAttr(el, "href")) set("href", absURL(bb.attr(el, "href")));
    // A link's title and aria-label are not what a person reads on the
    // page (a tooltip at most, a screen reader's words): they are not
    // sent. An abbreviation's title is its expansion.
    if (name === "abbr") set("title", bb.attr(el, "title"));
    if (name === "img") {
      const src = el.currentSrc || el.src || "";
      if (!src.startsWith("data:")) set("src", src);
      set("alt", bb.attr(el, "alt"));
    }
    if (name === "td" || name === "th") {
      if (el.colSpan > 1) set("colspan", el.colSpan);
      if (el.rowSpan > 1) set("rowspan", el.rowSpan);
    }
    if (name === "ol" && bb.hasAttr(el, "start")) set("start", bb.attr(el, "start"));
    if (SCORED.has(name)) {
      set("id", cut(bb.attr(el, "id") || "", 80));
      set("class", cut(bb.attr(el, "class") || "", 120));
      set("role", bb.attr(el, "role"));
    }
    return a;
  };

  // control serializes a form control as what a person sees in it. The
  // value of a sensitive field (password, payment card) is never read.
  const control = (el, tag) => {
    if (tag === "select") {
      const picked = Array.from(el.selectedOptions || []).map((o) => bb.norm(o.label || o.text));
      return ["select", 0, cut(picked.join(", "), 500)];
    }
    if (tag === "textarea") return bb.isSensitive(el) ? ["input", { type: "sensitive" }] : ["textarea", { value: cut(el.value || "", 5000) }];
    const type = (bb.attr(el, "type") || "text").toLowerCase();
    if (type === "hidden") return null;
    if (bb.isSensitive(el)) return ["input", { type: "sensitive" }];
    if (type === "checkbox" || type === "radio") {
      return ["input", el.checked ? { type, checked: "true" } : { type }];
    }
    if (["button", "submit", "reset"].includes(type)) return ["input", { type: "button", value: cut(el.value || "", 200) }];
    if (type === "image") return ["input", { type: "button", value: cut(el.alt || "", 200) }];
    if (type === "file") return ["input", { type: "file" }];
    const a = { type: "text" };
    if (el.value) a.value = cut(el.value, 1000);
    if (el.placeholder) a.placeholder = cut(el.placeholder, 200);
    return ["input", a];
  };

  // extract serializes this frame's visible document. The walk keeps its
  // own stack (no recursion): a page nested thousands of levels deep must
  // not overflow the script's stack.
  // Separated boxes: the items of a flex row or a grid, inline blocks,
  // and ARIA cells are drawn apart from each other, so their text is
  // kept apart (a calendar is "28 29 30", not "282930"). Spans and other
  // plain inline tags drawn as blocks become blocks.
  const SEPARATE_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  const PLAIN_INLINE = new Set(["span", "label", "small", "time"]);
  const separated = (style, role, parentStyle) => {
    if (SEPARATE_ROLES.has(role)) return true;
    if (/^inline-(block|flex|grid|table)$/.test(style.display)) return true;
    if (!parentStyle) return false;
    const pd = parentStyle.display;
    if (/grid/.test(pd)) return true;
    return /flex/.test(pd) && !/^column/.test(parentStyle.flexDirection);
  };
  // ownText: el has text of its own (not only its children's).
  const ownText = (el) => {
    for (const c of bb.childNodes(el)) if (bb.nodeType(c) === 3 && /\S/.test(c.data)) return true;
    return false;
  };
  const EDITOR_CLASS = /(^|\s)(monaco-editor|cm-editor)(\s|$)/;

  bb.extract = (args) => {
    const maxNodes = (args && args.maxNodes) || 300000;
    const maxChars = (args && args.maxChars) || 4000000;
    let nodes = 0;
    let chars = 0;
    let truncated = false; // a budget ran out: the walk stops
    let tooDeep = false; // content below MAX_WALK levels was left out
    let hiddenRuns = 0; // elements whose text was hidden by a trick, left out
    let partialEditors = 0; // code editors that show only part of their text
    let coverChecks = 0;
    const frames = [];

    // A level of the walk: the children of one node, the array they go
    // into, what they are drawn in (env: the clip of ancestors that cut
    // their overflow, the background, the parent's style), and (for an
    // element with a wrapper) the wrapper to add to its parent's array
    // once its children are done; sep asks for a space after the level.
    const stack = [];
    const descend = (n, out, depth, textVisible, el, name, parentOut, env, sep) => {
      if (stack.length >= MAX_WALK) {
        tooDeep = true;
        return;
      }
      stack.push({ kids: renderedChildren(n), i: 0, out, depth, textVisible, el, name, parentOut, env, sep });
    };

    // visit handles one node; an element whose content is walked pushes a
    // level on the stack.
    const visit = (n, out, depth, textVisible, env) => {
      const type = bb.nodeType(n);
      if (type === 3) {
        if (textVisible && n.data) {
          // Whitespace between tags only separates words: one space will do.
          const t = /^\s+$/.test(n.data) && !/^pre/.test(textVisible) ? " " : n.data;
          out.push(t);
          chars += t.length;
          if (chars > maxChars) truncated = true;
        }
        return;
      }
      if (type === 11) return descend(n, out, depth, textVisible, null, "", null, env, null);
      if (type !== 1) return;
      const tag = bb.tag(n);
      if (SKIP.has(tag)) return;
      if (++nodes > maxNodes) {
        truncated = true;
        return;
      }
      if (tag === "slot") return descend(n, out, depth, textVisible, null, "", null, env, null);
      let style, tv, name, attrs, kidsEnv, sep = null;
      try {
        style = getComputedStyle(n);
        const isFrame = tag === "iframe" || tag === "frame";
        const why = hidden(n, style, env);
        if (why || (isFrame && style.visibility !== "visible")) {
          if (why === "trick" && /\S/.test(bb.textContent(n))) hiddenRuns++;
          // Frames in the hidden part are reported as not included.
          const inside = isFrame ? [n] : bb.qsa(n, "iframe, frame");
          for (const f of inside) frames.push({ frameId: frameIdOf(f), visible: false, src: cut(String(f.src || ""), MAX_ATTR) });
          return;
        }
        // textVisible carries the white-space mode ("pre…" keeps spaces) or
        // false when the element's own text is invisible.
        tv = style.visibility === "visible" && (style.whiteSpace || "normal");
        const bg = bgOf(style, env.bg);
        if (tv && ownText(n)) {
          if (textHidden(n, style, bg)) {
            tv = false;
            hiddenRuns++;
          } else if (coverChecks < MAX_COVER_CHECKS && !NO_BOX_CHECK.has(style.display)) {
            coverChecks++;
            if (covered(n, bb.rect(n), env.view)) {
              hiddenRuns++;
              return;
            }
          }
        }
        kidsEnv = { clip: clipOf(n, style, env.clip), bg, style, view: viewOf(n, style, env.view) };
        if (isFrame) {
          const id = frameIdOf(n);
          const src = cut(String(n.src || ""), MAX_ATTR);
          // Chrome gives content scripts no runtime.getFrameId (id -1): the
          // daemon then matches the frame by src and content size.
          const r = bb.rect(n);
          const w = Math.round(r.width - parseFloat(style.borderLeftWidth) - parseFloat(style.paddingLeft) - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight));
          const h = Math.round(r.height - parseFloat(style.borderTopWidth) - parseFloat(style.paddingTop) - parseFloat(style.borderBottomWidth) - parseFloat(style.paddingBottom));
          frames.push({ frameId: id, visible: true, src, width: w, height: h });
          out.push(["frame", { id: String(id), src, width: String(w), height: String(h) }]);
          return;
        }
        if (tag === "input" || tag === "select" || tag === "textarea") {
          if (!tv) return;
          const c = control(n, tag);
          if (c) out.push(c);
          return;
        }
        if (tag === "br") {
          out.push(["br", 0]);
          return;
        }
        // A code editor: its rendered lines as one code block (its DOM is
        // a gutter, line boxes and overlays, which read as noise).
        if (EDITOR_CLASS.test(bb.attr(n, "class") || "")) {
          const spec = bb.EDITORS.find((e) => e.lines && bb.matches(n, e.root));
          const shown = spec && bb.editorLines(spec, n);
          if (shown) {
            if (!shown.complete) partialEditors++;
            const code = shown.lines.join("\n");
            out.push(["pre", 0, ["code", 0, code]]);
            chars += code.length;
            return;
          }
        }
        const role = (bb.attr(n, "role") || "").trim().toLowerCase();
        if (separated(style, role, env.style)) {
          out.push(" ");
          sep = out;
        }
        name = tagFor(n, tag, style);
        if (role === "row" || (PLAIN_INLINE.has(name) && !sep && BLOCKISH.test(style.display))) name = "div";
        if (name && depth < MAX_DEPTH) {
          attrs = attrsFor(n, name);
          const mark = kidsEnv.view !== env.view && scrollMark(n, style, kidsEnv);
          if (mark) (attrs || (attrs = {})).scrolls = mark;
        }
      } catch (_) {
        // A clobbered or odd element: keep its content, lose its wrapper.
        return descend(n, out, depth, tv === undefined ? textVisible : tv, null, "", null, kidsEnv || env, null);
      }
      if (!name || depth >= MAX_DEPTH) return descend(n, out, depth, tv, null, "", null, kidsEnv, sep);
      if (name === "img" && !tv) return;
      const el = [name, attrs];
      descend(n, el, depth + 1, tv, el, name, out, kidsEnv, sep);
      // A level that could not be pushed (too deep) still closes its wrapper.
      if (!stack.length || stack[stack.length - 1].el !== el) finish(el, name, out, sep);
    };

    // finish adds a wrapper to its parent once its children are in,
    // unless nothing visible came inside, and the space after a separated
    // box.
    const finish = (el, name, parentOut, sep) => {
      if (el && !(el.length === 2 && !EMPTY_OK.has(name))) parentOut.push(el);
      if (sep) sep.push(" ");
    };

    const root = bb.body() || bb.root();
    const tree = ["body", 0];
    if (root) {
      descend(root, tree, 1, "normal", null, "", null, rootEnv(), null);
      while (stack.length) {
        const top = stack[stack.length - 1];
        if (truncated || top.i >= top.kids.length) {
          stack.pop();
          if (top.el || top.sep) finish(top.el, top.name, top.parentOut, top.sep);
          continue;
        }
        visit(top.kids[top.i++], top.out, top.depth, top.textVisible, top.env);
      }
    }
    const docEl = bb.root();
    let lang = "";
    try {
      lang = docEl ? String(bb.attr(docEl, "lang") || "") : "";
    } catch (_) { /* not an element we can read */ }
    return {
      url: location.href,
      title: bb.title(),
      lang,
      readyState: bb.readyState(),
      viewport: { width: window.innerWidth, height: window.innerHeight },
      tree: JSON.stringify(tree),
      frames,
      nodes,
      hiddenRuns,
      partialEditors,
      truncated: truncated || tooDeep,
    };
  };

  // rootEnv is what the body is drawn in: the page's background (the
  // root's, else the body's, else the canvas: white unless the page asks
  // for a dark scheme), and the page's clip on the right when it hides
  // its horizontal overflow.
  const rootEnv = () => {
    const docEl = bb.root();
    const body = bb.body();
    let bg = null;
    let clip = null;
    try {
      const rs = getComputedStyle(docEl);
      const bs = body ? getComputedStyle(body) : rs;
      bg = bgOf(rs, null) || bgOf(bs, null);
      if (!bg && !/dark/.test(rs.colorScheme || "") && rs.backgroundImage === "none" && bs.backgroundImage === "none") bg = [255, 255, 255, 1];
      const hides = (v) => v === "hidden" || v === "clip";
      if (hides(rs.overflowX) || (rs.overflowX === "visible" && hides(bs.overflowX))) {
        clip = { left: -window.scrollX, right: docEl.clientWidth - window.scrollX, top: -Infinity, bottom: Infinity };
      }
    } catch (_) { /* judge nothing */ }
    return { bg, clip, style: null, view: null };
  };
})();
