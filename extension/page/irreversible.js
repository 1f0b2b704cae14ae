// What acting on an element would do that cannot be taken back, for the
// "ask before irreversible steps" mode (internal/actions/ask.go): whether
// a click, or Enter or Space, on it submits a form, which label it has
// (the daemon looks for payment words in it: Pay, Buy, Place order, …),
// and where a link on it goes (the daemon compares the site with the
// tab's). This script only reports facts about the page; the daemon
// decides (internal/actions/irreversible.go), so that the decision is
// tested without a browser.
//
// Three ways to name the element:
//   - irreversible({ref, how}): an element located before (page/locate.js).
//   - irreversibleAt({x, y, how}): the element at a viewport point of the
//     top frame, through shadow roots and same-origin frames.
//   - irreversible({how}) without ref: the focused element, where key
//     presses without a locator go.
// how is "click", "enter" or "space".
//
// The answer: {found, tag, type, role, label, submits, form: {action,
// method, target}, href, target, download, opaque, frameUrl, url}. opaque
// says the point or the focus is in a frame of another origin, which this
// script cannot look into.
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.irreversible) return;
  bb.loaded.irreversible = true;

  // Pristine getters (see dom.js): <input name="action"> shadows
  // form.action, <input name="method"> form.method.
  const getter = (proto, name) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    return d && d.get ? (o) => d.get.call(o) : () => undefined;
  };
  const buttonForm = getter(HTMLButtonElement.prototype, "form");
  const buttonType = getter(HTMLButtonElement.prototype, "type");
  const buttonDisabled = getter(HTMLButtonElement.prototype, "disabled");
  const inputForm = getter(HTMLInputElement.prototype, "form");
  const inputType = getter(HTMLInputElement.prototype, "type");
  const inputDisabled = getter(HTMLInputElement.prototype, "disabled");
  const inputValue = getter(HTMLInputElement.prototype, "value");
  const formAction = getter(HTMLFormElement.prototype, "action");
  const formMethod = getter(HTMLFormElement.prototype, "method");
  const formTarget = getter(HTMLFormElement.prototype, "target");
  const formElements = getter(HTMLFormElement.prototype, "elements");
  const anchorHref = getter(HTMLAnchorElement.prototype, "href");
  const areaHref = getter(HTMLAreaElement.prototype, "href");
  const labelControl = getter(HTMLLabelElement.prototype, "control");
  const iframeDocument = getter(HTMLIFrameElement.prototype, "contentDocument");
  const frameDocument = getter(HTMLFrameElement.prototype, "contentDocument");
  const activeElement = getter(Document.prototype, "activeElement");
  const rootActive = getter(ShadowRoot.prototype, "activeElement");
  const docURL = getter(Document.prototype, "URL");

  // The elements a click acts through: what takes the activation when the
  // element clicked is inside it (a <span> in a <button>, an <img> in a
  // link).
  const ACTIVATES = "button, input, a[href], area[href], label, summary, select, textarea, [role=button], [role=link], [role=menuitem], [role=tab], [role=option], [role=checkbox], [role=radio], [role=switch]";

  // Input types Enter in which submits the form implicitly (HTML's
  // "fields that block implicit submission", and the checkable ones,
  // where Chrome submits too).
  const BLOCKING = new Set(["text", "search", "url", "tel", "email", "password", "date", "month", "week", "time", "datetime-local", "number"]);
  const NO_IMPLICIT = new Set(["button", "reset", "submit", "image", "file", "hidden", "color", "range"]);

  const parentOf = (el) => {
    const p = bb.parentNode(el);
    if (p && bb.nodeType(p) === 1) return p;
    if (p && bb.nodeType(p) === 11 && p.host) return p.host; // a shadow root
    return null;
  };

  // closest is Element.closest across shadow roots.
  const closest = (el, selector) => {
    for (let e = el; e; e = parentOf(e)) {
      try {
        if (bb.matches(e, selector)) return e;
      } catch (_) {
        return null;
      }
    }
    return null;
  };

  // By tag, not instanceof: an element of a same-origin child frame
  // (irreversibleAt, deepActive) belongs to that frame's realm, where
  // this realm's classes do not match it. The prototypes' getters work
  // on it all the same.
  const tagIs = (e, t) => !!e && bb.nodeType(e) === 1 && bb.tag(e) === t;
  const isButton = (e) => tagIs(e, "button");
  const isInput = (e) => tagIs(e, "input");

  // submitterForm is the form a click on e submits, or null: a submit
  // button or image input that has a form and is not disabled.
  const submitterForm = (e) => {
    if (isButton(e)) return buttonType(e) === "submit" && !buttonDisabled(e) ? buttonForm(e) : null;
    if (isInput(e)) {
      const t = inputType(e);
      return (t === "submit" || t === "image") && !inputDisabled(e) ? inputForm(e) : null;
    }
    return null;
  };

  const attr = (e, name) => (e && bb.hasAttr(e, name) ? String(bb.attr(e, name) ?? "") : "");

  // formFacts is where a submission of form by submitter goes. A form of
  // method "dialog" closes its dialog and sends nothing.
  const formFacts = (form, submitter) => {
    let action = formAction(form);
    if (submitter && bb.hasAttr(submitter, "formaction")) {
      try {
        action = new URL(attr(submitter, "formaction"), bb.baseURI()).href;
      } catch (_) { /* keep the form's */ }
    }
    let method = String(formMethod(form) || "get");
    const fm = attr(submitter, "formmethod").toLowerCase();
    if (fm === "get" || fm === "post" || fm === "dialog") method = fm;
    const target = attr(submitter, "formtarget") || String(formTarget(form) || "");
    return { action: String(action || ""), method, target };
  };

  const labelOf = (e) => {
    let s = "";
    try {
      s = bb.accessibleName(e) || bb.visibleText(e);
    } catch (_) { /* an odd element: no label */ }
    if (!s && isInput(e)) s = String(inputValue(e) || "");
    return bb.norm(s).slice(0, 200);
  };

  const linkHref = (e) => {
    if (tagIs(e, "a")) return String(safe(() => anchorHref(e)) || "");
    if (tagIs(e, "area")) return String(safe(() => areaHref(e)) || "");
    return "";
  };

  const base = (e) => ({
    found: true,
    tag: bb.tag(e),
    type: isInput(e) ? inputType(e) : isButton(e) ? buttonType(e) : "",
    role: safe(() => bb.role(e)) || "",
    label: "",
    submits: false,
    url: String(docURL(e.ownerDocument || document)),
  });

  const safe = (f) => {
    try {
      return f();
    } catch (_) {
      return undefined;
    }
  };

  // clickFacts: what a click on el does.
  function clickFacts(el) {
    let act = closest(el, ACTIVATES) || el;
    // A label passes its click to its control.
    if (tagIs(act, "label")) act = labelControl(act) || act;
    const out = base(act);
    out.label = labelOf(act);
    const form = submitterForm(act);
    if (form) {
      out.form = formFacts(form, act);
      out.submits = out.form.method !== "dialog";
    }
    const link = closest(el, "a[href], area[href]");
    if (link) {
      out.href = linkHref(link);
      out.target = attr(link, "target");
      out.download = bb.hasAttr(link, "download");
      if (!out.label) out.label = labelOf(link);
    }
    return out;
  }

  // defaultButton is the form's first submit button in tree order, the
  // one Enter in a field presses.
  const defaultButton = (form) => {
    for (const e of Array.from(formElements(form) || [])) {
      if ((isButton(e) && buttonType(e) === "submit") || (isInput(e) && (inputType(e) === "submit" || inputType(e) === "image"))) return e;
    }
    return null;
  };

  // enterFacts: what Enter on el does. Buttons and links take it as a
  // click; a field of a form submits the form (through its default
  // button, or alone when it is the form's only text field).
  function enterFacts(el) {
    const act = closest(el, "button, a[href], area[href], [role=button], [role=link], summary");
    if (act && (act === el || !isInput(el))) return clickFacts(act);
    const out = base(el);
    out.label = labelOf(el);
    if (!isInput(el) || NO_IMPLICIT.has(inputType(el))) {
      if (isInput(el) && (inputType(el) === "submit" || inputType(el) === "image")) return clickFacts(el);
      return out;
    }
    const form = inputForm(el);
    if (!form) return out;
    const button = defaultButton(form);
    if (button) {
      if (submitterForm(button)) {
        out.form = formFacts(form, button);
        out.submits = out.form.method !== "dialog";
        out.label = labelOf(button) || out.label;
      }
      return out;
    }
    let blocking = 0;
    for (const e of Array.from(formElements(form) || [])) if (isInput(e) && BLOCKING.has(inputType(e))) blocking++;
    if (blocking <= 1) {
      out.form = formFacts(form, null);
      out.submits = out.form.method !== "dialog";
    }
    return out;
  }

  // spaceFacts: Space presses a focused button; elsewhere it types or
  // scrolls.
  function spaceFacts(el) {
    const act = closest(el, "button, [role=button], summary");
    if (act || (isInput(el) && ["submit", "image", "button", "reset", "checkbox", "radio"].includes(inputType(el)))) return clickFacts(act || el);
    return { ...base(el), label: labelOf(el) };
  }

  const factsOf = (el, how) => {
    if (!el) return { found: false };
    if (how === "enter") return enterFacts(el);
    if (how === "space") return spaceFacts(el);
    return clickFacts(el);
  };

  const contentDocument = (f) => safe(() => (tagIs(f, "iframe") ? iframeDocument(f) : frameDocument(f))) || null;
  const isFrame = (e) => tagIs(e, "iframe") || tagIs(e, "frame");
  const opaque = (f) => ({ found: true, opaque: true, tag: bb.tag(f), frameUrl: attr(f, "src"), url: String(docURL(document)) });

  // deepActive is the focused element, inside shadow roots and
  // same-origin frames.
  function deepActive(doc) {
    let a = activeElement(doc);
    for (;;) {
      if (!a) return { el: null };
      const root = bb.shadowRoot(a);
      const inner = root && rootActive(root);
      if (inner) {
        a = inner;
        continue;
      }
      if (isFrame(a)) {
        const d = contentDocument(a);
        if (!d) return { frame: a };
        a = activeElement(d);
        if (!a || a === d.body) return { el: null };
        continue;
      }
      return { el: a };
    }
  }

  bb.irreversible = (a) => {
    const how = a.how || "click";
    if (a.ref) {
      const el = bb.byRef(a.ref);
      if (!el) throw Object.assign(new Error("the element is gone from the page; locate it again"), { code: "element_not_found" });
      return factsOf(el, how);
    }
    const got = deepActive(document);
    if (got.frame) return opaque(got.frame);
    if (!got.el || got.el === bb.body()) return { found: false, url: String(docURL(document)) };
    return factsOf(got.el, how);
  };

  bb.irreversibleAt = (a) => {
    let doc = document;
    let x = a.x, y = a.y;
    for (let depth = 0; depth < 10; depth++) {
      let hit = safe(() => bb.elementFromPoint(doc, x, y));
      for (let root; hit && (root = bb.shadowRoot(hit));) {
        const inner = safe(() => root.elementFromPoint(x, y));
        if (!inner || inner === hit) break;
        hit = inner;
      }
      if (!hit) return { found: false, url: String(docURL(doc)) };
      if (!isFrame(hit)) return factsOf(hit, a.how || "click");
      const d = contentDocument(hit);
      if (!d) return opaque(hit);
      const r = bb.rect(hit);
      x -= r.left + hit.clientLeft;
      y -= r.top + hit.clientTop;
      doc = d;
    }
    return { found: false, url: String(docURL(doc)) };
  };
})();
