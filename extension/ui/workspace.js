// The workspace page: the quiet tab that keeps a workspace's window, and
// its tab group, open between the agent's pages (handlers/windows.js
// opens it with the window, handlers/groups.js takes it into the group).
// It names the workspace by its tab group's label, read from Chrome,
// never from its own URL, so nothing a page hands it is shown; and it
// never navigates.
const name = document.getElementById("name");
const group = document.getElementById("group");
let me = null;

async function show() {
  me = await chrome.tabs.getCurrent();
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
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (me && tabId === me.id && "groupId" in change) show().catch(() => {});
});
show().catch(() => {});
