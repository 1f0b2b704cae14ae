// The extension's page: the popup, the side panel, or a tab
// (chrome-extension://<id>/ui/popup.html). It asks the service worker
// (handlers/userpage.js) every second while open; the worker answers from
// Chrome and, over the native link, from the daemon. It touches the
// user's focus only when the user clicks a tab here.
import { PROTOCOL_VERSION } from "../protocol.js";

const POLL_MS = 1000;
// How many of the last actions to list: a popup stays short.
const $ = (id) => document.getElementById(id);
const view = new URLSearchParams(location.search).get("view") || "page";
document.body.classList.add(view);
const ACTIONS = view === "popup" ? 8 : 20;

const ask = (req) => chrome.runtime.sendMessage(req);

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

// set replaces an element's content only when it changed, so a poll does
// not reset what the user is pointing at or selecting.
function set(el, html) {
  if (el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
  }
}

function show(el, on) {
  el.hidden = !on;
}

// diagnose names the broken link of the chain, with the fix.
function diagnose(st) {
  const native = (st.transports || []).find((t) => t.name === "native") || {};
  const err = native.lastError || "";
  if (!native.connected) {
    if (/not found/i.test(err)) {
      return { pill: "Not installed", title: "Chrome cannot find the bridge's native host.", fix: "Run <code>browser-bridge install</code> in a terminal, then press Retry.", retry: true };
    }
    if (/forbidden/i.test(err)) {
      return { pill: "Not allowed", title: "The native host does not allow this extension.", fix: `Run <code>browser-bridge install</code> again (it registers this extension, <code>${esc(chrome.runtime.id)}</code>), then press Retry.`, retry: true };
    }
    return { pill: "Not connected", title: `The native host is not running${err ? `: ${esc(err)}` : ""}.`, fix: "Run <code>browser-bridge doctor</code> to see which link is broken, then press Retry.", retry: true };
  }
  if (st.daemonError) {
    return { pill: "Daemon not running", title: "The native host runs, but the browser-bridge daemon does not answer.", fix: "Run <code>browser-bridge status</code> (it starts the daemon), or <code>browser-bridge doctor</code>." };
  }
  const d = st.daemon.daemon || {};
  if (d.protocol !== PROTOCOL_VERSION || d.mismatch) {
    return {
      pill: "Version skew",
      title: `This extension (${esc(st.extension.version)}) speaks protocol ${PROTOCOL_VERSION}; browser-bridge ${esc(d.version)} speaks protocol ${esc(d.protocol)}.`,
      fix: "Run <code>browser-bridge install</code> and reload the extension at chrome://extensions, or update the binary.",
    };
  }
  if (st.daemon.off) {
    return { pill: "Turned off", title: esc(st.daemon.off), fix: "Run <code>browser-bridge enable</code> to turn it on.", warn: true };
  }
  return null;
}

function render(st) {
  const bad = diagnose(st);
  const daemon = bad && !bad.warn ? null : st.daemon;
  const paused = !!(daemon && daemon.paused);
  const pill = $("status");
  pill.textContent = bad ? bad.pill : paused ? "Paused" : "Connected";
  pill.className = "pill " + (bad && !bad.warn ? "bad" : bad || paused ? "warn" : "ok");

  show($("problem"), !!bad);
  if (bad) {
    set($("problem"), `<p><strong>${bad.title}</strong></p><p>${bad.fix}</p>` + (bad.retry ? `<div class="buttons"><button type="button" data-retry>Retry</button></div>` : ""));
  }

  renderHandoffs(st.handoffs || []);
  // Without a daemon there is nothing to pause, list or rule on.
  for (const el of document.querySelectorAll("section.daemon")) show(el, !!daemon);

  const sw = $("pause");
  sw.disabled = !daemon;
  if (!sw.matches(":focus") || sw.dataset.busy !== "1") sw.checked = paused;
  $("pause-note").textContent = (paused ? "Paused: the agent's actions fail until you resume." : "Every action but status waits for you.") +
    (daemon && daemon.askBeforeIrreversible ? " It asks you before it submits a form, pays or goes to another site." : "");

  const ev = $("evaluate");
  const evaluating = !!(daemon && daemon.evaluate);
  ev.disabled = !daemon;
  if (ev.dataset.busy !== "1") ev.checked = evaluating;
  $("evaluate-note").textContent = evaluating
    ? "On: the agent may run JavaScript in the pages it works in (the evaluate action; the log shows each script)."
    : "Off: the agent cannot run its own scripts in your pages.";

  renderWorkspaces(daemon ? daemon.workspaces : []);
  renderActions(daemon ? daemon.actions : []);
  renderChecks(st);
  renderRules(daemon ? daemon.policy : null, st.policy);
  $("versions").textContent = `Extension ${st.extension.version}` + (daemon ? ` · browser-bridge ${daemon.daemon.version}` : "");
}

