// Which page opened which tab. Chrome's tab.openerTabId names the tab a
// page opened this one from (a link to _blank, window.open), but it also
// names the active tab when the user (Ctrl+T, a bookmark in a new tab)
// or DevTools (Target.createTarget) opens a tab beside it: nothing there
// says a page did it. webNavigation.onCreatedNavigationTarget fires only
// for a tab a page's navigation made, with the page's tab as its source.
// The bridge takes a tab as its own (the daemon's adoption of opened
// tabs, tabinfo.js) only when both agree, so that a tab the user opens
// beside the agent's active page stays the user's, unrecorded and
// undriven.
//
// The record is kept in chrome.storage.session: a tab opened before a
// restart of the service worker keeps its opener after it.
const STORAGE_KEY = "pageOpeners";

let openers = {}; // tabId -> the tab whose page opened it

const ready = chrome.storage.session.get(STORAGE_KEY).then((s) => {
  // Entries made before the restore won over the stored ones.
  openers = { ...(s[STORAGE_KEY] || {}), ...openers };
}).catch((err) => console.error("browser-bridge: openers not restored:", err));

function save() {
  return ready.then(() => chrome.storage.session.set({ [STORAGE_KEY]: openers })).catch(() => {});
}

chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => {
  openers[d.tabId] = d.sourceTabId;
  save();
});
chrome.tabs.onRemoved.addListener((tabId) => {
  if (!(tabId in openers)) return;
  delete openers[tabId];
  save();
});

// openerOf is the tab whose page opened tab t, or undefined when no page
// did (or Chrome names no opener: a noopener link, whose tab the site
// rules follow on their own, handlers/policy.js).
export function openerOf(t) {
  return Number.isInteger(t.openerTabId) && openers[t.id] === t.openerTabId ? t.openerTabId : undefined;
}
