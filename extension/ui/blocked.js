// The page that stands in for a navigation the site rules stopped
// (handlers/policy.js): blocked.html?rule=R&kind=K#URL. The daemon
// recognises it and refuses actions on the tab with blocked_by_policy.
// When the user lifts the rule, the page loads what it stopped.
import { check } from "../handlers/siterules.js";
const q = new URLSearchParams(location.search);
const rule = q.get("rule") || "";
let url = location.hash.slice(1);
try { url = decodeURI(url); } catch (_) { /* shown as it is */ }
document.getElementById("url").textContent = url || "(an address)";
const why = {
  builtin: `The browser's own pages and the extension stores are off limits to agents (built-in rule “${rule}”).`,
  deny: `It matches your rule “${rule}”.`,
  allow: "It is not on your allow list.",
}[q.get("kind")] || `Rule “${rule}”.`;
document.getElementById("why").textContent = why;

function retry(rules) {
  if (url && rules && check(rules, url).allowed) location.replace(url);
}
chrome.storage.session.get("policyRules").then((s) => retry(s.policyRules));
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes.policyRules) retry(changes.policyRules.newValue);
});