function renderHandoffs(all) {
  // The questions of "ask before irreversible steps" first: they wait
  // for a yes or no (handlers/ask.js).
  const asks = all.filter((h) => h.kind === "ask");
  const list = all.filter((h) => h.kind !== "ask");
  show($("handoffs"), all.length > 0);
  set($("handoffs"), (asks.length ? `<h2>Your agent asks before it goes on</h2>` + asks.map((h) => `
    <div class="item ask-item">
      <p class="msg">${esc(h.message)}</p>
      ${h.detail ? `<p class="muted detail">${esc(h.detail)}</p>` : ""}
      <p class="muted">${esc(h.tabId ? h.title || h.url : "A new tab")} · no answer in time is a no</p>
      <div class="buttons">
        ${h.tabId ? `<button type="button" data-focus="${h.tabId}" data-window="${h.windowId}">Show tab</button>` : ""}
        <button type="button" data-answer="declined" data-token="${esc(h.token)}">Decline</button>
        <button type="button" class="primary" data-answer="allowed" data-token="${esc(h.token)}">Allow</button>
      </div>
    </div>`).join("") : "") + (list.length ? `<h2>Your agent handed you a tab</h2>` : "") + list.map((h) => `
    <div class="item">
      <p class="msg">${esc(h.message)}</p>
      <p class="muted">${esc(h.title || h.url)}${h.overlay ? "" : " · the page cannot show the box: answer here"}</p>
      <div class="buttons">
        <button type="button" data-focus="${h.tabId}" data-window="${h.windowId}">Show tab</button>
        <button type="button" data-answer="cancelled" data-token="${esc(h.token)}">Cancel</button>
        <button type="button" class="primary" data-answer="done" data-token="${esc(h.token)}">Done</button>
      </div>
    </div>`).join(""));
}

// tabInfo: the titles of the workspaces' tabs, from Chrome itself.
const tabInfo = new Map();
async function refreshTabs(workspaces) {
  const ids = workspaces.flatMap((w) => w.tabs);
  const got = await Promise.all(ids.map((id) => chrome.tabs.get(id).catch(() => null)));
  tabInfo.clear();
  for (const t of got) if (t) tabInfo.set(t.id, t);
}

function renderWorkspaces(list) {
  if (!list.length) return set($("workspaces"), `<p class="empty">None yet: they appear when an agent opens a page.</p>`);
  set($("workspaces"), list.map((w) => {
    const tabs = w.tabs.map((id) => tabInfo.get(id)).filter(Boolean);
    return `<div class="ws">
      <div class="ws-name"><span class="dot ${esc(w.color)}"></span>${esc(w.title || w.id)}${w.incognito ? ` <span class="muted">· incognito</span>` : ""}</div>
      <ul class="tabs">${tabs.length ? tabs.map((t) => `<li class="${t.active ? "active" : ""}"><button type="button" data-focus="${t.id}" data-window="${t.windowId}" title="Bring this tab forward">
        <span class="title">${esc(t.title || "Untitled")}</span><span class="where">${esc(shortURL(t.url || t.pendingUrl || ""))}</span></button></li>`).join("") : `<li class="empty">No open tabs.</li>`}</ul>
    </div>`;
  }).join(""));
}

function renderActions(list) {
  if (!list.length) return set($("actions"), `<li class="empty">None yet.</li>`);
  set($("actions"), list.slice(0, ACTIONS).map((a) => {
    const ok = a.code === "ok";
    const mine = a.session === "user"; // the user's own switch on this page
    // The browser it ran in, as the audit trail names it ("1 (Edge)").
    const sub = mine ? "" : [shortSession(a.session), a.browser || "", a.url ? shortURL(a.url) : ""].filter(Boolean).join(" · ");
    return `<li>
      <span class="when">${esc(clock(a.time))}</span>
      <span class="what"><b>${esc(a.action)}</b> ${esc(detail(a))}</span>
      <span class="code ${mine ? "muted" : ok ? "ok" : "err"}">${esc(mine ? "you" : ok ? `${a.ms} ms` : a.code)}</span>
      ${sub ? `<span class="sub">${esc(sub)}</span>` : ""}
    </li>`;
  }).join(""));
}

function renderChecks(st) {
  const settings = `<button type="button" class="link" data-settings>Open the extension's settings</button>`;
  set($("checks"), [
    st.incognitoAllowed
      ? `<li><span class="yes">✓</span><span>Allowed in Incognito</span></li>`
      : `<li><span class="no">!</span><span>Not allowed in Incognito: the agent's private searches need it. ${settings}, turn on “Allow in Incognito”.</span></li>`,
    st.fileAccess
      ? `<li><span class="yes">✓</span><span>Access to file URLs</span></li>`
      : `<li><span class="no">!</span><span>No access to file URLs: uploads of local files need it. ${settings}, turn on “Allow access to file URLs”.</span></li>`,
    ...(st.transports || []).filter((t) => t.name !== "native").map((t) =>
      `<li><span class="${t.connected ? "yes" : "muted"}">${t.connected ? "✓" : "–"}</span><span>${esc(TRANSPORT_NAMES[t.name] || t.name)}: ${t.connected ? `connected${t.url ? ` to ${esc(t.url)}` : ""}` : t.enabled ? `not connected${t.lastError ? ` (${esc(t.lastError)})` : ""}` : "off"}</span></li>`),
  ].join(""));
}

