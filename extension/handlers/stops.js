// The navigations the site rules stopped in the bridge's tabs: the URL and
// the rule, by tab. ui/blocked.html shows them, tab results carry them
// (tabinfo.js), and the daemon's guard names them (and loads the URL again
// once the user lifts the rule).
//
// This record is the only source of what the blocked page says. Its URL
// carries nothing: a URL is the page's to forge (a web page or a program
// could navigate a tab to blocked.html#file:///…), so nothing reads it.
// The record is made from the browser's own navigation events
// (handlers/policy.js), kept in chrome.storage.session (it outlives a
// service-worker restart, not the browser), and holds only top-frame
// stops: a blocked frame shows Chrome's error page.
export const STORAGE_KEY = "policyStops";

let stops = {}; // tabId -> {url, rule, kind, shown}

const ready = chrome.storage.session.get(STORAGE_KEY).then((s) => {
  // Entries made before the restore won over the stored ones.
  stops = { ...(s[STORAGE_KEY] || {}), ...stops };
}).catch((err) => console.error("browser-bridge: stopped navigations not restored:", err));

function save() {
  return chrome.storage.session.set({ [STORAGE_KEY]: stops }).catch(() => {});
}

// record notes that the rules stopped tabId from loading url.
export function record(tabId, url, decision) {
  stops[tabId] = { url: String(url), rule: decision.rule || "", kind: decision.kind || "deny", shown: false };
  return ready.then(save);
}

// shown notes that tabId shows the blocked page for its stop.
export function shown(tabId) {
  const s = stops[tabId];
  if (!s || s.shown) return ready;
  s.shown = true;
  return ready.then(save);
}

// left forgets tabId's stop once the tab, having shown the blocked page,
// loads something else. (Before that, the stopped load's own error page
// may still commit: that is no leaving.)
export function left(tabId) {
  const s = stops[tabId];
  if (!s || !s.shown) return ready;
  return clear(tabId);
}

// clear forgets tabId's stop.
function clear(tabId) {
  if (!(tabId in stops)) return ready;
  delete stops[tabId];
  return ready.then(save);
}

// get is tabId's stop ({url, rule, kind}), or undefined.
export function get(tabId) {
  const s = stops[tabId];
  return s && { url: s.url, rule: s.rule, kind: s.kind };
}

// restored resolves once the stored record is read.
export function restored() {
  return ready;
}

chrome.tabs.onRemoved.addListener((tabId) => { clear(tabId); });
