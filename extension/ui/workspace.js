// The workspace page: the quiet tab that keeps a workspace's window, and
// its tab group, open between the agent's pages (handlers/windows.js
// opens it with the window, handlers/groups.js takes it into the group).
// It names the workspace by its tab group's label, read from Chrome,
// never from its own URL, so nothing a page hands it is shown; and it
// never navigates.
const name = document.getElementById("name");
const group = document.getElementById("group");
let me = null;
// The tabs of this page's group, this page last, and the group's label:
// what beforeunload (below) needs at once, with no time to ask Chrome.
let leaving = null;

async function show() {
  me = await chrome.tabs.getCurrent();
  await track();
  const g = me && me.groupId >= 0 ? await chrome.tabGroups.get(me.groupId).catch(() => null) : null;
  const label = g && g.title ? `“${g.title}”` : "";
  name.textContent = label;
  group.textContent = label || "of its workspace";
  document.title = g && g.title ? `${g.title} · Browser Bridge workspace` : "Browser Bridge workspace";
}

// The group comes a moment after the window (the daemon groups the
// agent's first page, and this tab with it), and the user may rename it.
chrome.tabGroups.onUpdated.addListener((g) => {
  if (me && g.id === me.groupId) show().catch(() => {});
});
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (!("groupId" in change) || !me) return;
  if (tabId === me.id) show().catch(() => {});
  else if (tab.windowId === me.windowId) track().catch(() => {});
});
// The tabs of this window come and go; other windows' are not this
// page's concern (the agent may open hundreds elsewhere).
function inWindow(windowId) {
  if (me && windowId === me.windowId) track().catch(() => {});
}
chrome.tabs.onCreated.addListener((tab) => inWindow(tab.windowId));
chrome.tabs.onRemoved.addListener((tabId, info) => inWindow(info.windowId));
chrome.tabs.onDetached.addListener((tabId, info) => inWindow(info.oldWindowId));
chrome.tabs.onAttached.addListener((tabId, info) => {
  if (me && tabId === me.id) show().catch(() => {});
  else inWindow(info.newWindowId);
});
show().then(refresh).catch(() => {});

async function track() {
  const self = me && await chrome.tabs.get(me.id).catch(() => null);
  if (!self || self.groupId < 0) {
    leaving = null;
    return;
  }
  const [tabs, g] = await Promise.all([chrome.tabs.query({ groupId: self.groupId }), chrome.tabGroups.get(self.groupId)]);
  leaving = {
    windowId: self.windowId,
    tabIds: [...tabs.filter((t) => t.id !== self.id).map((t) => t.id), self.id],
    title: g.title || "",
    color: g.color,
  };
}

// Closing the window with its group in it makes Chrome keep the group in
// the user's saved tab groups, with an entry for every page the agent had
// open there (Saved Tab Groups, synced to the user's account), and no
// extension API can remove a saved group. So when the window is about to
// close — this page's beforeunload, which Chrome runs before it closes any
// tab of the window — the page takes the group's tabs out of it, itself
// last: the group is deleted, and only this page's entry is left
// (handlers/tabs.js ungroupFirst says why one is). The page cannot tell
// its window closing from its own tab closing: the service worker puts
// the tabs back when the window stays (handlers/windows.js regroup), from
// what the page leaves it here — and when the page lives on (a reload, or
// the user sending its tab elsewhere). A window close the user cancels at
// another page's "Leave site?" prompt: the page cannot know the prompt's
// answer, and putting the tabs back before it would save the group if the
// answer is Leave; the service worker puts them back once it sees the
// prompt answered and the window still there (handlers/windows.js watch).
addEventListener("beforeunload", () => {
  if (!leaving || !me) return;
  chrome.storage.session.set({ [`workspaceLeaving:${me.id}`]: { ...leaving, at: Date.now() } }).catch(() => {});
  chrome.tabs.ungroup(leaving.tabIds).catch(() => {});
});

// The replay strip: this workspace's latest steps, newest last, each a
// thumbnail the daemon made small (the native link carries at most 1 MiB
// a message); clicking one shows that step, bigger, and the arrow keys
// step through them, as the HTML replay does (docs/cli.md, "replay").
// The daemon answers only for a window of one of the bridge's own
// workspaces. Every text of a step comes from pages: it is set as text,
// never as markup.
const REPLAY_EVERY_MS = 3000; // how often the strip looks for new steps
const STRIP_MAX = 100; // the steps the strip holds at most, newest kept
const replay = document.getElementById("replay");
const strip = document.getElementById("strip");
const older = document.getElementById("older");
const stepBox = document.getElementById("step");
let steps = []; // oldest first, as shown
let current = -1; // the index in steps of the step shown, -1: none

const ask = (req) => chrome.runtime.sendMessage(req).then((r) => {
  if (r && r.error) throw new Error(r.error.message);
  return r;
});