const TRANSPORT_NAMES = { websocket: "WebSocket for programs" };

function renderRules(p, local) {
  if (!p) return set($("rules"), "");
  const deny = p.deny.length ? `Denied: ${p.deny.map((d) => `<code>${esc(d)}</code>`).join(" ")}.` : "No sites denied.";
  const allow = p.allow.length ? ` Only these are allowed: ${p.allow.map((d) => `<code>${esc(d)}</code>`).join(" ")}.` : " All other sites are allowed.";
  const held = local && local.tabs ? ` Enforced in the agent's ${local.tabs} tab${local.tabs === 1 ? "" : "s"}.` : "";
  set($("rules"), `${deny}${allow} The browser's own pages and the extension stores are always off limits.${held}`);
}

// ---- Formatting ----

function shortURL(u) {
  try {
    const x = new URL(u);
    if (x.protocol === "http:" || x.protocol === "https:") return x.host + (x.pathname === "/" ? "" : x.pathname);
  } catch (_) { /* not a URL */ }
  return u;
}

function shortSession(s) {
  return String(s || "").replace(/^session:/, "");
}

function clock(t) {
  const d = new Date(t);
  return isNaN(d) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}

// detail is what an action was about, in a few words (the trail has
// already redacted typed text, paths and secrets).
function detail(a) {
  const p = a.params || {};
  for (const k of ["query", "text", "label", "placeholder", "selector", "name", "keys", "option", "message", "value"]) {
    if (typeof p[k] === "string" && p[k]) return `${k} “${p[k].length > 40 ? p[k].slice(0, 39) + "…" : p[k]}”`;
  }
  if (p.to) return `to ${p.to}`;
  if (p.closeWorkspace) return "the workspace";
  return "";
}

// ---- Events ----

document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("button");
  if (!b) return;
  if (b.dataset.focus) {
    // The one place the bridge's page moves the user's focus: they asked.
    const tabId = Number(b.dataset.focus);
    await chrome.tabs.update(tabId, { active: true }).catch(() => {});
    await chrome.windows.update(Number(b.dataset.window), { focused: true }).catch(() => {});
  } else if (b.dataset.answer) {
    if (!ev.isTrusted) return;
    await ask({ type: "handoff.answer", token: b.dataset.token, outcome: b.dataset.answer });
    poll();
  } else if (b.dataset.retry !== undefined) {
    await ask({ type: "ui.retry" });
    setTimeout(poll, 500);
  } else if (b.dataset.settings !== undefined) {
    chrome.tabs.create({ url: `chrome://extensions/?id=${chrome.runtime.id}` });
  } else if (b.id === "panel") {
    const w = await chrome.windows.getCurrent();
    await chrome.sidePanel.open({ windowId: w.id });
    window.close();
  }
});

$("pause").addEventListener("change", async (ev) => {
  const sw = ev.target;
  sw.dataset.busy = "1";
  try {
    const r = await ask({ type: "ui.pause", paused: sw.checked });
    if (r && r.error) sw.checked = !sw.checked;
  } finally {
    sw.dataset.busy = "";
    poll();
  }
});

// The evaluate switch: only a person's click turns it (a page cannot
// reach this page, and a synthetic event is not trusted).
$("evaluate").addEventListener("change", async (ev) => {
  const sw = ev.target;
  if (!ev.isTrusted) {
    sw.checked = !sw.checked;
    return;
  }
  sw.dataset.busy = "1";
  try {
    const r = await ask({ type: "ui.evaluate", on: sw.checked });
    if (!r || r.error) sw.checked = !sw.checked;
  } finally {
    sw.dataset.busy = "";
    poll();
  }
});

show($("panel"), view === "popup" && !!chrome.sidePanel);

let timer = null;
let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  try {
    const st = await ask({ type: "ui.state" });
    if (st && st.daemon) await refreshTabs(st.daemon.workspaces || []);
    if (st && st.extension) render(st);
  } catch (err) {
    $("status").textContent = "Not connected";
    $("status").className = "pill bad";
    show($("problem"), true);
    set($("problem"), `<p><strong>The extension's service worker does not answer.</strong></p><p>${esc(err.message)}</p>`);
  } finally {
    polling = false;
    clearTimeout(timer);
    timer = setTimeout(poll, POLL_MS);
  }
}
poll();
