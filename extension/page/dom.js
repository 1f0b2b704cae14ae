// Shared page-side helpers: visibility, roles, accessible names, a walk that
// pierces shadow roots, and element refs. Injected before every other page
// script into the extension's isolated world, where globalThis.__bb lives
// for the life of the document. Page content is untrusted: nothing here
// evaluates page-provided code.
(() => {
  const bb = (globalThis.__bb = globalThis.__bb || { loaded: {} });
  if (bb.loaded.dom) return;
  bb.loaded.dom = true;

  // norm collapses whitespace, as locators compare text.
  bb.norm = (s) => String(s || "").replace(/\s+/g, " ").trim();

  // shadowRoot returns an element's shadow root, open or closed: the
  // isolated world may read closed roots through chrome.dom.
  bb.shadowRoot = (el) => {
    if (el.shadowRoot) return el.shadowRoot;
    try {
      return (chrome.dom && chrome.dom.openOrClosedShadowRoot && chrome.dom.openOrClosedShadowRoot(el)) || null;
    } catch (_) {
      return null;
    }
  };

  // childNodes of a node as rendered: an element with a shadow root shows
  // the root's content (slots bring in the light DOM children assigned).
  bb.renderedChildren = (node) => {
    if (node.nodeType === 1) {
      if (node.localName === "slot") {
        const assigned = node.assignedNodes({ flatten: true });
        if (assigned.length) return assigned;
      }
      const root = bb.shadowRoot(node);
      if (root) return Array.from(root.childNodes);
    }
    return Array.from(node.childNodes);
  };

  // elements yields every element under root in rendered order, piercing
  // shadow roots (open and closed).
  bb.elements = function* (root) {
    const stack = [root || document.documentElement];
    while (stack.length) {
      const n = stack.pop();
      if (!n) continue;
      if (n.nodeType === 1) yield n;
      const kids = bb.renderedChildren(n);
      for (let i = kids.length - 1; i >= 0; i--) if (kids[i].nodeType === 1 || kids[i].nodeType === 11) stack.push(kids[i]);
    }
  };

  // deepQueryAll is querySelectorAll that also searches every shadow root.
  bb.deepQueryAll = (selector, root) => {
    const out = [];
    const seen = new Set();
    const visit = (r) => {
      for (const el of r.querySelectorAll(selector)) if (!seen.has(el)) { seen.add(el); out.push(el); }
      for (const el of r.querySelectorAll("*")) {
        const sr = bb.shadowRoot(el);
        if (sr) visit(sr);
      }
    };
    visit(root || document);
    return out;
  };

  // isVisible: rendered with a size, not hidden by CSS or aria-hidden, not
  // fully transparent, and not clipped entirely out of the page.
  bb.isVisible = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.closest && el.closest("[aria-hidden=true]")) return false;
    const style = getComputedStyle(el);
    if (style.display === "contents") {
      // No box of its own (checkVisibility says false): visible when its
      // parent is and its content has a size.
      const range = document.createRange();
      range.selectNodeContents(el);
      const rr = range.getBoundingClientRect();
      return rr.width > 0 && rr.height > 0 && (!el.parentElement || bb.isVisible(el.parentElement));
    }
    if (typeof el.checkVisibility === "function" &&
        !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
    if (style.display === "none" || style.visibility === "hidden" || style.visibility === "collapse") return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    const doc = el.ownerDocument.documentElement;
    if (r.right <= -doc.scrollLeft - 1 || r.bottom <= -doc.scrollTop - 1) return false; // off-screen
    return true;
  };

  // rectOf is the element's box; an element with display: contents has
  // none, so the box of its content stands in.
  bb.rectOf = (el) => {
    if (getComputedStyle(el).display === "contents") {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect();
    }
    return el.getBoundingClientRect();
  };

  const implicitRoles = {
    a: (el) => (el.hasAttribute("href") ? "link" : ""),
    area: (el) => (el.hasAttribute("href") ? "link" : ""),
    article: () => "article", aside: () => "complementary", button: () => "button",
    dialog: () => "dialog", footer: () => "contentinfo", form: () => "form",
    h1: () => "heading", h2: () => "heading", h3: () => "heading",
    h4: () => "heading", h5: () => "heading", h6: () => "heading",
    header: () => "banner", hr: () => "separator", img: (el) => (el.getAttribute("alt") === "" ? "presentation" : "img"),
    li: () => "listitem", main: () => "main", nav: () => "navigation", ol: () => "list",
    option: () => "option", progress: () => "progressbar", section: () => "region",
    select: (el) => (el.multiple || el.size > 1 ? "listbox" : "combobox"),
    summary: () => "button", table: () => "table", tbody: () => "rowgroup", td: () => "cell",
    textarea: () => "textbox", th: () => "columnheader", tr: () => "row", ul: () => "list",
    input: (el) => {
      const t = (el.getAttribute("type") || "text").toLowerCase();
      if (t === "checkbox") return "checkbox";
      if (t === "radio") return "radio";
      if (t === "range") return "slider";
      if (t === "number") return "spinbutton";
      if (t === "search") return el.hasAttribute("list") ? "combobox" : "searchbox";
      if (["button", "submit", "reset", "image"].includes(t)) return "button";
      if (t === "hidden") return "";
      return el.hasAttribute("list") ? "combobox" : "textbox";
    },
  };

  // role: the explicit ARIA role, else the implicit one of the tag.
  bb.role = (el) => {
    const explicit = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
    if (explicit) return explicit.toLowerCase();
    if (el.isContentEditable && el.getAttribute("contenteditable") !== null) return "textbox";
    const f = implicitRoles[el.localName];
    return f ? f(el) : "";
  };

  // visibleText of an element: its rendered text, whitespace-normalised.
  bb.visibleText = (el) => bb.norm(el.innerText !== undefined ? el.innerText : el.textContent);

  const isControl = (el) => ["input", "select", "textarea", "button"].includes(el.localName);

  // labelText is the text of the labels of a control, without the text of
  // the control itself (a wrapping label contains it).
  bb.labelText = (el) => {
    const parts = [];
    const labels = el.labels ? Array.from(el.labels) : [];
    for (const l of labels) {
      const clone = l.cloneNode(true);
      for (const c of clone.querySelectorAll("input,select,textarea,button")) c.remove();
      parts.push(bb.norm(clone.textContent));
    }
    const by = el.getAttribute("aria-labelledby");
    if (by && !labels.length) {
      for (const id of by.split(/\s+/)) {
        const t = el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : document.getElementById(id);
        if (t) parts.push(bb.norm(t.textContent));
      }
    }
    return bb.norm(parts.join(" "));
  };

  // accessibleName follows the common cases of the accname algorithm:
  // aria-labelledby, aria-label, labels, alt, value of buttons, text
  // content for roles named from content, then title and placeholder.
  bb.accessibleName = (el) => {
    const root = el.getRootNode();
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const t = by.split(/\s+/).map((id) => (root.getElementById ? root.getElementById(id) : document.getElementById(id)))
        .filter(Boolean).map((n) => bb.norm(n.textContent)).join(" ");
      if (bb.norm(t)) return bb.norm(t);
    }
    const aria = bb.norm(el.getAttribute("aria-label"));
    if (aria) return aria;
    if (isControl(el) && el.localName !== "button") {
      const t = (el.getAttribute("type") || "").toLowerCase();
      if (el.localName === "input" && ["button", "submit", "reset"].includes(t)) {
        return bb.norm(el.value || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : ""));
      }
      if (el.localName === "input" && t === "image") return bb.norm(el.alt || el.title);
      const l = bb.labelText(el);
      if (l) return l;
    }
    if (el.localName === "img" || el.localName === "area") {
      const alt = bb.norm(el.getAttribute("alt"));
      if (alt) return alt;
    }
    const role = bb.role(el);
    const fromContent = ["button", "link", "heading", "checkbox", "radio", "switch", "tab", "menuitem",
      "menuitemcheckbox", "menuitemradio", "option", "treeitem", "cell", "columnheader", "rowheader", "row", "tooltip"];
    if (fromContent.includes(role) || el.localName === "button" || el.localName === "summary") {
      let t = bb.visibleText(el);
      if (!t) {
        // An icon button named by its image.
        const img = el.querySelector("img[alt]");
        if (img) t = bb.norm(img.getAttribute("alt"));
      }
      if (t) return t;
    }
    return bb.norm(el.getAttribute("title") || el.getAttribute("placeholder") || "");
  };

  // isSensitive: password fields and payment-card fields, whose values the
  // bridge never reads.
  bb.isSensitive = (el) => {
    if (!el || el.localName !== "input") return false;
    if ((el.getAttribute("type") || "").toLowerCase() === "password") return true;
    const ac = (el.getAttribute("autocomplete") || "").toLowerCase();
    return /\bcc-(number|csc|exp|exp-month|exp-year|name|type)\b/.test(ac) ||
      /\b(card.?number|cardnum|cvc|cvv|csc)\b/i.test((el.name || "") + " " + (el.id || ""));
  };

  // Refs name elements for later calls: "e<N>", unique within the frame's
  // document for its life, held weakly so a removed element is gone.
  const refs = new Map();
  const ids = new WeakMap();
  let next = 1;
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
    if (!el || !el.isConnected) return null;
    return el;
  };

  // cssPath builds a selector that finds el again from its root (document
  // or shadow root): an id when unique, else tag:nth-of-type steps.
  bb.cssPath = (el) => {
    const parts = [];
    let n = el;
    while (n && n.nodeType === 1) {
      const root = n.getRootNode();
      if (n.id && root.querySelectorAll && root.querySelectorAll("#" + CSS.escape(n.id)).length === 1) {
        parts.unshift("#" + CSS.escape(n.id));
        break;
      }
      let step = n.localName;
      const parent = n.parentElement;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.localName === n.localName);
        if (same.length > 1) step += `:nth-of-type(${same.indexOf(n) + 1})`;
      }
      parts.unshift(step);
      n = parent;
    }
    return parts.join(" > ");
  };
})();
