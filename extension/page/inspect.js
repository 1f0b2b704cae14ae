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
    const unique = uniqueness();
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
      // A code editor's input (an EditContext element, a zero-sized
      // textarea) is where typing goes: listed as the editor, with the
      // editor's box.
      const editor = editorInput(el, tag);
      if (editor) return () => describe(el, tag, "editable", bb.isVisible(editor.root), editor);
      const style = getComputedStyle(el);
      if (style.display === "none") return null;
      const why = interactive(el, tag, style);
      if (!why) return null;
      const visible = bb.isVisible(el) && perceivable(el, tag, style);
      // Hidden elements are left out, except form controls whose visible
      // label stands in for them (custom checkboxes hide the real input).
      if (!visible && !(CONTROLS.has(tag) && bb.labelText(el))) return null;
      return () => describe(el, tag, why, visible, null);
    }

    // describe is what the daemon gets for one listed element: only what
    // tells it apart (a label or placeholder equal to the name, an input's
    // default type, the role its tag has anyway, visible and enabled when
    // true are left out), a short selector (none when no short one finds
    // it), the rect as [x, y, width, height].
    function describe(el, tag, why, visible, editor) {
      const r = editor ? bb.rect(editor.root) : bb.rect(el);
      const role = editor ? "textbox" : bb.role(el);
      const name = cut(editor ? bb.accessibleName(el) || editor.spec.name + " editor" : nameFor(el, tag, role), 80);
      const item = { ref: bb.refFor(el), tag };
      if (role && role !== implicitRole(el, tag)) item.role = role;
      if (name) item.name = name;
      const label = CONTROLS.has(tag) ? bb.labelText(el) : "";
      if (label && label !== name) item.label = cut(label, 80);
      const ph = bb.norm(bb.attr(el, "placeholder"));
      if (ph && ph !== name) item.placeholder = cut(ph, 80);
      if (tag === "input") {
        const type = (bb.attr(el, "type") || "text").toLowerCase();
        if (type !== "text") item.type = type;
        if (type === "checkbox" || type === "radio") item.checked = !!el.checked;
      }
      if (tag === "a" && el.href) item.href = shortHref(String(el.href));
      if (why === "editable") item.editable = true;
      if (editor) item.editor = editor.spec.name;
      // Text, but never of a form field's value: a password or card field
      // must not leak, and other values are the user's typing.
      if (!editor && (!CONTROLS.has(tag) || tag === "button" || tag === "summary")) {
        const t = bb.visibleText(el);
        if (t && t !== name && !name.includes(t)) item.text = cut(t, 60);
      }
      const sel = unique.selector(el, tag);
      if (sel) item.selector = sel;
      // A selector by the link's href says where it goes already.
      if (item.href && sel && sel.startsWith("a[href=")) delete item.href;
      item.rect = [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
      if (!visible) item.visible = false;
      if (!enabled(el)) item.enabled = false;
      return item;
    }
  };

  // implicitRole is the role el has by its tag alone (a link, a button, a
  // text field…): inspect names a role only when it says more than the
  // tag.
  const IMPLICIT = { a: "link", button: "button", select: "combobox", textarea: "textbox", summary: "button" };
  const INPUT_ROLES = { text: "textbox", email: "textbox", tel: "textbox", url: "textbox", password: "textbox",
    search: "searchbox", checkbox: "checkbox", radio: "radio", number: "spinbutton", range: "slider",
    button: "button", submit: "button", reset: "button", image: "button" };
  const implicitRole = (el, tag) => {
    if (bb.attr(el, "role")) return "";
    if (tag === "input") return bb.hasAttr(el, "list") ? "" : INPUT_ROLES[(bb.attr(el, "type") || "text").toLowerCase()] || "";
    if (tag === "select") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    return IMPLICIT[tag] || tag;
  };

  // editorInput says whether el is the input of a code editor: an
  // EditContext element, or the input element of an editor page/dom.js
  // knows (Monaco's zero-width EditContext element or 1-pixel textarea,
  // CodeMirror's contenteditable). It returns the editor, or null.
  const editorInput = (el, tag) => {
    if (!el.editContext && tag !== "textarea" && !bb.editable(el)) return null;
    const ed = bb.editorAround(el);
    if (ed && ed.input === el) return ed;
    if (el.editContext) return { spec: { name: "editcontext" }, root: bb.rect(el).width > 1 ? el : bb.parentNode(el) || el };
    return null;
  };

  // perceivable: a person can see the element — not a speck (1 pixel),
  // not clipped away, and, for a <select> that a custom widget stands in
  // front of, not covered at its middle by something else. (isVisible
  // says it is rendered at all.)
  const perceivable = (el, tag, style) => {
    const r = bb.rect(el);
    if (r.width <= 1 || r.height <= 1) return false;
    if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") return false;
    if (tag === "select") {
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight) {
        const hit = bb.elementFromPoint(bb.rootNode(el), x, y);
        if (hit && hit !== el && !bb.contains(el, hit) && bb.tag(hit) !== "label") return false;
      }
    }
    return true;
  };

  // nameFor is the accessible name, but for a combobox or listbox (a
  // native <select> too) without the options its popup holds: the text of
  // a label or of the element itself counts only where it is shown, and
  // never an option's.
  const PICKER_ROLES = new Set(["combobox", "listbox"]);
  const nameFor = (el, tag, role) => {
    if (!PICKER_ROLES.has(role) && tag !== "select") return bb.accessibleName(el);
    const aria = bb.norm(bb.attr(el, "aria-label"));
    if (aria) return aria;
    const by = bb.attr(el, "aria-labelledby");
    if (by) {
      const t = by.split(/\s+/).map((id) => bb.byId(el, id)).filter(Boolean).map((n) => shownText(n, el)).join(" ");
      if (bb.norm(t)) return bb.norm(t);
    }
    let labels = [];
    try {
      labels = el.labels ? Array.from(el.labels) : [];
    } catch (_) { /* not labelable */ }
    const l = bb.norm(labels.map((x) => shownText(x, el)).join(" "));
    if (l) return l;
    if (tag !== "select" && tag !== "input") {
      const own = bb.norm(shownText(el, null));
      if (own) return own;
    }
    return bb.norm(bb.attr(el, "title") || bb.attr(el, "placeholder") || "");
  };

  // shownText is the text under node that is shown, leaving out options,
  // listboxes, form controls and the subtree of skip.
  const NOT_NAME = new Set(["option", "optgroup", "datalist", "select", "input", "textarea", "button", "script", "style", "template"]);
  const shownText = (node, skip) => {
    let s = "";
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      const t = bb.nodeType(n);
      if (t === 3) {
        s += n.data + " ";
        continue;
      }
      if (t !== 1) continue;
      if (n !== node) {
        if (n === skip || NOT_NAME.has(bb.tag(n))) continue;
        const role = (bb.attr(n, "role") || "").toLowerCase();
        if (role === "listbox" || role === "option" || bb.attr(n, "aria-hidden") === "true") continue;
        const cs = getComputedStyle(n);
        if (cs.display === "none" || cs.visibility === "hidden") continue;
      }
      const kids = bb.childNodes(n);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return bb.norm(s);
  };

  // shortHref is where a link goes, briefly (extract's links have the
  // exact URLs): the path on this origin, the host and path elsewhere,
  // cut at 32 characters.
  const shortHref = (href) => {
    let h = href;
    try {
      const u = new URL(href);
      if (u.origin === location.origin && u.origin !== "null") h = u.pathname + u.search + u.hash;
      else if (/^https?:$/.test(u.protocol)) h = "//" + u.host + u.pathname + u.search;
    } catch (_) { /* keep it */ }
    return cut(h, 32);
  };

  // uniqueness builds short selectors that find one element from its root
  // (the document or its shadow root), counting each candidate once.
  // A selector names an element by what it is (an id, a test id, a name,
  // a label, a class) up to MAX_SELECTOR characters; one that counts
  // places among siblings (:nth-of-type) breaks as soon as the page adds a
  // row, and is given only while short (the ref names the element anyway).
  const MAX_SELECTOR = 60;
  const MAX_POSITIONAL = 30;
  const fits = (sel) => sel.length <= (sel.includes(":nth-of-type(") ? MAX_POSITIONAL : MAX_SELECTOR);
  const uniqueness = () => {
    const counts = new Map(); // root -> Map(selector -> count)
    const count = (root, sel) => {
      let m = counts.get(root);
      if (!m) counts.set(root, (m = new Map()));
      if (!m.has(sel)) {
        let n = 0;
        try { n = bb.qsa(root, sel).length; } catch (_) { n = -1; }
        m.set(sel, n);
      }
      return m.get(sel);
    };
    // Values in single quotes: the selector travels in JSON, where double
    // quotes cost an escape each.
    const q = (v) => "'" + v + "'";
    const simple = (v) => typeof v === "string" && v.length > 0 && v.length <= 40 && !/[\n"'\\]/.test(v);
    const candidates = function* (el, tag) {
      const id = bb.attr(el, "id");
      if (id && id.length <= 40) yield "#" + CSS.escape(id);
      for (const a of ["data-testid", "data-test", "data-qa", "data-cy"]) {
        const v = bb.attr(el, a);
        if (simple(v)) yield `[${a}=${q(v)}]`;
      }
      const name = bb.attr(el, "name");
      if (simple(name) && CONTROLS.has(tag)) yield `${tag}[name=${q(name)}]`;
      const label = bb.attr(el, "aria-label");
      if (simple(label)) yield `${tag}[aria-label=${q(label)}]`;
      const ph = bb.attr(el, "placeholder");
      if (simple(ph)) yield `${tag}[placeholder=${q(ph)}]`;
      const cls = (bb.attr(el, "class") || "").split(/\s+/).filter((c) => c && c.length <= 30 && /^[A-Za-z_-][\w-]*$/.test(c));
      for (const c of cls.slice(0, 4)) yield "." + c;
      for (const c of cls.slice(0, 4)) yield `${tag}.${c}`;
      const href = tag === "a" ? bb.attr(el, "href") : null;
      if (simple(href) && href.length <= 30) yield `a[href=${q(href)}]`;
    };
    // step is el's part of a path: its tag, with :nth-of-type when a
    // sibling has the same tag.
    const step = (n) => {
      const tag = bb.tag(n);
      const parent = bb.parentNode(n);
      if (!parent || bb.nodeType(parent) !== 1) return tag;
      let same = 0, index = 0;
      for (const c of bb.childNodes(parent)) {
        if (bb.nodeType(c) === 1 && bb.tag(c) === tag) {
          same++;
          if (c === n) index = same;
        }
      }
      return same > 1 ? `${tag}:nth-of-type(${index})` : tag;
    };
    return {
      selector(el, tag) {
        const root = bb.rootNode(el);
        if (!(root instanceof Document || root instanceof DocumentFragment)) return "";
        const own = [];
        for (const c of candidates(el, tag)) {
          if (count(root, c) === 1) return c;
          own.push(c);
        }
        // Within an ancestor that something names (its id, its place
        // among its siblings): "tr:nth-of-type(8) a".
        own.push(step(el));
        let n = bb.parentNode(el);
        for (let up = 0; up < 6 && n && bb.nodeType(n) === 1; up++, n = bb.parentNode(n)) {
          const outer = [];
          for (const c of candidates(n, bb.tag(n))) outer.push(c);
          outer.push(step(n));
          for (const o of outer) {
            for (const c of own) {
              const sel = o + " " + c;
              if (fits(sel) && count(root, sel) === 1) return sel;
            }
          }
        }
        // A path from the nearest ancestor that has a short selector of
        // its own, else from the root, while it stays short.
        const parts = [step(el)];
        for (let n = bb.parentNode(el); n && bb.nodeType(n) === 1; n = bb.parentNode(n)) {
          let anchor = "";
          for (const c of candidates(n, bb.tag(n))) if (count(root, c) === 1) { anchor = c; break; }
          const sel = (anchor ? anchor + " > " : "") + parts.join(" > ");
          if (!fits(sel)) return "";
          if (anchor || count(root, sel) === 1) return count(root, sel) === 1 ? sel : "";
          parts.unshift(step(n));
        }
        const sel = parts.join(" > ");
        return fits(sel) && count(root, sel) === 1 ? sel : "";
      },
    };
  };
})();
