// extract: serializes the rendered, visible DOM of one frame for the daemon,
// which turns it into text, markdown, a reader view, links and headings
// (internal/extract). It runs in every frame of the tab (page.run with
// allFrames); each frame answers for its own document and marks where its
// child frames sit, so the daemon can put their content in place.
//
// The wire shape of a node (decoded by internal/extract, which fuzzes it):
//   text:    a JSON string
//   element: [tag, attrs, ...children], attrs an object of strings or 0
//   a frame: ["frame", {"id": "<frameId>", "src": "<url>"}]
// Tags are a small known set (unknown elements become div or span by their
// display); attributes are only those a reader needs, with URLs made
// absolute. Password and payment-card fields never give their value.
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
    if (n.nodeType === 1) {
      const tag = n.localName;
      if (tag === "slot") {
        const assigned = n.assignedNodes({ flatten: true });
        if (assigned.length) return assigned;
      } else if (n.shadowRoot || SHADOW_HOSTS.has(tag) || tag.includes("-")) {
        const root = bb.shadowRoot(n);
        if (root) return root.childNodes;
      }
    }
    return n.childNodes;
  };

  const MAX_DEPTH = 300;
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
  const hidden = (el, style) => {
    if (style.display === "none") return true;
    if (el.getAttribute("aria-hidden") === "true") return true;
    // display: contents has no box of its own (checkVisibility says false
    // for it); its children are judged one by one.
    if (style.display === "contents") return false;
    // checkVisibility also catches what CSS hides from above: a closed
    // <details>, content-visibility: hidden.
    if (typeof el.checkVisibility === "function" && !el.checkVisibility({ opacityProperty: true })) return true;
    if (style.opacity === "0") return true;
    if (NO_BOX_CHECK.has(style.display) && el.localName !== "img") return false;
    const r = el.getBoundingClientRect();
    const cuts = (v) => v !== "visible";
    if ((r.width <= 0 || r.height <= 0) && (cuts(style.overflowX) || cuts(style.overflowY))) return true;
    // The "visually hidden" idiom: a 1px box with its content clipped.
    if (r.width <= 1 && r.height <= 1 && (cuts(style.overflowX) || style.clip !== "auto" || style.clipPath !== "none")) return true;
    if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") return true;
    if (r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0) return true;
    if (el.localName === "img" && r.width <= 2 && r.height <= 2) return true; // tracking pixels
    return false;
  };

  const absURL = (s) => {
    try {
      return new URL(s, document.baseURI).href;
    } catch (_) {
      return "";
    }
  };

  // tagFor maps an element to one of the known tags, or "" to pass its
  // children through without a wrapper.
  const tagFor = (el, tag, style) => {
    const role = (el.getAttribute("role") || "").trim().toLowerCase();
    if (role === "heading") {
      const level = parseInt(el.getAttribute("aria-level") || "2", 10);
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
    if (name === "a" && el.hasAttribute("href")) set("href", absURL(el.getAttribute("href")));
    if (name === "a" || name === "abbr") set("title", el.getAttribute("title"));
    if (name === "img") {
      const src = el.currentSrc || el.src || "";
      if (!src.startsWith("data:")) set("src", src);
      set("alt", el.getAttribute("alt"));
    }
    if (name === "td" || name === "th") {
      if (el.colSpan > 1) set("colspan", el.colSpan);
      if (el.rowSpan > 1) set("rowspan", el.rowSpan);
    }
    if (name === "ol" && el.hasAttribute("start")) set("start", el.getAttribute("start"));
    if (SCORED.has(name)) {
      set("id", cut(el.id || "", 80));
      set("class", cut(typeof el.className === "string" ? el.className : "", 120));
      set("role", el.getAttribute("role"));
    }
    if (el.getAttribute("aria-label") && (name === "a" || name === "button")) set("aria-label", el.getAttribute("aria-label"));
    return a;
  };

  // control serializes a form control as what a person sees in it. The
  // value of a sensitive field (password, payment card) is never read.
  const control = (el, tag) => {
    if (tag === "select") {
      const picked = Array.from(el.selectedOptions || []).map((o) => bb.norm(o.label || o.text));
      return ["select", 0, cut(picked.join(", "), 500)];
    }
    if (tag === "textarea") return ["textarea", { value: cut(el.value || "", 5000) }];
    const type = (el.getAttribute("type") || "text").toLowerCase();
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

  // extract serializes this frame's visible document.
  bb.extract = (args) => {
    const maxNodes = (args && args.maxNodes) || 300000;
    const maxChars = (args && args.maxChars) || 4000000;
    let nodes = 0;
    let chars = 0;
    let truncated = false;
    const frames = [];

    const walkChildren = (n, out, depth, textVisible) => {
      const kids = renderedChildren(n);
      for (let i = 0; i < kids.length; i++) {
        if (truncated) return;
        walk(kids[i], out, depth, textVisible);
      }
    };

    const walk = (n, out, depth, textVisible) => {
      if (n.nodeType === 3) {
        if (textVisible && n.data) {
          // Whitespace between tags only separates words: one space will do.
          const t = /^\s+$/.test(n.data) && !/^pre/.test(textVisible) ? " " : n.data;
          out.push(t);
          chars += t.length;
          if (chars > maxChars) truncated = true;
        }
        return;
      }
      if (n.nodeType === 11) return walkChildren(n, out, depth, textVisible);
      if (n.nodeType !== 1) return;
      const tag = n.localName;
      if (SKIP.has(tag)) return;
      if (++nodes > maxNodes) {
        truncated = true;
        return;
      }
      if (tag === "slot") return walkChildren(n, out, depth, textVisible);
      const style = getComputedStyle(n);
      const isFrame = tag === "iframe" || tag === "frame";
      if (hidden(n, style) || (isFrame && style.visibility !== "visible")) {
        // Frames in the hidden part are reported as not included.
        const inside = isFrame ? [n] : n.querySelectorAll("iframe, frame");
        for (const f of inside) frames.push({ frameId: frameIdOf(f), visible: false, src: cut(f.src || "", MAX_ATTR) });
        return;
      }
      // textVisible carries the white-space mode ("pre…" keeps spaces) or
      // false when the element's own text is invisible.
      const tv = style.visibility === "visible" && (style.whiteSpace || "normal");
      if (isFrame) {
        const id = frameIdOf(n);
        const src = cut(n.src || "", MAX_ATTR);
        // Chrome gives content scripts no runtime.getFrameId (id -1): the
        // daemon then matches the frame by src and content size.
        const r = n.getBoundingClientRect();
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
      const name = tagFor(n, tag, style);
      if (!name || depth >= MAX_DEPTH) return walkChildren(n, out, depth, tv);
      const el = [name, attrsFor(n, name)];
      if (name === "img" && !tv) return;
      walkChildren(n, el, depth + 1, tv);
      if (el.length === 2 && !EMPTY_OK.has(name)) return; // nothing visible inside
      out.push(el);
    };

    const root = document.body || document.documentElement;
    const tree = ["body", 0];
    if (root) walkChildren(root, tree, 1, "normal");
    return {
      url: location.href,
      title: document.title || "",
      lang: document.documentElement ? document.documentElement.lang || "" : "",
      readyState: document.readyState,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      tree,
      frames,
      nodes,
      truncated,
    };
  };
})();
