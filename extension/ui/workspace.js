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
show().catch(() => {});

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
