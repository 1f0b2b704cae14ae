// serp: reads a search results page into classified hits, and recognises
// the pages that stand in for results (a consent wall, an "unusual traffic"
// check). Written for Google's results markup, which changes its class
// names often, so it leans on structure and visible labels first (a link
// holding a heading is a result title; a section is named by its heading:
// "People also ask", "Top stories", "Videos"; an ad carries "Sponsored")
// and on Google's long-lived IDs (#rso, #tads, #bottomads) second. The same
// rules read Bing- and DuckDuckGo-like pages (heading holding a link).
(() => {
  const bb = globalThis.__bb;
  if (bb.loaded.serp) return;
  bb.loaded.serp = true;

  const TITLE = "a[href] h3, a[href] [role=heading], h2 > a[href], h3 > a[href]";
  const AD_BLOCKS = "#tads, #tadsb, #bottomads, [data-text-ad], .uEierd, li.b_ad, [aria-label=Ads], .pla-unit, [data-pla], .commercial-unit-desktop-top, .commercial-unit-desktop-rhs, [data-testid=ad]";
  // One ad inside an ad block (a block may hold several).
  const AD_CARDS = "[data-text-ad], .uEierd, li.b_ad, .pla-unit, [data-pla], [data-testid=ad]";
  const AD_LABEL = /^(sponsored|ads?|anzeigen?|annonces?|gesponsert|patrocinado)$/i;
  // A shown URL ("shop.example", "https://shop.example › deals"), not a title.
  const SHOWN_URL = /^(https?:\/\/)?[\w-]+(\.[\w-]+)+(\s*[›/].*)?$/i;
  const SECTIONS = [
    [/^(people also ask|ähnliche fragen|autres questions|otras preguntas)/i, "people_also_ask"],
    [/^(featured snippet|hervorgehobenes snippet)/i, "featured"],
    [/^(top stories|news|schlagzeilen|à la une|noticias destacadas)$/i, "news"],
    [/^(videos?|short videos|kurze videos)$/i, "video"],
    [/^(images|bilder)( for .*)?$/i, "image"],
    [/^(related searches|people also search for|ähnliche suchanfragen|verwandte suchanfragen)/i, "related_search"],
    [/^(sponsored( results| products| shopping| ads)?|ads|anzeigen|gesponsert|annonces|patrocinado)$/i, "ad"],
  ];
  const SNIPPET = [".hgKElc", ".VwiC3b", "[data-sncf='1']", ".MUxGbd", "[data-content-feature='1']", ".ITZIwc",
    ".b_caption p", "[data-result=snippet]", "[data-testid=result-snippet]"];

  const text = (el) => bb.norm(el.innerText !== undefined ? el.innerText : el.textContent);
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);

  // unwrap turns Google's /url?q=… redirect links into their target.
  const unwrap = (href) => {
    try {
      const u = new URL(href, location.href);
      if (u.pathname === "/url") {
        const target = u.searchParams.get("q") || u.searchParams.get("url") || "";
        if (/^https?:\/\//.test(target)) return target;
      }
      return u.href;
    } catch (_) {
      return href;
    }
  };

  // blocked recognises a page that is not results at all.
  const blocked = () => {
    const host = location.hostname, path = location.pathname;
    const b = bb.body();
    const body = bb.norm(b ? bb.visibleText(b) : "").slice(0, 4000).toLowerCase();
    if (path.startsWith("/sorry") || bb.qs("#captcha-form, form[action*='sorry'], .g-recaptcha") ||
        /unusual traffic from your computer network|our systems have detected unusual traffic|ungewöhnlichen datenverkehr/.test(body)) {
      return "unusual_traffic";
    }
    if (/^consent\./.test(host) || bb.qs("form[action*='consent.'], #L2AGLb, [aria-modal=true] form[action*='consent']") ||
        /before you continue to google|bevor sie zu google weitergehen|avant d'accéder à google/.test(body)) {
      return "consent";
    }
    return "";
  };

  // adTitle is an ad link's title: its heading, else its first text that
  // is neither an ad label nor a shown URL.
  const adTitle = (a) => {
    const h = a.querySelector("h3, [role=heading]");
    if (h && text(h)) return text(h);
    for (const e of a.querySelectorAll("span, div")) {
      if (e.childElementCount > 0) continue;
      const t = text(e);
      if (t && !AD_LABEL.test(t) && !SHOWN_URL.test(t) && !/^[$€£¥]\s?[\d.,]+$|^[\d.,]+\s?[$€£¥]$/.test(t)) return t;
    }
    const own = text(a);
    return own && !AD_LABEL.test(own) && !SHOWN_URL.test(own) ? own : "";
  };

  // heading-like elements, including visually hidden ones (Google names
  // its featured snippet with an off-screen h2).
  const headings = (root) => Array.from(root.querySelectorAll("h1, h2, h3, h4, [role=heading], .iDjcJe, g-section-with-header span"));

  bb.serp = (args) => {
    const reason = blocked();
    const out = { url: location.href, title: bb.title(), blocked: reason, results: [] };
    if (reason) return out;
    const max = (args && args.max) || 100;
    const docBody = bb.body();
    const root = bb.qs("#rso") || bb.qs("#search, #b_results, #links") || bb.qs("main, [role=main]") || docBody;
    if (!root) return out;
    const top = bb.closest(root, "#center_col, #main, #b_content") || docBody;

    // Sections named by a heading: the section is the heading's largest
    // ancestor below the results root (or its g-section-with-header) that
    // holds no result title before the heading, no other section's heading
    // and, for related searches, no result title at all. Without those
    // stops a page with no results container (#search, main) made one
    // wrapper of every result the section: each became an ad, or all were
    // skipped as related searches.
    const named = [];
    for (const h of headings(top)) {
      const label = text(h) || bb.norm(h.textContent);
      const hit = SECTIONS.find(([re]) => re.test(label));
      if (hit) named.push([h, hit[1]]);
    }
    const before = (x, h) => !!(x.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
    const stops = (p, h, kind) => {
      if (named.some(([o]) => o !== h && p.contains(o) && !h.contains(o))) return true;
      for (const t of p.querySelectorAll(TITLE)) {
        if (h.contains(t) || t.contains(h)) continue;
        if (kind === "related_search" || before(t, h)) return true;
      }
      return false;
    };
    const sections = new Map();
    for (const [h, kind] of named) {
      let s = h.closest("g-section-with-header, block-component");
      if (!s) {
        s = h;
        while (s.parentElement && s.parentElement !== root && s.parentElement !== docBody && !stops(s.parentElement, h, kind)) s = s.parentElement;
        if (!root.contains(s) && s.parentElement !== root && s === h) s = h.parentElement || h;
      }
      if (!sections.has(s)) sections.set(s, kind);
    }
    const sectionOf = (el) => {
      for (const [s, kind] of sections) if (s.contains(el)) return kind;
      return "";
    };

    const titles = Array.from(top.querySelectorAll(TITLE));
    const titleCount = (el) => el.querySelectorAll(TITLE).length;
    // blockOf is the largest ancestor of a title that holds no other title:
    // the result's own card, where its snippet lives.
    const blockOf = (t) => {
      let b = t;
      while (b.parentElement && b.parentElement !== root && b.parentElement !== docBody && titleCount(b.parentElement) <= 1) b = b.parentElement;
      return b;
    };
    const isAd = (el, block) => !!el.closest(AD_BLOCKS) ||
      Array.from(block.querySelectorAll("span, div")).some((s) => s.childElementCount === 0 && AD_LABEL.test(bb.norm(s.textContent)));

    const seen = new Set();
    const results = [];
    const add = (r) => {
      const key = r.kind + " " + (r.url || r.title);
      if (seen.has(key) || results.length >= max) return;
      seen.add(key);
      results.push(r);
    };

    for (const t of titles) {
      const a = t.localName === "a" ? t : t.closest("a[href]");
      if (!a) continue;
      const head = t.localName === "a" ? t.closest("h2, h3") || t : t;
      if (!bb.isVisible(head) && !bb.isVisible(a)) continue;
      const href = unwrap(a.href);
      if (!/^https?:/.test(href)) continue;
      const block = blockOf(t);
      let kind = sectionOf(a);
      if (kind === "people_also_ask" || kind === "related_search") continue; // read below
      if (!kind || kind === "ad") kind = isAd(a, block) || kind === "ad" ? "ad" : "organic";
      const title = text(head);
      let snippet = "";
      for (const sel of SNIPPET) {
        // Google reuses snippet classes on titles: skip what holds or is
        // inside the title link.
        const s = Array.from(block.querySelectorAll(sel)).find((e) => !e.contains(a) && !a.contains(e) && text(e));
        if (s) { snippet = text(s); break; }
      }
      if (!snippet) {
        const skip = new Set([title, text(a)]);
        for (const c of block.querySelectorAll("cite")) skip.add(text(c));
        snippet = bb.norm(text(block).split(/\n/).join(" "));
        for (const s of skip) if (s) snippet = snippet.split(s).join(" ");
        snippet = bb.norm(snippet.replace(AD_LABEL, "").replace(/^(featured snippet from the web)\s*/i, ""));
      }
      add({ kind, title: cut(title, 300), url: href, snippet: cut(snippet, 400), el: a });
    }

    // Ads whose title is no heading (shopping ads, ads at the bottom of the
    // page, other engines' ads): every ad card of an ad block, or a block
    // a "Sponsored" label marks, gives its main link, titled by its first
    // text that is neither the label nor a shown URL.
    // Ad blocks are looked for in the whole page: Google may place #tads
    // and #bottomads outside the results column the titles are read from.
    const adBlocks = new Set((docBody || top).querySelectorAll(AD_BLOCKS));
    for (const [sct, kind] of sections) if (kind === "ad") adBlocks.add(sct);
    for (const l of top.querySelectorAll("span, div")) {
      if (l.childElementCount === 0 && AD_LABEL.test(bb.norm(l.textContent)) && l.parentElement && !l.closest("a[href]")) adBlocks.add(l.parentElement);
    }
    for (const blk of adBlocks) {
      const inner = Array.from(blk.querySelectorAll(AD_CARDS));
      const cards = inner.length ? inner : [blk];
      for (const card of cards) {
        if (!bb.isVisible(card)) continue;
        const a = Array.from(card.querySelectorAll("a[href]")).find((x) => /^https?:/.test(unwrap(x.href)) && bb.isVisible(x) && adTitle(x));
        if (!a) continue;
        const title = adTitle(a);
        const href = unwrap(a.href);
        const shown = new Set([title, ...Array.from(card.querySelectorAll("span, div, cite")).filter((e) => e.childElementCount === 0 && SHOWN_URL.test(text(e))).map(text)]);
        let snippet = bb.norm(text(card).split(/\n/).join(" "));
        for (const x of shown) if (x) snippet = snippet.split(x).join(" ");
        snippet = bb.norm(snippet.split(/\s+/).filter((w) => !AD_LABEL.test(w)).join(" "));
        add({ kind: "ad", title: cut(title, 300), url: href, snippet: cut(snippet, 400), el: a });
      }
    }

    // "People also ask": questions, with the source link once expanded.
    for (const [s, kind] of sections) {
      if (kind === "people_also_ask") {
        let qs = Array.from(s.querySelectorAll("[data-q], .related-question-pair"));
        if (!qs.length) qs = Array.from(s.querySelectorAll("[role=button][aria-expanded], [jsname][role=button]"));
        for (const q of qs) {
          const title = bb.norm(q.getAttribute("data-q") || "") || text(q.querySelector("[role=button]") || q).split(/\s*\n\s*/)[0];
          if (!title) continue;
          const link = q.querySelector("a[href] h3") ? q.querySelector("a[href] h3").closest("a") : null;
          add({ kind, title: cut(title, 300), url: link ? unwrap(link.href) : "", snippet: "", el: q });
        }
      } else if (kind === "related_search") {
        for (const a of s.querySelectorAll("a[href]")) {
          const title = text(a);
          if (title && bb.isVisible(a)) add({ kind, title: cut(title, 200), url: unwrap(a.href), snippet: "", el: a });
        }
      }
    }

    // Positions follow the page's reading order.
    results.sort((x, y) => (x.el === y.el ? 0 : x.el.compareDocumentPosition(y.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    out.results = results.map((r, i) => ({ kind: r.kind, position: i + 1, title: r.title, url: r.url, snippet: r.snippet }));
    return out;
  };
})();
