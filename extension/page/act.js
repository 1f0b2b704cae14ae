//# allFunctionsCalledOnLoad
// (The line above is V8's compile hint: see handlers/readiness.js.)
// Injected DOM actions (docs/design.md#actions): select, check, scroll, focus/clear before
// typing, value read-back, the DOM-event click of inputMode "dom", and
// marking a file input for upload. Each works on an element named by a
// ref from page/locate.js and fires the events frameworks listen to.
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.act) return;
  bb.loaded.act = true;

  const fail = (code, message) => Object.assign(new Error(message), { code });
  const el = (a) => {
    const e = bb.byRef(a.ref);
    if (!e) throw fail("element_not_found", "the element is gone from the page; locate it again");
    return e;
  };
  const fire = (e, type) => e.dispatchEvent(new Event(type, { bubbles: true, composed: true }));

  // setNativeValue sets a form control's value the way a user edit does,
  // through the prototype's setter, so frameworks that track the value
  // (React) see the change when the input event fires.
  const setNativeValue = (e, v) => {
    const proto = Object.getPrototypeOf(e);
    const desc = Object.getOwnPropertyDescriptor(proto, "value");
    if (desc && desc.set) desc.set.call(e, v);
    else e.value = v;
  };

  // Input types that take typed text, and those whose value a person
  // sets through a picker or a slider (typing does not reach them; their
  // value is set as the picker sets it, in the control's value format).
  const TEXT_TYPES = new Set(["text", "search", "url", "tel", "email", "password", "number"]);
  const VALUE_FORMATS = {
    date: "YYYY-MM-DD, e.g. 2026-05-17",
    time: "HH:MM or HH:MM:SS (24 h), e.g. 14:30",
    month: "YYYY-MM, e.g. 2026-05",
    week: "YYYY-Www, e.g. 2026-W20",
    "datetime-local": "YYYY-MM-DDTHH:MM, e.g. 2026-05-17T14:30",
    color: "#rrggbb, e.g. #ff8800",
    range: "a number",
  };

  // hiddenInput: an input element drawn as nothing (zero-sized or
  // transparent) — how editors take keyboard input while they draw the
  // text themselves.
  const hiddenInput = (e) => {
    const r = bb.rect(e);
    if (r.width <= 1 || r.height <= 1) return true;
    return parseFloat(getComputedStyle(e).opacity) === 0;
  };

  // typingTarget is where typing into e goes, and how: "value" for the
  // controls whose value is set (date, color, range, …), "text" for text
  // fields, textareas and contenteditables, "editor" for a code editor's
  // input (an EditContext element, the input of a known editor, or a
  // hidden textarea inside a container), "none" for everything else.
  // Selects, buttons, checkboxes and file inputs have a value too, but
  // typing does not set it.
  const typingTarget = (e) => {
    const ed = bb.editorAround(e);
    if (ed) return { target: ed.input, kind: "editor", editor: ed.spec.name, root: ed.root };
    if (e.editContext) return { target: e, kind: "editor", editor: "editcontext", root: e };
    if (e.isContentEditable) return { target: e, kind: "text" };
    const tag = bb.tag(e);
    if (tag === "textarea") return { target: e, kind: hiddenInput(e) ? "editor" : "text", editor: "textarea", root: e.parentElement || e };
    // e.type, not the attribute: type="phone" is a text field.
    if (tag === "input" && TEXT_TYPES.has(e.type)) return { target: e, kind: "text" };
    if (tag === "input" && Object.hasOwn(VALUE_FORMATS, e.type)) return { target: e, kind: "value" };
    // A container of one editor input (a hidden textarea or an
    // EditContext element) stands for it.
    const inputs = Array.from(bb.qsa(e, "textarea, [contenteditable]:not([contenteditable=false])")).filter((x) => x.isContentEditable || hiddenInput(x));
    const ec = Array.from(bb.qsa(e, "div, span, section, article, main, pre")).filter((x) => x.editContext);
    const all = inputs.concat(ec);
    if (all.length === 1) {
      const t = all[0];
      return { target: t, kind: t.isContentEditable && !t.editContext ? "text" : "editor", editor: t.editContext ? "editcontext" : "textarea", root: e };
    }
    return { target: e, kind: "none" };
  };

  const disabled = (e) => e.disabled === true || e.readOnly === true || bb.closest(e, "[aria-disabled=true], [inert]") !== null ||
    bb.attr(e, "aria-readonly") === "true";

  // deepActive is the focused element of this document, inside shadow
  // roots too.
  const deepActive = () => {
    let a = document.activeElement;
    for (let sr = a && bb.shadowRoot(a); sr && sr.activeElement; sr = bb.shadowRoot(sr.activeElement)) a = sr.activeElement;
    return a;
  };
  // hasFocus: e (or an element inside it) is the focused element of its
  // document — and, in a child frame, the frame has the page's focus
  // (document.hasFocus; a frame keeps its focused element when the focus
  // leaves it). The top frame is not asked: a window the user is not
  // looking at has no system focus, yet typing reaches its page.
  const isTop = window === window.top;
  const hasFocus = (e) => {
    const a = deepActive();
    return !!a && (a === e || bb.contains(e, a)) && (isTop || document.hasFocus());
  };

  const caretToEnd = (e) => {
    if (e.isContentEditable) {
      const range = bb.range();
      range.selectNodeContents(e);
      range.collapse(false);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    } else if ("value" in e && typeof e.setSelectionRange === "function") {
      try { e.setSelectionRange(e.value.length, e.value.length); } catch (_) { /* not a text input */ }
    }
  };
  const selectContent = (e) => {
    if (typeof e.select === "function" && "value" in e) e.select();
    else if (e.isContentEditable) {
      const range = bb.range();
      range.selectNodeContents(e);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
  };
  const isEmpty = (e) => (e.isContentEditable ? !bb.textContent(e) : !("value" in e) || e.value === "");

  // prepareTyping readies e for typing: it finds where the typing goes
  // (typingTarget) and, unless that already has the focus, focuses it
  // through the DOM with the caret at the end; an element that already has
  // it is left as it is — its caret and a pending format (Control+B in a
  // rich-text editor) stay. A text field's content is selected when
  // selectAll (clear); an editor's is selected by the daemon with the
  // editor's own select-all key. end puts the caret of a text field that
  // has the focus at the end (after a click). It answers what the daemon needs
  // to go on: kind, the target's ref (to act on it again), whether it had
  // the focus and has it now, whether it is empty, the editor, and mac
  // (whose shortcuts use Meta).
  bb.prepareTyping = (a) => {
    const e = el(a);
    const t = typingTarget(e);
    const base = { kind: t.kind, editor: t.editor || "", mac: /Mac|iPhone|iPad/.test(navigator.platform) };
    if (t.kind === "none") return { ...base, tag: bb.tag(e), type: bb.tag(e) === "input" ? e.type : "" };
    const target = t.target;
    if (disabled(target)) return { ...base, kind: "none", disabled: true, tag: bb.tag(target) };
    const had = hasFocus(target);
    if (!had) {
      target.focus({ preventScroll: false });
      if (t.kind === "text" && !a.selectAll) caretToEnd(target);
    } else if (a.end && t.kind === "text" && !a.selectAll) {
      // After a click that gave the focus (a frame's field): the caret
      // the click put at its point goes to the end, as after focus().
      caretToEnd(target);
    }
    if (a.selectAll && t.kind === "text") selectContent(target);
    const out = { ...base, ref: bb.refFor(target), hadFocus: had, focused: hasFocus(target),
      empty: t.kind === "editor" ? editorValue(t).value === "" : isEmpty(target) };
    // A click puts the focus where focus() could not (another frame): on
    // the editor's text, not its zero-sized input.
    if (t.kind === "editor" && t.root) out.clickRef = bb.refFor(t.root);
    // With watch, the page's reaction to the input that comes next is
    // watched from here, counted from that input (see watch): what the
    // focus set off is not a reaction to the text.
    if (a.watch) bb.watch({ fromInput: true });
    if (a.check) {
      // As cdp.batch's check before the text is inserted (the daemon's
      // typeAtOnce): the text goes in only to a plain text field that
      // has the focus now, and the reaction look after it reads this
      // field (read: "@typing").
      out.ok = t.kind === "text" && out.focused;
      bb.typingRef = out.ref;
    }
    return out;
  };

  // locateToType is type's way in one round trip (the daemon's
  // typeInOneTrip), run as cdp.batch's check before Input.insertText: it
  // locates a.locate (page/locate.js) and readies the match for typing as
  // prepareTyping with check does — but only where the daemon would
  // choose the same element and go on the same way, and it touches
  // nothing otherwise ({ok: false, skip: why}). That is: a web page (the
  // daemon refuses file: pages the bridge may not read), the top frame
  // of a page without frames when every frame was to be searched (a
  // frame's match could be the one chosen), the element the daemon would
  // pick (a.nth, else the first visible match: find/pick in
  // internal/actions), and a plain text field, enabled. The answer
  // carries the locate's result for the daemon to describe the element.
  bb.locateToType = (a) => {
    if (!/^https?:$/.test(location.protocol)) return { ok: false, skip: "not a web page" };
    if (a.everyFrame && window.frames.length > 0) return { ok: false, skip: "the page has frames" };
    const found = bb.locate(a.locate);
    const i = Number.isInteger(a.nth) ? a.nth : found.matches.findIndex((m) => m.visible);
    const m = found.matches[i];
    if (!m) return { ok: false, skip: "no match to choose", found };
    const e = bb.byRef(m.ref);
    const t = e && typingTarget(e);
    if (!t || t.kind !== "text" || t.target !== e || disabled(e)) return { ok: false, skip: "not a plain text field", found };
    const prepared = bb.prepareTyping({ ref: m.ref, selectAll: a.selectAll, watch: true, check: true });
    return { ok: prepared.ok, found, index: i, prepared };
  };

  // The old focus verb (press focuses its target this way).
  bb.focus = (a) => {
    const e = el(a);
    const t = typingTarget(e);
    const target = t.kind === "none" ? e : t.target;
    if (!hasFocus(target)) target.focus({ preventScroll: false });
    return { focused: hasFocus(target), editable: t.kind !== "none" && !disabled(target), empty: isEmpty(target) };
  };

  // editorValue reads a code editor's text from its rendered lines, when
  // every line is rendered ({value}); else {unreadable: why}. An editor
  // the bridge does not know is never guessed at.
  const editorValue = (t) => {
    const spec = bb.EDITORS.find((s) => s.name === t.editor);
    const shown = spec && t.root ? bb.editorLines(spec, t.root) : null;
    if (!shown) return { unreadable: "the bridge cannot read this editor's text" };
    if (!shown.complete) return { unreadable: "the editor shows only part of its text (it renders what is on screen)" };
    return { value: shown.lines.join("\n") };
  };

  // value reads a control's value back, never a password's or a card's:
  // {value}, {hidden: true}, or {unreadable: why} (an editor showing part
  // of its text): never an empty string that is not the truth.
  bb.valueOf = (a) => {
    const e = el(a);
    if (bb.isSensitive(e)) return { hidden: true };
    const t = typingTarget(e);
    if (t.kind === "editor") {
      const v = editorValue(t);
      return v.unreadable ? v : { ...v, from: "rendered" };
    }
    if (e.isContentEditable) return { value: bb.norm(e.innerText) };
    if ("value" in e) return { value: String(e.value) };
    return { value: bb.visibleText(e) };
  };

  // setValue sets the value of a date, time, month, week, datetime-local,
  // color or range input as its picker or slider does: through the value
  // setter (frameworks see it), then input and change. A value the
  // control does not take (the browser would empty, clamp or default it)
  // is refused with the format it takes, and the old value kept.
  bb.setValue = (a) => {
    const e = el(a);
    const type = e.type;
    const format = VALUE_FORMATS[type];
    if (!format) throw fail("invalid_argument", `<input type=${type}> does not take a value this way`);
    if (disabled(e)) throw fail("invalid_argument", `the ${type} input is disabled or read-only`);
    const want = String(a.value).trim();
    const old = e.value;
    if (!hasFocus(e)) e.focus({ preventScroll: false });
    setNativeValue(e, want);
    const got = e.value;
    const same = type === "range" ? want !== "" && Number(got) === Number(want)
      : type === "color" ? got.toLowerCase() === want.toLowerCase()
        : want === "" ? got === "" : got !== "";
    if (!same) {
      setNativeValue(e, old);
      let why = `${JSON.stringify(want)} is not a value this ${type} input takes; give it as ${format}`;
      if (type === "range") why += ` from ${e.min || 0} to ${e.max || 100}` + (e.step && e.step !== "any" ? ` in steps of ${e.step}` : "") + ` (it would become ${got})`;
      throw fail("invalid_argument", why);
    }
    // With watch, the page's reaction is watched from just before the
    // events (see watch).
    if (a.watch) bb.watch();
    fire(e, "input");
    fire(e, "change");
    const out = { value: e.value };
    if (!e.checkValidity()) out.invalid = e.validationMessage;
    return out;
  };

  // paste inserts a.value where the focus is as a paste does: a paste
  // event carrying the text, which editors take verbatim (no
  // auto-indent, no closed brackets). It answers whether the page took it
  // (prevented the default); a field that did not is typed into instead
  // by the daemon, as the browser would insert the text.
  bb.paste = (a) => {
    const e = a.ref ? el(a) : deepActive();
    if (!e) throw fail("element_not_found", "nothing has the focus to paste into");
    const target = hasFocus(e) ? deepActive() : e;
    const dt = new DataTransfer();
    dt.setData("text/plain", String(a.value));
    const ev = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true, composed: true });
    if (a.watch) bb.watch();
    target.dispatchEvent(ev);
    return { taken: ev.defaultPrevented };
  };

  // watch records the page's DOM changes from now on (structure, text and
  // attributes: an autocomplete that filters by hiding options changes
  // only attributes), for the daemon's short wait after an input
  // (internal/actions/react.go). With fromInput the changes count only
  // from the first trusted input event that follows (the daemon's CDP
  // input: the text typed, a key, a click), so the watch can begin in the
  // call that readies the field, not in a round trip of its own. One watch
  // per document; a new one restarts it, and one nobody ends stops by
  // itself after a few seconds.
  let watcher = null;
  const INPUT_EVENTS = ["beforeinput", "input", "keydown", "pointerdown", "mousedown"];
  const unwatch = (w) => {
    w.observer.disconnect();
    clearTimeout(w.timer);
    if (w.onInput) for (const type of INPUT_EVENTS) removeEventListener(type, w.onInput, true);
    if (watcher === w) watcher = null;
  };
  bb.watch = (a) => {
    if (watcher) unwatch(watcher);
    const now = performance.now();
    const w = { since: now, input: now, last: 0, count: 0 };
    if (a && a.fromInput) {
      w.input = 0;
      w.onInput = (e) => {
        if (e.isTrusted && !w.input) w.input = performance.now();
      };
      for (const type of INPUT_EVENTS) addEventListener(type, w.onInput, { capture: true, passive: true });
    }
    w.observer = new MutationObserver((records) => {
      if (!w.input) return; // before the input: the focus's doing
      w.count += records.length;
      w.last = performance.now();
    });
    w.observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    w.timer = setTimeout(() => unwatch(w), 5000);
    watcher = w;
    return true;
  };
  // nextFrame resolves after the page's next animation frame (a render a
  // framework put off to it has happened then), or after ms when no frame
  // comes (a hidden tab draws none).
  const nextFrame = (ms) => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(timer);
      resolve();
    }, 0));
  });
  // reaction says how the page changed since the input (or the watch),
  // and whether it has settled: no change at all for graceMs after the
  // input (and, with frame, none by the page's next animation frame), or
  // none for quietMs after the last change. A settled watch (or one told
  // done) ends. With read (a ref), a settled answer also carries that
  // element's value (valueOf), so the read-back costs no round trip.
  bb.reaction = async (a) => {
    const w = watcher;
    if (!w) return { watching: false };
    if (a.frame && w.input && !w.count) await nextFrame(a.frameMs || 50);
    if (watcher !== w) return { watching: false };
    const now = performance.now();
    const from = w.input || w.since;
    const since = now - from;
    const quiet = now - (w.last || from);
    // No input event at all (an input that fires none): judged from the
    // watch's start, as a page that did not react.
    const settled = !w.input ? since >= (a.graceMs || 0) + (a.frameMs || 0)
      : w.count === 0 ? since >= (a.graceMs || 0) : quiet >= (a.quietMs || 0);
    if (settled || a.done) unwatch(w);
    const out = { watching: true, input: w.input !== 0, mutations: w.count, quietMs: Math.round(quiet), sinceMs: Math.round(since), settled };
    if ((settled || a.done) && a.read) {
      try {
        out.read = bb.valueOf({ ref: a.read === "@typing" ? bb.typingRef : a.read });
      } catch (_) { /* the element went away: no value */ }
    }
    return out;
  };

  // typeDom is inputMode "dom": set the value and fire input and change.
  bb.typeDom = (a) => {
    const e = el(a);
    const t = typingTarget(e);
    if (t.kind === "value") return bb.setValue(a);
    if (t.kind === "none" || disabled(t.target)) {
      throw fail("invalid_argument", `<${bb.tag(e)}> does not take text (not a text input, textarea or editable element, or it is disabled/read-only)`);
    }
    if (t.kind === "editor") {
      throw fail("invalid_argument", `this is a code editor (${t.editor}), which takes no value set through the DOM; use inputMode "paste" (or leave inputMode out)`);
    }
    const target = t.target;
    target.focus();
    if (target.isContentEditable) {
      if (a.clear) target.textContent = "";
      target.textContent += a.value;
      fire(target, "input");
      return bb.valueOf({ ref: bb.refFor(target) });
    }
    setNativeValue(target, (a.clear ? "" : target.value || "") + a.value);
    fire(target, "input");
    fire(target, "change");
    return bb.valueOf({ ref: bb.refFor(target) });
  };

  // domClick is inputMode "dom": synthetic pointer and mouse events and
  // click() — for pages that need the old path. Pages that check
  // isTrusted ignore it (use the default CDP click there).
  bb.domClick = (a) => {
    const e = el(a);
    e.scrollIntoView({ block: "center", behavior: "instant" });
    const r = e.getBoundingClientRect();
    const opts = { bubbles: true, composed: true, cancelable: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, button: 0 };
    e.dispatchEvent(new PointerEvent("pointerdown", opts));
    e.dispatchEvent(new MouseEvent("mousedown", opts));
    e.dispatchEvent(new PointerEvent("pointerup", opts));
    e.dispatchEvent(new MouseEvent("mouseup", opts));
    e.click();
    return true;
  };

  // select picks options of a <select> by value or visible label.
  bb.select = (a) => {
    const e = el(a);
    if (e.localName !== "select") throw fail("invalid_argument", `select works on a <select>, not a <${e.localName}>; use click for custom dropdowns`);
    const wanted = a.options;
    if (!e.multiple && wanted.length > 1) throw fail("invalid_argument", "this <select> takes one option; pass option, not several options");
    const opts = Array.from(e.options);
    const picked = wanted.map((w) => {
      const o = opts.find((o) => o.value === w) || opts.find((o) => bb.norm(o.label || o.text) === bb.norm(w)) ||
        opts.find((o) => bb.norm(o.label || o.text).toLowerCase() === bb.norm(w).toLowerCase());
      if (!o) throw fail("element_not_found", `no option ${JSON.stringify(w)}; the options are: ${opts.map((o) => JSON.stringify(bb.norm(o.label || o.text))).slice(0, 20).join(", ")}`);
      // An option in a disabled <optgroup> is as unpickable for a person as
      // a disabled option, though its own disabled property stays false.
      const group = o.parentElement;
      if (o.disabled || (group?.localName === "optgroup" && group.disabled)) {
        throw fail("invalid_argument", `option ${JSON.stringify(w)} is disabled; pick an enabled one`);
      }
      return o;
    });
    e.focus();
    for (const o of opts) o.selected = picked.includes(o);
    fire(e, "input");
    fire(e, "change");
    const sel = Array.from(e.selectedOptions);
    return { values: sel.map((o) => o.value), labels: sel.map((o) => bb.norm(o.label || o.text)) };
  };

  // check sets a checkbox, radio, or role=checkbox/switch to the wanted
  // state by clicking it when it differs (so handlers run), idempotently.
  bb.check = (a) => {
    let e = el(a);
    if (e.localName === "label" && e.control) e = e.control;
    const state = () => {
      if (e.localName === "input" && (e.type === "checkbox" || e.type === "radio")) return e.checked;
      const aria = e.getAttribute("aria-checked") ?? e.getAttribute("aria-pressed");
      if (aria === null) throw fail("invalid_argument", `<${e.localName}> is not a checkbox, radio or switch`);
      return aria === "true";
    };
    const before = state();
    if (before !== a.checked) {
      if (e.localName === "input" && e.type === "radio" && !a.checked) {
        throw fail("invalid_argument", "a radio button cannot be unchecked; check another one of its group");
      }
      if (e.disabled || e.getAttribute("aria-disabled") === "true") throw fail("invalid_argument", "the control is disabled");
      e.click();
    }
    const after = state();
    if (after !== a.checked) throw fail("invalid_argument", `clicking did not change the state (still ${after}); the page may handle it differently — try click`);
    return { checked: after, changed: before !== after };
  };

  const scrollable = (e) => {
    for (let n = e; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode().host || null)) {
      const s = getComputedStyle(n);
      if ((/(auto|scroll|overlay)/.test(s.overflowY) && n.scrollHeight > n.clientHeight) ||
          (/(auto|scroll|overlay)/.test(s.overflowX) && n.scrollWidth > n.clientWidth)) return n;
    }
    return bb.scrollingElement();
  };

  // largestScrollable is the container to scroll when no element is named
  // and the document itself does not scroll (app shells with an inner
  // scrolling pane).
  const largestScrollable = () => {
    const doc = bb.scrollingElement();
    if (doc.scrollHeight > doc.clientHeight + 1) return doc;
    let best = doc, area = 0;
    for (const n of bb.elements(bb.body() || doc)) {
      if (n.scrollHeight <= n.clientHeight + 1) continue;
      const s = getComputedStyle(n);
      if (!/(auto|scroll|overlay)/.test(s.overflowY)) continue;
      const a2 = n.clientWidth * n.clientHeight;
      if (a2 > area) { best = n; area = a2; }
    }
    return best;
  };

  // scroll: to top/bottom, by delta, or an element into view; the
  // container is the element's scrollable ancestor (or the page's).
  bb.scroll = (a) => {
    const target = a.ref ? el(a) : null;
    let box = target ? scrollable(target.parentElement || target) : largestScrollable();
    if (target && !a.to && a.deltaX == null && a.deltaY == null) {
      target.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
      box = scrollable(target.parentElement || target);
    }
    if (a.to === "top") box.scrollTo({ top: 0, behavior: "instant" });
    if (a.to === "bottom") box.scrollTo({ top: box.scrollHeight, behavior: "instant" });
    if (a.deltaX != null || a.deltaY != null) box.scrollBy({ left: a.deltaX || 0, top: a.deltaY || 0, behavior: "instant" });
    const isDoc = box === bb.scrollingElement() || box === bb.root();
    return {
      x: Math.round(box.scrollLeft), y: Math.round(box.scrollTop),
      maxX: Math.max(0, box.scrollWidth - box.clientWidth), maxY: Math.max(0, box.scrollHeight - box.clientHeight),
      container: isDoc ? "document" : bb.cssPath(box),
    };
  };

  // PICKS_FILES: whole words with which an element says it picks files, in
  // the languages most sites use ("profile" or "browser" are not "file"
  // or "browse"). Scripts without spaces between words match as they are.
  const PICKS_FILES = /(^|[^\p{L}])(upload|uploads|file|files|attach|attachment|attachments|choose|browse|import|photo|photos|picture|image|images|document|documents|avatar|resume|cv|datei|dateien|hochladen|anhang|fichier|fichiers|joindre|télécharger|parcourir|archivo|archivos|adjuntar|subir|examinar|arquivo|arquivos|anexar|carica|caricare|allega|sfoglia|bestand|bestanden|bijlage|uploaden|plik|pliki|załącz|wybierz|файл|файлы|загрузить|выбрать)(?![\p{L}])|上传|文件|附件|选择|ファイル|アップロード|添付|파일|업로드|첨부/iu;

  // DESTRUCTIVE: words of controls an upload must never click.
  const DESTRUCTIVE = /(^|[^\p{L}])(delete|remove|clear|cancel|discard|reset|erase|löschen|entfernen|supprimer|effacer|annuler|eliminar|borrar|cancelar|excluir|remover|elimina|rimuovi|annulla|verwijderen|usuń|удалить|отмена)(?![\p{L}])|删除|移除|取消|削除|삭제/iu;

  // fileInput is the file input an upload target stands for: the element
  // itself, or the input a <label> is for.
  const fileInput = (e) => {
    const isFile = (x) => x && x.localName === "input" && x.type === "file";
    if (isFile(e)) return e;
    if (e.localName === "label" && isFile(e.control)) return e.control;
    return null;
  };

  // markUpload tags a file input with a one-time token so the extension's
  // debugger can find it (dom.setFiles), and says whether it takes several
  // files. Any other element is reported as {chooser: true}: the daemon
  // then clicks it and catches the file chooser it opens (dom.chooseFiles).
  bb.markUpload = (a) => {
    const target = el(a);
    const e = fileInput(target);
    if (!e) {
      // Clicking has to be harmless when no chooser opens: never follow a
      // link or submit a form in the hope of one.
      const hint = "; locate the file input (it may be hidden) or the button that opens the file chooser";
      if (target.closest("a[href]")) throw fail("invalid_argument", "upload would click a link, which navigates" + hint);
      if (target.form && target.type === "submit") throw fail("invalid_argument", `upload would click a <${target.localName}> that submits a form` + hint);
      if (target.localName === "input" || target.localName === "textarea" || target.localName === "select") {
        throw fail("invalid_argument", `upload needs a file input, not an <${target.localName}${target.type ? " type=" + target.type : ""}>` + hint);
      }
      // Nor click a "Save" or "Delete" button: only what says, in the
      // words a person reads (its text, label or title), that it picks
      // files, and says nothing destructive.
      const says = bb.norm([bb.visibleText(target), target.getAttribute("aria-label"), target.title, target.getAttribute("alt")].join(" "));
      const what = `this <${target.localName}> says "${says.slice(0, 60)}"`;
      if (DESTRUCTIVE.test(says)) {
        throw fail("invalid_argument", `upload does not click what may delete or cancel; ${what}` + hint);
      }
      if (!PICKS_FILES.test(says)) {
        throw fail("invalid_argument", `upload clicks only an element that says it picks files (Upload, Choose file, Attach, Browse, …); ${what}` + hint);
      }
      // The click lands at the element's middle: a control inside it
      // (a link, a "Remove" button) would get it instead.
      if (target.querySelector("a[href], button, input, select, textarea, [role=button], [role=link]")) {
        throw fail("invalid_argument", "upload does not click an element with other controls inside" + hint);
      }
      return { chooser: true };
    }
    if (e.disabled) throw fail("invalid_argument", "the file input is disabled; wait until the page enables it (wait, then upload again)");
    if (e.webkitdirectory) throw fail("invalid_argument", "this file input picks a folder (webkitdirectory); the bridge uploads files, not folders — look for a file input or button that takes files");
    e.setAttribute("data-bb-upload", a.token);
    // Note the files when the page is told of them: many pages read them
    // on change and then empty the input. (This world's listener and
    // note are out of the page's sight.)
    // Captured at the input's root, so it runs before the page's own
    // listeners on the input (which may empty it).
    const root = e.getRootNode();
    const note = (ev) => {
      if (ev.target !== e) return;
      received.set(e, names(e));
      root.removeEventListener("change", note, true);
    };
    root.addEventListener("change", note, true);
    return { multiple: e.multiple, accept: e.accept };
  };

  const received = new WeakMap(); // file input -> the files at its change
  const names = (e) => Array.from(e.files || [], (f) => ({ name: f.name, size: f.size }));

  // uploaded removes the token and reports the chosen files' names and
  // sizes (never their content).
  bb.uploaded = (a) => {
    const e = fileInput(el(a));
    if (!e) return { files: [] };
    e.removeAttribute("data-bb-upload");
    const now = names(e);
    const seen = received.get(e);
    received.delete(e);
    return seen && seen.length > now.length ? { files: seen, emptied: true } : { files: now };
  };
})();