// refresh adds the steps taken since the newest shown. The daemon
// answers with the newest steps from there, at most a page of them, and
// says "more" when it left out older ones of that range (more steps ran
// while the page was out of view than one answer holds): the answer then
// replaces the strip, and "Older" reaches the steps in between, so no
// step is ever skipped. The timer and the page coming into view may ask
// at once: one asks at a time, and a step already shown is never added
// again.
let refreshing = null;
function refresh() {
  refreshing ??= refreshOnce().finally(() => { refreshing = null; });
  return refreshing;
}
async function refreshOnce() {
  if (!me || document.hidden) return;
  const last = steps.length ? steps[steps.length - 1].seq : -1;
  const r = await ask({ type: "ui.replay", windowId: me.windowId, from: last + 1 });
  const fresh = (r && r.steps || []).filter((s) => s.seq > last);
  if (!fresh.length) return;
  if (!steps.length || r.more) {
    steps = fresh;
    older.hidden = !r.more;
    if (current >= 0) {
      current = -1;
      stepBox.hidden = true;
    }
  } else {
    steps.push(...fresh);
  }
  // The strip holds the newest STRIP_MAX steps: a workspace that runs
  // for hours must not grow this page without end. "Older" reaches the
  // rest.
  if (steps.length > STRIP_MAX) {
    const cut = steps.length - STRIP_MAX;
    steps = steps.slice(cut);
    older.hidden = false;
    if (current >= 0) {
      current -= cut;
      if (current < 0) stepBox.hidden = true;
    }
  }
  render();
}

// loadOlder adds the page of steps before the oldest shown.
async function loadOlder() {
  if (!me || !steps.length || steps[0].seq === 0) return;
  const first = steps[0].seq;
  const r = await ask({ type: "ui.replay", windowId: me.windowId, before: first });
  // The strip was replaced meanwhile: this page no longer joins it.
  if (!steps.length || steps[0].seq !== first) return;
  const earlier = r.steps.filter((s) => s.seq < first);
  older.hidden = !r.more;
  if (!earlier.length) return;
  steps.unshift(...earlier);
  if (current >= 0) current += earlier.length;
  render();
}

function render() {
  replay.hidden = steps.length === 0;
  const atEnd = strip.scrollLeft + strip.clientWidth >= strip.scrollWidth - 4;
  strip.replaceChildren(...steps.map((s, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.seq = String(s.seq);
    b.title = `${s.action} ${s.target || ""} · ${s.outcome}`;
    if (s.outcome !== "ok") b.classList.add("failed");
    if (i === current) b.setAttribute("aria-current", "true");
    let pic;
    if (s.thumb && s.thumb.startsWith("data:image/jpeg;base64,")) {
      pic = document.createElement("img");
      pic.src = s.thumb;
      pic.alt = "";
    } else {
      pic = document.createElement("div");
      pic.className = "blank";
    }
    const label = document.createElement("span");
    label.textContent = s.outcome === "ok" ? s.action : `${s.action} · ${s.outcome}`;
    b.append(pic, label);
    b.addEventListener("click", () => showStep(i).catch(() => {}));
    li.append(b);
    return li;
  }));
  // Newest last: keep the newest in view as steps come, unless the user
  // has scrolled back.
  if (atEnd) strip.scrollLeft = strip.scrollWidth;
}

// showStep shows steps[i] with its picture, which the daemon sends alone.
async function showStep(i) {
  if (i < 0 || i >= steps.length) return;
  current = i;
  const s = steps[i];
  for (const b of strip.querySelectorAll("button")) {
    if (b.dataset.seq === String(s.seq)) b.setAttribute("aria-current", "true");
    else b.removeAttribute("aria-current");
  }
  strip.querySelector(`button[data-seq="${s.seq}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  stepBox.hidden = false;
  stepBox.dataset.seq = String(s.seq);
  document.getElementById("step-n").textContent = `Step ${i + 1} of ${steps.length}`;
  document.getElementById("step-action").textContent = s.action;
  document.getElementById("step-target").textContent = s.target || "";
  const outcome = document.getElementById("step-outcome");
  outcome.textContent = s.outcome;
  outcome.className = `pill ${s.outcome === "ok" ? "ok" : "bad"}`;
  const t = document.getElementById("step-time");
  t.dateTime = s.time;
  t.textContent = new Date(s.time).toLocaleTimeString();
  document.getElementById("step-page").textContent = s.title || s.url || "";
  const img = document.getElementById("step-img");
  const none = document.getElementById("step-none");
  const r = s.thumb ? await ask({ type: "ui.replay", windowId: me.windowId, seq: s.seq }).catch(() => null) : null;
  if (current !== i) return; // another step was asked for meanwhile
  const full = r && r.steps && r.steps[0] && r.steps[0].image;
  if (full && full.startsWith("data:image/jpeg;base64,")) {
    img.src = full;
    img.hidden = false;
    none.hidden = true;
  } else {
    img.removeAttribute("src");
    img.hidden = true;
    none.hidden = false;
  }
}

addEventListener("keydown", (e) => {
  if (current < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === "ArrowLeft") showStep(current - 1).catch(() => {});
  else if (e.key === "ArrowRight") showStep(current + 1).catch(() => {});
  else return;
  e.preventDefault();
});
older.addEventListener("click", () => loadOlder().catch(() => {}));
document.addEventListener("visibilitychange", () => refresh().catch(() => {}));
setInterval(() => refresh().catch(() => {}), REPLAY_EVERY_MS);
