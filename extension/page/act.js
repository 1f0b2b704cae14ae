// Injected DOM actions (SPEC §2): select, check, scroll, focus/clear before
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

  // value reads a control's value back, never a password's or a card's.
  bb.valueOf = (a) => {
    const e = el(a);
    if (bb.isSensitive(e)) return { hidden: true };
    if (e.isContentEditable) return { value: bb.norm(e.innerText) };
    if ("value" in e) return { value: String(e.value) };
    return { value: bb.visibleText(e) };
  };

  // focus focuses the element for typing; with clear it selects the whole
  // content so the typed text replaces it (through real editing, which
  // keeps undo and framework state right).
  // Input types that take typed text (date pickers and the like do not
  // take insertText as a person's typing).
  const TEXT_TYPES = new Set(["text", "search", "url", "tel", "email", "password", "number"]);

  // takesText says whether typing into e makes sense: a text field or
  // textarea that is neither disabled nor read-only, or an editable
  // element. Selects, buttons, checkboxes and file inputs have a value
  // too, but typing does not set it.
  const takesText = (e) => {
    if (e.isContentEditable) return true;
    if (e.disabled || e.readOnly) return false;
    if (e.localName === "textarea") return true;
    // e.type, not the attribute: type="phone" is a text field.
    return e.localName === "input" && TEXT_TYPES.has(e.type);
  };

  bb.focus = (a) => {
    const e = el(a);
    // Nothing is focused for a field that takes no text: the typing would
    // go to whatever had the focus before.
    if (!takesText(e)) return { focused: false, editable: false, empty: true };
    e.focus({ preventScroll: false });
    const active = e.getRootNode().activeElement;
    const focused = active === e || (e.contains && e.contains(active));
    if (a.selectAll) {
      if (typeof e.select === "function" && "value" in e) e.select();
      else if (e.isContentEditable) {
        const range = bb.range();
        range.selectNodeContents(e);
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
    } else if ("value" in e && typeof e.setSelectionRange === "function") {
      try { e.setSelectionRange(e.value.length, e.value.length); } catch (_) { /* not a text input */ }
    }
    const empty = e.isContentEditable ? !e.textContent : !("value" in e) || e.value === "";
    return { focused, editable: true, empty };
  };

  // typeDom is inputMode "dom": set the value and fire input and change.
  bb.typeDom = (a) => {
    const e = el(a);
    if (!takesText(e)) {
      throw fail("invalid_argument", `<${e.localName}> does not take text (not a text input, textarea or editable element, or it is disabled/read-only)`);
    }
    e.focus();
    if (e.isContentEditable) {
      if (a.clear) e.textContent = "";
      e.textContent += a.value;
      fire(e, "input");
      return bb.valueOf(a);
    }
    setNativeValue(e, (a.clear ? "" : e.value || "") + a.value);
    fire(e, "input");
    fire(e, "change");
    return bb.valueOf(a);
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
      if (o.disabled) throw fail("invalid_argument", `option ${JSON.stringify(w)} is disabled`);
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
