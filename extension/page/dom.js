//# allFunctionsCalledOnLoad
// (The line above is V8's compile hint: see handlers/readiness.js.)
// Shared page-side helpers: visibility, roles, accessible names, a walk that
// pierces shadow roots, and element refs. Injected before every other page
// script into the extension's isolated world, where globalThis.__bb lives
// for the life of the document. Page content is untrusted: nothing here
// evaluates page-provided code.
(() => {
  // globalThis.__bb is an own property defined once. Reading it before
  // would find the page's named elements (<div id="__bb">) through the
  // window's named properties, which the isolated world sees too.
  if (!Object.hasOwn(globalThis, "__bb")) {
    Object.defineProperty(globalThis, "__bb", { value: { loaded: {} }, configurable: false, enumerable: false, writable: false });
  }
  const bb = globalThis.__bb;
  if (bb.loaded.dom) return;
  bb.loaded.dom = true;

  // Pristine DOM accessors. A <form> lets its controls shadow every
  // property by name (<input name="getAttribute"> makes form.getAttribute
  // an element), and the document does the same for named <img>, <form>,
  // <embed>, <object> and <iframe> (<img name="title">): the page scripts
  // read those through the prototypes' own getters and methods instead.
  const getter = (proto, name) => {
    const get = Object.getOwnPropertyDescriptor(proto, name).get;
    return (o) => get.call(o);
  };
  const method = (proto, name) => {
    const f = proto[name];
    return (o, ...a) => f.apply(o, a);
  };
  bb.nodeType = getter(Node.prototype, "nodeType");
  bb.childNodes = getter(Node.prototype, "childNodes");
  bb.parentNode = getter(Node.prototype, "parentNode");
  bb.isConnected = getter(Node.prototype, "isConnected");
  bb.rootNode = method(Node.prototype, "getRootNode");
  bb.contains = method(Node.prototype, "contains");
  bb.tag = getter(Element.prototype, "localName");
  bb.attr = method(Element.prototype, "getAttribute");
  bb.hasAttr = method(Element.prototype, "hasAttribute");
  bb.matches = method(Element.prototype, "matches");
  bb.closest = method(Element.prototype, "closest");
  bb.rect = method(Element.prototype, "getBoundingClientRect");
  const openShadowRoot = getter(Element.prototype, "shadowRoot");
  const textContent = getter(Node.prototype, "textContent");
  bb.textContent = (n) => textContent(n) || "";
  const docTitle = getter(Document.prototype, "title");
  const docBody = getter(Document.prototype, "body");
  const docElement = getter(Document.prototype, "documentElement");
  const docReadyState = getter(Document.prototype, "readyState");
  const docBaseURI = getter(Node.prototype, "baseURI");
  bb.title = () => String(docTitle(document) ?? "");
  bb.body = () => docBody(document);
  bb.root = () => docElement(document);
  bb.readyState = () => String(docReadyState(document));
  bb.baseURI = () => String(docBaseURI(document));
  const qsa = {
    doc: Document.prototype.querySelectorAll,
    frag: DocumentFragment.prototype.querySelectorAll,
    el: Element.prototype.querySelectorAll,
  };
  // querySelectorAll on a document, shadow root or element.
  bb.qsa = (root, selector) => {
    const f = root instanceof Document ? qsa.doc : root instanceof DocumentFragment ? qsa.frag : qsa.el;
    return f.call(root, selector);
  };
  const docQuerySelector = Document.prototype.querySelector;
  // qs is document.querySelector.
  bb.qs = (selector) => docQuerySelector.call(document, selector);
  const docScrollingElement = getter(Document.prototype, "scrollingElement");
  bb.scrollingElement = () => docScrollingElement(document) || bb.root();
  const createRange = Document.prototype.createRange;
  bb.range = () => createRange.call(document);
  const elementFromPoint = Document.prototype.elementFromPoint;
  const rootElementFromPoint = ShadowRoot.prototype.elementFromPoint;
  bb.elementFromPoint = (root, x, y) => (root instanceof ShadowRoot ? rootElementFromPoint : elementFromPoint).call(root, x, y);

  // busy says whether the DOM keeps changing: three changes within ms,
  // the last within ms of now — structure, text or attributes, so a
  // script that moves an element by setting its style every frame counts,
  // while a change now and then (what the previous clicks did) does not.
  // It knows the changes since the first page script the bridge ran in
  // this document; right after it starts watching it cannot tell: busy.
  // Input uses it to tell a settled page, where an element measured once
  // is where it stays, from a busy one (point and recheck in
  // page/locate.js). The observer only records times.
  const changes = { since: performance.now(), t: [-Infinity, -Infinity, -Infinity] };
  new MutationObserver(() => {
    changes.t.shift();
    changes.t.push(performance.now());
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  bb.busy = (ms) => {
    const now = performance.now();
    const [first, , last] = changes.t;
    return now - changes.since < ms || (now - last < ms && last - first < ms);
  };

  // norm collapses whitespace, as locators compare text.
  bb.norm = (s) => String(s || "").replace(/\s+/g, " ").trim();

  // shadowRoot returns an element's shadow root, open or closed: the
  // isolated world may read closed roots through chrome.dom.
  bb.shadowRoot = (el) => {
    const open = openShadowRoot(el);
    if (open) return open;
    try {
      return (chrome.dom && chrome.dom.openOrClosedShadowRoot && chrome.dom.openOrClosedShadowRoot(el)) || null;
    } catch (_) {
      return null;
    }
  };

  // childNodes of a node as rendered: an element with a shadow root shows
  // the root's content (slots bring in the light DOM children assigned).
  bb.renderedChildren = (node) => {
    if (bb.nodeType(node) === 1) {
      if (bb.tag(node) === "slot") {
        const assigned = node.assignedNodes({ flatten: true });
        if (assigned.length) return assigned;
      }
      const root = bb.shadowRoot(node);
      if (root) return Array.from(bb.childNodes(root));
    }
    return Array.from(bb.childNodes(node));
  };

  // elements yields every element under root in rendered order, piercing
  // shadow roots (open and closed).
  bb.elements = function* (root) {
    const stack = [root || bb.root()];
    while (stack.length) {
      const n = stack.pop();
      if (!n) continue;
      if (bb.nodeType(n) === 1) yield n;
      const kids = bb.renderedChildren(n);
      for (let i = kids.length - 1; i >= 0; i--) {
        const t = bb.nodeType(kids[i]);
        if (t === 1 || t === 11) stack.push(kids[i]);
      }
    }
  };

  // deepQueryAll is querySelectorAll that also searches every shadow root.
  bb.deepQueryAll = (selector, root) => {
    const out = [];
    const seen = new Set();
    const visit = (r) => {
      for (const el of bb.qsa(r, selector)) if (!seen.has(el)) { seen.add(el); out.push(el); }
      for (const el of bb.qsa(r, "*")) {
        const sr = bb.shadowRoot(el);
        if (sr) visit(sr);
      }
    };
    visit(root || document);
    return out;
  };

  // isVisible: rendered with a size, not hidden by CSS or aria-hidden, not
  // fully transparent, and not clipped entirely out of the page.
  const checkVisibility = Element.prototype.checkVisibility;
  const parentElement = getter(Node.prototype, "parentElement");
  bb.isVisible = (el) => {
    if (!el || !bb.isConnected(el)) return false;
    if (bb.closest(el, "[aria-hidden=true]")) return false;
    const style = getComputedStyle(el);
    if (style.display === "contents") {
      // No box of its own (checkVisibility says false): visible when its
      // parent is and its content has a size.
      const range = bb.range();
      range.selectNodeContents(el);
      const rr = range.getBoundingClientRect();
      const parent = parentElement(el);
      return rr.width > 0 && rr.height > 0 && (!parent || bb.isVisible(parent));
    }
    if (typeof checkVisibility === "function" &&
        !checkVisibility.call(el, { opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
    if (style.display === "none" || style.visibility === "hidden" || style.visibility === "collapse") return false;
    const r = bb.rect(el);
    if (r.width <= 0 || r.height <= 0) return false;
    const doc = bb.root();
    if (doc && (r.right <= -doc.scrollLeft - 1 || r.bottom <= -doc.scrollTop - 1)) return false; // off-screen
    return true;
  };

  // rectOf is the element's box; an element with display: contents has
  // none, so the box of its content stands in.
  bb.rectOf = (el) => {
    if (getComputedStyle(el).display === "contents") {
      const range = bb.range();
      range.selectNodeContents(el);
      return range.getBoundingClientRect();
    }
    return bb.rect(el);
  };

  const implicitRoles = {
    a: (el) => (bb.hasAttr(el, "href") ? "link" : ""),
    area: (el) => (bb.hasAttr(el, "href") ? "link" : ""),
    article: () => "article", aside: () => "complementary", button: () => "button",
    dialog: () => "dialog", footer: () => "contentinfo", form: () => "form",
    h1: () => "heading", h2: () => "heading", h3: () => "heading",
    h4: () => "heading", h5: () => "heading", h6: () => "heading",
    header: () => "banner", hr: () => "separator", img: (el) => (bb.attr(el, "alt") === "" ? "presentation" : "img"),
    li: () => "listitem", main: () => "main", nav: () => "navigation", ol: () => "list",
    option: () => "option", progress: () => "progressbar", section: () => "region",
    select: (el) => (el.multiple || el.size > 1 ? "listbox" : "combobox"),
    summary: () => "button", table: () => "table", tbody: () => "rowgroup", td: () => "cell",
    textarea: () => "textbox", th: () => "columnheader", tr: () => "row", ul: () => "list",
    input: (el) => {
      const t = (bb.attr(el, "type") || "text").toLowerCase();
      if (t === "checkbox") return "checkbox";
      if (t === "radio") return "radio";
      if (t === "range") return "slider";
      if (t === "number") return "spinbutton";
      if (t === "search") return bb.hasAttr(el, "list") ? "combobox" : "searchbox";
      if (["button", "submit", "reset", "image"].includes(t)) return "button";
      if (t === "hidden") return "";
      return bb.hasAttr(el, "list") ? "combobox" : "textbox";
    },
  };

  // role: the explicit ARIA role, else the implicit one of the tag.
  const isContentEditable = getter(HTMLElement.prototype, "isContentEditable");
  bb.editable = (el) => el instanceof HTMLElement && isContentEditable(el);
  bb.role = (el) => {
    const explicit = (bb.attr(el, "role") || "").trim().split(/\s+/)[0];
    if (explicit) return explicit.toLowerCase();
    if (bb.editable(el) && bb.attr(el, "contenteditable") !== null) return "textbox";
    const tag = bb.tag(el);
    const f = Object.hasOwn(implicitRoles, tag) ? implicitRoles[tag] : null;
    return f ? f(el) : "";
  };

  // visibleText of an element: its rendered text, whitespace-normalised.
  const innerText = getter(HTMLElement.prototype, "innerText");
  bb.visibleText = (el) => bb.norm(el instanceof HTMLElement ? innerText(el) : bb.textContent(el));

  const CONTROLS = new Set(["input", "select", "textarea", "button"]);
  const isControl = (el) => CONTROLS.has(bb.tag(el));

  // ownText is the text of node's text nodes, without the text inside
  // nested form controls (a label wrapping its input). It reads the DOM
  // and never clones it: cloning runs custom elements' constructors.
  const ownText = (node) => {
    let s = "";
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      const t = bb.nodeType(n);
      if (t === 3) {
        s += n.data;
        continue;
      }
      if (t !== 1 && t !== 11) continue;
      if (t === 1 && n !== node && CONTROLS.has(bb.tag(n))) continue;
      const kids = bb.childNodes(n);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return s;
  };

  const docGetElementById = Document.prototype.getElementById;
  const fragGetElementById = DocumentFragment.prototype.getElementById;
  // byId finds an element by id in el's tree (its document or shadow root).
  const byId = (el, id) => {
    if (!id) return null;
    const root = bb.rootNode(el);
    if (root instanceof Document) return docGetElementById.call(root, id);
    if (root instanceof DocumentFragment) return fragGetElementById.call(root, id);
    return null;
  };
  bb.byId = byId;

  // labelText is the text of the labels of a control, without the text of
  // the control itself (a wrapping label contains it).
  bb.labelText = (el) => {
    const parts = [];
    let labels = [];
    try {
      labels = el.labels ? Array.from(el.labels) : [];
    } catch (_) { /* not a labelable element */ }
    for (const l of labels) parts.push(bb.norm(ownText(l)));
    const by = bb.attr(el, "aria-labelledby");
    if (by && !labels.length) {
      for (const id of by.split(/\s+/)) {
        const t = byId(el, id);
        if (t) parts.push(bb.norm(bb.textContent(t)));
      }
    }
    return bb.norm(parts.join(" "));
  };

  // accessibleName follows the common cases of the accname algorithm:
  // aria-labelledby, aria-label, labels, alt, value of buttons, text
  // content for roles named from content, then title and placeholder.
  const querySelector = Element.prototype.querySelector;
  bb.accessibleName = (el) => {
    const tag = bb.tag(el);
    const by = bb.attr(el, "aria-labelledby");
    if (by) {
      const t = by.split(/\s+/).map((id) => byId(el, id))
        .filter(Boolean).map((n) => bb.norm(bb.textContent(n))).join(" ");
      if (bb.norm(t)) return bb.norm(t);
    }
    const aria = bb.norm(bb.attr(el, "aria-label"));
    if (aria) return aria;
    if (isControl(el) && tag !== "button") {
      const t = (bb.attr(el, "type") || "").toLowerCase();
      if (tag === "input" && ["button", "submit", "reset"].includes(t)) {
        return bb.norm(el.value || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : ""));
      }
      if (tag === "input" && t === "image") return bb.norm(el.alt || el.title);
      const l = bb.labelText(el);
      if (l) return l;
    }
    if (tag === "img" || tag === "area") {
      const alt = bb.norm(bb.attr(el, "alt"));
      if (alt) return alt;
    }
    const role = bb.role(el);
    const fromContent = ["button", "link", "heading", "checkbox", "radio", "switch", "tab", "menuitem",
      "menuitemcheckbox", "menuitemradio", "option", "treeitem", "cell", "columnheader", "rowheader", "row", "tooltip"];
    if (fromContent.includes(role) || tag === "button" || tag === "summary") {
      let t = bb.visibleText(el);
      if (!t) {
        // An icon button named by its image.
        const img = querySelector.call(el, "img[alt]");
        if (img) t = bb.norm(bb.attr(img, "alt"));
      }
      if (t) return t;
    }
    return bb.norm(bb.attr(el, "title") || bb.attr(el, "placeholder") || "");
  };

  // isSensitive: password, one-time-code and payment-card fields, whose
  // values the bridge never reads. A field is sensitive when it is a password field, when the page masks
  // it with -webkit-text-security (a "password" drawn in a text input),
  // when its autocomplete says password, one-time code or payment card,
  // or when its name or id names a card number or security code.
  const SENSITIVE_NAME = /(^|[^a-z])(cc-?num(ber)?|cc-?(csc|cvc|cvv|exp)|card-?num(ber)?|card-?no|credit-?card|card-?(cvc|cvv|csc|code|security)|security-?code|cvc2?|cvv2?|csc|passwd|password|one-?time-?code|otp-?code)([^a-z]|$)/;
  bb.isSensitive = (el) => {
    if (!el || bb.nodeType(el) !== 1) return false;
    const tag = bb.tag(el);
    if (tag !== "input" && tag !== "textarea") return false;
    if (tag === "input" && (bb.attr(el, "type") || "").toLowerCase() === "password") return true;
    try {
      const mask = getComputedStyle(el).getPropertyValue("-webkit-text-security");
      if (mask && mask !== "none") return true;
    } catch (_) { /* not rendered: decide by its attributes */ }
    const ac = (bb.attr(el, "autocomplete") || "").toLowerCase().split(/\s+/);
    if (ac.some((t) => t.includes("password") || t.includes("one-time-code") || t.startsWith("cc-"))) return true;
    // Names run together in camelCase (cardCvc) or with separators
    // (cc_number, credit-card): mark word boundaries with "-" first.
    for (const raw of [bb.attr(el, "name"), bb.attr(el, "id")]) {
      if (!raw) continue;
      const words = raw.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase().replace(/[^a-z0-9]+/g, "-");
      if (SENSITIVE_NAME.test(words)) return true;
    }
    return false;
  };

  // Code editors (type, inspect and extract know them) draw their text
  // themselves and take input through an element of their own: an
  // EditContext element or a hidden textarea (Monaco), a contenteditable
  // (CodeMirror 6), a hidden textarea (CodeMirror 5, Ace). root finds the
  // editor around an element, input its input element, lines the
  // rendered lines (in document order unless byTop), complete whether
  // every line of the document is rendered (the editors render only what
  // is on screen). Only the editors with lines can be read.
  bb.EDITORS = [
    {
      name: "monaco", root: ".monaco-editor", input: ".native-edit-context, textarea.inputarea",
      lines: ".view-lines > .view-line", byTop: true,
      complete: (root, lines) => {
        // All of it is on screen: not scrolled, line 1 shown, no line
        // wrapped (a wrapped line shows in several view lines, numbered
        // once), and room left below the last line.
        const content = bb.qsa(root, ".lines-content")[0];
        const scrolled = content && parseFloat(content.style.top || "0") !== 0;
        const view = bb.qsa(root, ".view-lines")[0];
        const lh = view ? parseFloat(getComputedStyle(view).lineHeight) || 0 : 0;
        const gutter = Array.from(bb.qsa(root, ".margin-view-overlays .line-numbers"), (g) => bb.norm(bb.textContent(g)));
        const wrapped = gutter.some((g) => !g);
        const first = !gutter.length || gutter.includes("1");
        return !scrolled && !wrapped && first && lh > 0 && (lines.length + 1) * lh <= bb.rect(root).height;
      },
    },
    {
      name: "codemirror", root: ".cm-editor", input: ".cm-content",
      lines: ".cm-content > .cm-line",
      // Lines out of view are gaps; folded code a placeholder.
      complete: (root) => !bb.qsa(root, ".cm-content > .cm-gap, .cm-foldPlaceholder").length,
    },
    { name: "codemirror5", root: ".CodeMirror", input: "textarea" },
    { name: "ace", root: ".ace_editor", input: "textarea.ace_text-input" },
  ];

  // editorAround finds the code editor e belongs to, or the one editor e
  // holds: {spec, root, input}; null for none.
  bb.editorAround = (e) => {
    for (const spec of bb.EDITORS) {
      let root = bb.closest(e, spec.root);
      if (!root) {
        const inside = bb.qsa(e, spec.root);
        if (inside.length === 1) root = inside[0];
      }
      if (!root) continue;
      const input = bb.qsa(root, spec.input)[0];
      if (input) return { spec, root, input };
    }
    return null;
  };

  // editorLines are the lines an editor (spec, root: of editorAround)
  // renders, and whether they are all of its text; null when the bridge
  // cannot read this editor. A line's text leaves out the editor's
  // widgets (placeholders, inline hints: contenteditable=false) and turns
  // the no-break spaces editors draw spaces with back into spaces.
  bb.editorLines = (spec, root) => {
    if (!spec.lines) return null;
    const lines = Array.from(bb.qsa(root, spec.lines));
    if (spec.byTop) lines.sort((x, y) => parseFloat(x.style.top || "0") - parseFloat(y.style.top || "0"));
    const text = (line) => {
      let s = "";
      const walk = (n) => {
        for (const c of bb.childNodes(n)) {
          const t = bb.nodeType(c);
          if (t === 3) s += c.data;
          else if (t === 1 && bb.attr(c, "contenteditable") !== "false" && !bb.matches(c, ".cm-placeholder, .cm-widgetBuffer")) walk(c);
        }
      };
      walk(line);
      return s.replace(/\u00a0/g, " ").replace(/\u200b/g, "");
    };
    return { lines: lines.map(text), complete: spec.complete(root, lines) };
  };

  // Refs name elements for later calls: "e<N>", unique within the frame's
  // document for its life, held weakly so a removed element is gone. The
  // numbering starts at a random point in every document, so a ref kept
  // from an earlier page does not name an element of the next one.
  const refs = new Map();
  const ids = new WeakMap();
  let next = 100000 + Math.floor(Math.random() * (1e9 - 100000));
  bb.refFor = (el) => {
    let id = ids.get(el);
    if (!id) {
      id = "e" + next++;
      ids.set(el, id);
      refs.set(id, new WeakRef(el));
    }
    return id;
  };
  // byRef returns the live element of a ref, or null when it is gone.
  bb.byRef = (ref) => {
    const w = refs.get(String(ref));
    const el = w && w.deref();
    if (!el || !bb.isConnected(el)) return null;
    return el;
  };

  const children = getter(Element.prototype, "children");
  // cssPath builds a selector that finds el again from its root (document
  // or shadow root): an id when unique, else tag:nth-of-type steps.
  bb.cssPath = (el) => {
    const parts = [];
    let n = el;
    while (n && bb.nodeType(n) === 1) {
      const root = bb.rootNode(n);
      const id = bb.attr(n, "id");
      if (id && (root instanceof Document || root instanceof DocumentFragment) && bb.qsa(root, "#" + CSS.escape(id)).length === 1) {
        parts.unshift("#" + CSS.escape(id));
        break;
      }
      const tag = bb.tag(n);
      let step = tag;
      const parent = parentElement(n);
      if (parent) {
        const same = Array.from(children(parent)).filter((c) => bb.tag(c) === tag);
        if (same.length > 1) step += `:nth-of-type(${same.indexOf(n) + 1})`;
      }
      parts.unshift(step);
      n = parent;
    }
    return parts.join(" > ");
  };
})();
