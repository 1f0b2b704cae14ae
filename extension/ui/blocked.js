// The page that stands in for a navigation the site rules stopped in one
// of the bridge's tabs (handlers/policy.js sends the tab here).
//
// It is inert on purpose: it loads nothing and reads nothing from its own
// URL. What it shows comes from the extension's record of the stop
// (handlers/stops.js), looked up by the tab it is in. Sites cannot open
// or frame it (it is not web-accessible); if anything does show it
// without a stop on record — or in a frame — it says only that something
// was blocked. The daemon loads the stopped page again once the user
// lifts the rule; the page itself never navigates.

// handlers/stops.js's storage key (that module belongs to the service
// worker: importing it here would run its listeners in this page).
const STORAGE_KEY = "policyStops";

const $ = (id) => document.getElementById(id);

function why(stop) {
  switch (stop.kind) {
    case "builtin":
      return `The browser's own pages and the extension stores are off limits to agents (built-in rule “${stop.rule}”).`;
    case "allow":
      return "It is not on your allow list.";
    default:
      return `It matches your rule “${stop.rule}”.`;
  }
}

function show(stop) {
  $("url").textContent = stop ? stop.url : "(an address)";
  $("why").textContent = stop ? why(stop) : "";
}

async function load() {
  if (window.top !== window) return show(null);
  const tab = await chrome.tabs.getCurrent();
  if (!tab) return show(null);
  const s = await chrome.storage.session.get(STORAGE_KEY);
  show((s[STORAGE_KEY] || {})[tab.id]);
}

$("back").addEventListener("click", () => history.back());
$("back").hidden = history.length < 2;
load().catch(() => show(null));
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes[STORAGE_KEY]) load().catch(() => show(null));
});
