// inspect: lists the interactive elements of one frame (links, buttons,
// form controls, contenteditables, elements with ARIA widget roles, click
// handlers or a pointer cursor), each with a ref that later actions accept
// (refs are per frame: the daemon reports frameId with each). Runs in every
// frame; each frame also says where its child frames sit, so the daemon can
// place their rects in the top frame's viewport.
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.inspect) return;
  bb.loaded.inspect = true;

  const WIDGET_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem",
    "menuitemcheckbox", "menuitemradio", "option", "combobox", "textbox", "searchbox", "slider",
    "spinbutton", "treeitem", "listbox", "gridcell", "scrollbar"]);
  const CONTROLS = new Set(["button", "input", "select", "textarea", "summary"]);

  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);

  const frameIdOf = (el) => {
    try {
      if (chrome.runtime && typeof chrome.runtime.getFrameId === "function") {
        const id = chrome.runtime.getFrameId(el);
        if (Number.isInteger(id)) return id;
      }
    } catch (_) { /* not ready */ }
    return -1;
  };

  // interactive says why el is interactive, or "" when it is not. The
  // isolated world cannot see listeners added by page scripts
  // (addEventListener, el.onclick = …); an onclick attribute, a focusable
  // tabindex, or the top of a pointer-cursor area stand in for them.
  const parentElement = Object.getOwnPropertyDescriptor(Node.prototype, "parentElement").get;
  const interactive = (el, tag, style) => {
    if ((tag === "a" || tag === "area") && bb.hasAttr(el, "href")) return "link";
    if (CONTROLS.has(tag)) return tag === "input" && (bb.attr(el, "type") || "").toLowerCase() === "hidden" ? "" : "control";
    const ce = bb.attr(el, "contenteditable");
    if (ce !== null && ce !== "false" && bb.editable(el)) return "editable";
    const role = (bb.attr(el, "role") || "").trim().split(/\s+/)[0].toLowerCase();
    if (WIDGET_ROLES.has(role)) return "role";
    if (bb.hasAttr(el, "onclick")) return "handler";
    const ti = bb.attr(el, "tabindex");
    if (ti !== null && parseInt(ti, 10) >= 0) return "focusable";
    if (style && style.cursor === "pointer") {
      const p = parentElement.call(el);
      if (!p || getComputedStyle(p).cursor !== "pointer") return "pointer";
    }
    return "";
  };

  const enabled = (el) => {
    if (el.disabled === true) return false;
    if (bb.closest(el, "[aria-disabled=true], [inert]")) return false;
    if (bb.matches(el, "fieldset:disabled *")) return false;
    return true;
  };

  bb.inspect = (args) => {
    const max = (args && args.max) || 2000;
    const out = [];
    const frames = [];
    let total = 0;
    const vw = window.innerWidth, vh = window.innerHeight;
    for (const el of bb.elements(bb.root())) {
      // One element the page made odd (a <form> whose controls shadow its
      // methods by name) must not cost the whole frame's answer.
      try {
        const item = inspectOne(el);
        if (!item) continue;
        total++;
        if (out.length < max) out.push(item());
      } catch (_) { /* skip this element */ }
    }
    return { url: location.href, title: bb.title(), elements: out, total, frames, viewport: { width: vw, height: vh } };

    // inspectOne returns nothing for an element that is not listed, else a
    // function that describes it (called only while within max).
    function inspectOne(el) {
      const tag = bb.tag(el);
      if (tag === "iframe" || tag === "frame") {
        const r = bb.rect(el);
        const cs = getComputedStyle(el);
        // The frame's viewport starts inside the element's border and padding.
        // Chrome has no runtime.getFrameId for content scripts (-1 then):
        // the daemon matches frames by src and by content size, which the
        // child reports as its viewport.
        const bl = parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
        const bt = parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop);
        frames.push({
          frameId: frameIdOf(el),
          src: String(el.src || ""),
          x: r.x + bl,
          y: r.y + bt,
          width: Math.round(r.width - bl - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight)),
          height: Math.round(r.height - bt - parseFloat(cs.borderBottomWidth) - parseFloat(cs.paddingBottom)),
          visible: bb.isVisible(el),
        });
        return null;
      }
      if (tag === "script" || tag === "style" || tag === "head") return null;
      const style = getComputedStyle(el);
      if (style.display === "none") return null;
      const why = interactive(el, tag, style);
      if (!why) return null;
      const visible = bb.isVisible(el);
      // Hidden elements are left out, except form controls whose visible
      // label stands in for them (custom checkboxes hide the real input).
      if (!visible && !(CONTROLS.has(tag) && bb.labelText(el))) return null;
      return () => describe(el, tag, why, visible);
    }
  };

  // describe is what the daemon gets for one listed element.
  function describe(el, tag, why, visible) {
    const vw = window.innerWidth, vh = window.innerHeight;
    const r = bb.rect(el);
    const item = {
      tag,
      role: bb.role(el),
      name: cut(bb.accessibleName(el), 120),
      ref: bb.refFor(el),
      selector: bb.cssPath(el),
      rect: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) },
      visible,
      inViewport: visible && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw,
      enabled: enabled(el),
    };
    const label = CONTROLS.has(tag) ? bb.labelText(el) : "";
    if (label) item.label = cut(label, 120);
    const ph = bb.attr(el, "placeholder");
    if (ph) item.placeholder = cut(bb.norm(ph), 120);
    if (tag === "input") item.type = (bb.attr(el, "type") || "text").toLowerCase();
    if (tag === "input" && (item.type === "checkbox" || item.type === "radio")) item.checked = !!el.checked;
    if (tag === "a" && el.href) item.href = cut(String(el.href), 500);
    if (why === "editable") item.editable = true;
    // Text, but never of a form field's value: a password or card field
    // must not leak, and other values are the user's typing.
    if (!CONTROLS.has(tag) || tag === "button" || tag === "summary") {
      const t = bb.visibleText(el);
      if (t && t !== item.name) item.text = cut(t, 80);
    }
    return item;
  }
})();
