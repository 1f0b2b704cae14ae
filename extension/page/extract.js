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
  // Boxes whose geometry cannot hide them on their own (inline boxes and
  // table parts ignore overflow and are not positioned off-screen by
  // themselves): skipping their layout query keeps big tables fast.
  const NO_BOX_CHECK = new Set(["inline", "table-row", "table-cell", "table-row-group", "table-header-group", "table-footer-group"]);

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
  // person: not rendered, transparent, aria-hidden, clipped to nothing,
  // zero-sized with its overflow cut, or placed entirely off the page.
  // visibility: hidden is not here: children may turn visible again, so
  // it only silences the element's own text.
  const checkVisibility = Element.prototype.checkVisibility;
  const hidden = (el, style) => {
    if (style.display === "none") return true;
    if (bb.attr(el, "aria-hidden") === "true") return true;
    // display: contents has no box of its own (checkVisibility says false
    // for it); its children are judged one by one.
    if (style.display === "contents") return false;
    // checkVisibility also catches what CSS hides from above: a closed
    // <details>, content-visibility: hidden.
    if (typeof checkVisibility === "function" && !checkVisibility.call(el, { opacityProperty: true })) return true;
    if (style.opacity === "0") return true;
    const tag = bb.tag(el);
    if (NO_BOX_CHECK.has(style.display) && tag !== "img") return false;
    const r = bb.rect(el);
    const cuts = (v) => v !== "visible";
    if ((r.width <= 0 || r.height <= 0) && (cuts(style.overflowX) || cuts(style.overflowY))) return true;
    // The "visually hidden" idiom: a 1px box with its content clipped.
    if (r.width <= 1 && r.height <= 1 && (cuts(style.overflowX) || style.clip !== "auto" || style.clipPath !== "none")) return true;
    if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") return true;
    if (r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0) return true;
    if (tag === "img" && r.width <= 2 && r.height <= 2) return true; // tracking pixels
    return false;
  };

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
    if (name === "a" || name === "abbr") set("title", bb.attr(el, "title"));
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
    if (bb.attr(el, "aria-label") && (name === "a" || name === "button")) set("aria-label", bb.attr(el, "aria-label"));
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
  bb.extract = (args) => {
    const maxNodes = (args && args.maxNodes) || 300000;
    const maxChars = (args && args.maxChars) || 4000000;
    let nodes = 0;
    let chars = 0;
    let truncated = false; // a budget ran out: the walk stops
    let tooDeep = false; // content below MAX_WALK levels was left out
    const frames = [];

    // A level of the walk: the children of one node, the array they go
    // into, and (for an element with a wrapper) the wrapper to add to its
    // parent's array once its children are done.
    const stack = [];
    const descend = (n, out, depth, textVisible, el, name, parentOut) => {
      if (stack.length >= MAX_WALK) {
        tooDeep = true;
        return;
      }
      stack.push({ kids: renderedChildren(n), i: 0, out, depth, textVisible, el, name, parentOut });
    };

    // visit handles one node; an element whose content is walked pushes a
    // level on the stack.
    const visit = (n, out, depth, textVisible) => {
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
      if (type === 11) return descend(n, out, depth, textVisible, null, "", null);
      if (type !== 1) return;
      const tag = bb.tag(n);
      if (SKIP.has(tag)) return;
      if (++nodes > maxNodes) {
        truncated = true;
        return;
      }
      if (tag === "slot") return descend(n, out, depth, textVisible, null, "", null);
      let style, tv, name, attrs;
      try {
        style = getComputedStyle(n);
        const isFrame = tag === "iframe" || tag === "frame";
        if (hidden(n, style) || (isFrame && style.visibility !== "visible")) {
          // Frames in the hidden part are reported as not included.
          const inside = isFrame ? [n] : bb.qsa(n, "iframe, frame");
          for (const f of inside) frames.push({ frameId: frameIdOf(f), visible: false, src: cut(String(f.src || ""), MAX_ATTR) });
          return;
        }
        // textVisible carries the white-space mode ("pre…" keeps spaces) or
        // false when the element's own text is invisible.
        tv = style.visibility === "visible" && (style.whiteSpace || "normal");
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
        name = tagFor(n, tag, style);
        if (name && depth < MAX_DEPTH) attrs = attrsFor(n, name);
      } catch (_) {
        // A clobbered or odd element: keep its content, lose its wrapper.
        return descend(n, out, depth, tv === undefined ? textVisible : tv, null, "", null);
      }
      if (!name || depth >= MAX_DEPTH) return descend(n, out, depth, tv, null, "", null);
      if (name === "img" && !tv) return;
      const el = [name, attrs];
      descend(n, el, depth + 1, tv, el, name, out);
      // A level that could not be pushed (too deep) still closes its wrapper.
      if (!stack.length || stack[stack.length - 1].el !== el) finish(el, name, out);
    };

    // finish adds a wrapper to its parent once its children are in,
    // unless nothing visible came inside.
    const finish = (el, name, parentOut) => {
      if (el.length === 2 && !EMPTY_OK.has(name)) return;
      parentOut.push(el);
    };

    const root = bb.body() || bb.root();
    const tree = ["body", 0];
    if (root) {
      descend(root, tree, 1, "normal", null, "", null);
      while (stack.length) {
        const top = stack[stack.length - 1];
        if (truncated || top.i >= top.kids.length) {
          stack.pop();
          if (top.el) finish(top.el, top.name, top.parentOut);
          continue;
        }
        visit(top.kids[top.i++], top.out, top.depth, top.textVisible);
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
      truncated: truncated || tooDeep,
    };
  };
})();
