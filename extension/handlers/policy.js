// The user's site rules, enforced by the extension on the bridge's own
// tabs before it acts: the daemon checks the URLs a call names, but only
// the browser sees where a click or a redirect leads. policy.set (sent by
// the daemon after each hello and whenever the rules change) keeps them in
// chrome.storage.session, which outlives a service-worker restart but not
// the browser.
//
// Two layers, both only on the bridge's tabs (the tabs it created, the
// tabs their pages opened, the tabs it loaded a page into — never the
// user's own browsing):
//   1. declarativeNetRequest session rules scoped with tabIds: a denied
//      navigation (top frame or frame), and any other request to a denied
//      site (see ruleList), is blocked before it reaches the site. A blocked frame shows Chrome's error page; a blocked tab is
//      then sent to ui/blocked.html, which names the rule (webRequest's
//      onErrorOccurred below). A regexFilter or two per pattern
//      (siterules.js toRegexes). The rules block rather than redirect to
//      the blocked page: a redirect would need the page to be
//      web-accessible, and then any site could open or frame it.
//      The same rules, for main_frame requests only, also hold in every
//      tab the extension has not seen yet (excludedTabIds: every tab it
//      knows), when a page of a host the bridge's tabs show started the
//      request (initiatorDomains). A page in a bridge tab that opens a
//      new tab (window.open with noopener, a link with target=_blank
//      rel=noopener) makes a tab Chrome tells us of only after its first
//      request has gone; these rules are in place before it exists (issue
//      26 F7). See "New tabs" below for what they cost the user's own
//      tabs and how that is undone.
//   2. webNavigation, for what those rules cannot see: a tab whose first
//      navigation starts before its rules are installed (a new tab's
//      redirect), file: URLs (outside declarativeNetRequest), and the
//      few patterns toRegexes cannot express. Such a tab is sent to
//      ui/blocked.html as soon as the navigation is seen.
//
// What was stopped, and by which rule, is the extension's own record
// (handlers/stops.js), never read back from the blocked page's URL.
//
// The matching is handlers/siterules.js, a twin of internal/policy.
import { BridgeError, Codes } from "../protocol.js";
import { check, toRegexes } from "./siterules.js";
import * as stops from "./stops.js";

// ---- State: the rules and the bridge's tabs ----

let rules = { allow: [], deny: [], builtInDeny: [] };
const SAVE_RETRY_MS = 500; // a failed save is tried again after this, then twice as long
const SAVE_RETRY_MAX_MS = 30_000;
const tabs = new Set(); // the bridge's tabs, where the rules hold
let covered = new Set(); // the tabs the installed session rules name
const known = new Set(); // every tab the extension has seen (see New tabs)
const hosts = new Map(); // bridge tab -> the hosts its frames show
const touched = new Set(); // the user's tabs the recorder records (see recordFromStart)

const ready = Promise.all([chrome.storage.session.get(["policyRules", "policyTabs", "policyTouched"]), chrome.tabs.query({})]).then(async ([s, all]) => {
  if (s.policyRules) rules = s.policyRules;
  for (const t of all) known.add(t.id);
  for (const id of s.policyTabs || []) tabs.add(id);
  for (const id of s.policyTouched || []) touched.add(id);
  await Promise.all([...tabs].map(learnHosts));
  return sync();
}).catch((err) => console.error("browser-bridge: site rules not restored:", err));

// ---- Loads stranded at start-up ----
// Chromium holds the network requests of a browser starting with an
// extension that has the webRequest permission until that extension is
// ready, and a load begun then (the page the browser opens at start-up,
// a restored tab) is at times never let go: no request is sent, the tab
// keeps the URL as pending and says it is complete. (Seen with a bare
// manifest that asks for webRequest and has no code at all; a reload
// then loads the page.) So, soon after the worker starts, each tab in
// that state is reloaded, once. A load that is merely slow says it is
// loading and is left alone.
const STRANDED_CHECKS_MS = [1500, 4000];
async function unstrand() {
  const done = new Set();
  for (const ms of STRANDED_CHECKS_MS) {
    await new Promise((r) => setTimeout(r, ms));
    const all = await chrome.tabs.query({}).catch(() => []);
    for (const t of all) {
      if (done.has(t.id) || t.status === "loading" || !/^https?:/i.test(t.pendingUrl || "")) continue;
      done.add(t.id);
      await chrome.tabs.reload(t.id).catch(() => {});
    }
  }
}
unstrand();

// save keeps the rules and the tabs in chrome.storage.session for the
// worker's next start. It never fails: a store that refuses the write
// (over its quota, say) must not keep the rules from being enforced now
// (sync), so a failed save is logged and counted (saveFailures), and
// tried again, later and later, until one succeeds (a tab missing from
// the store would be out of the rules after a restart).
let saveFailures = 0;
let saveRetry = null;
let saveRetryMs = SAVE_RETRY_MS;
function save() {
  return chrome.storage.session.set({ policyRules: rules, policyTabs: [...tabs], policyTouched: [...touched] }).then(() => {
    saveRetryMs = SAVE_RETRY_MS;
  }, (err) => {
    saveFailures++;
    console.error("browser-bridge: site rules not saved for the worker's next start:", err);
    if (saveRetry !== null) return;
    saveRetry = setTimeout(() => {
      saveRetry = null;
      save();
    }, saveRetryMs);
    saveRetryMs = Math.min(2 * saveRetryMs, SAVE_RETRY_MAX_MS);
  });
}

// blockedPage is the page that stands in for a navigation the rules
// stopped. The daemon's guard recognises it (internal/daemon/ui.go). Its
// URL carries nothing: what it shows is stops.js's record.
function blockedPage() {
  return chrome.runtime.getURL("ui/blocked.html");
}

// stop sends a bridge tab to the blocked page, for url that the rules
// refused with dec, and records what was stopped first, so the page and
// the daemon find it.
async function stop(tabId, url, dec) {
  await stops.record(tabId, url, dec);
  await chrome.tabs.update(tabId, { url: blockedPage() }).catch(() => {});
}

// ruleSet is the session rules for the current rules on tabIds: deny
// patterns first (they win), then, with an allow list, the allowed
// patterns and a catch-all below them. Then the same for main_frame
// requests in the tabs not yet seen, started by a page of one of the
// bridge's hosts (see New tabs), from id first.
function ruleSet(tabIds) {
  const out = ruleList(tabIds && { resourceTypes: NAVIGATIONS, tabIds }, 1, tabIds && { resourceTypes: ALL_TYPES, tabIds });
  const from = initiators();
  if (from.length) out.push(...ruleList({ resourceTypes: ["main_frame"], excludedTabIds: [chrome.tabs.TAB_ID_NONE, ...known], initiatorDomains: from }, out.length + 1));
  return out;
}

// The request types of a navigation, and every type a page can send.
const NAVIGATIONS = ["main_frame", "sub_frame"];
const ALL_TYPES = [...NAVIGATIONS, "stylesheet", "script", "image", "font", "object", "xmlhttprequest", "ping", "csp_report", "media", "websocket", "webtransport", "webbundle", "other"];

// ruleList is ruleSet's rules on scope (the condition's other keys),
// numbered from id; the deny rules on denyScope when given, else on
// scope.
//
// In the bridge's tabs a deny rule holds for every request, not only
// navigations: a page the agent drives could otherwise read a denied
// site with the user's cookies through a stylesheet, an image, a fetch
// or a socket it adds. The allow list's catch-all stays on navigations:
// a page's own stylesheets, fonts and APIs often live on hosts the user
// never thought to list, and blocking them would break the pages the
// user did allow; what the list keeps the agent from is showing, reading
// and driving those sites.
function ruleList(scope, id, denyScope = scope) {
  const out = [];
  const condition = (regexFilter, on = scope) => ({ regexFilter, isUrlFilterCaseSensitive: true, ...on });
  const block = { type: "block" };
  for (const list of [rules.builtInDeny, rules.deny]) {
    for (const p of list || []) {
      for (const re of toRegexes(p)) out.push({ id: id + out.length, priority: 3, action: block, condition: condition(re, denyScope) });
    }
  }
  const allow = rules.allow || [];
  const res = allow.map((p) => toRegexes(p, "allow"));
  // A pattern the rules cannot express would be blocked by the catch-all:
  // then webNavigation alone enforces the allow list.
  if (allow.length && res.every((r) => r.length > 0)) {
    for (const re of res.flat()) out.push({ id: id + out.length, priority: 2, action: { type: "allow" }, condition: condition(re) });
    out.push({ id: id + out.length, priority: 1, action: block, condition: condition("^(?:https?|wss?)://.*$") });
  }
  return out;
}

// ---- New tabs ----
// A tab is named in a session rule only once Chrome has told us of it
// (tabs.onCreated), and the first request of a tab a page opened has
// gone by then. So the rules also hold, for top-level loads only, in
// every tab the extension has not seen (all but the known ones), when a
// page of a host the bridge's tabs show started the load; the new tab is
// then followed (onCreated) and shows the blocked page.
//
// The cost to the user's own browsing: a tab of the user's that is
// opened, in the few milliseconds before onCreated has excluded it, by a
// page on one of those hosts (the user browses the same site as the
// agent) and whose first load is a denied site is blocked too. healed
// below loads it again, once, as soon as it is known to be the user's:
// the user sees an error page for a moment, then the page. A load the
// user starts without a page (typed, a bookmark) has no initiator and is
// never caught. The choice against the alternatives: rules on every new
// tab whatever opened it would catch all of the user's new tabs in that
// window; opening the bridge's pages with an opener only (so that Chrome
// reports the tab before its load) is not ours to decide, the page does.

// initiators are the hosts the bridge's tabs show, as initiatorDomains
// takes them (lower-case ASCII: URL.hostname is punycode already; an
// IPv6 address, which it would refuse, is left out). None while the
// user has no rules of their own: the built-in ones name no web page.
function initiators() {
  if (!userRules()) return [];
  const out = new Set();
  for (const [id, set] of hosts) {
    if (!tabs.has(id)) continue;
    for (const h of set) if (/^[a-z0-9.-]+$/.test(h)) out.add(h);
  }
  return [...out].sort();
}

// hostOf is url's host, or "" for a URL without one.
function hostOf(url) {
  try {
    const u = new URL(url);
    return /^(https?|wss?):$/.test(u.protocol) ? u.hostname : "";
  } catch (_) {
    return "";
  }
}

// learnHosts records the hosts the frames of bridge tab tabId show.
async function learnHosts(tabId) {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
  const set = new Set(frames.map((f) => hostOf(f.url)).filter(Boolean));
  hosts.set(tabId, set);
}

// shown notes that a frame of a bridge tab committed url; a top frame
// starts the tab's hosts anew. The rules are installed again when the
// hosts change.
function shown(d) {
  if (!tabs.has(d.tabId)) return;
  const h = hostOf(d.url);
  const set = d.frameId === 0 ? new Set() : hosts.get(d.tabId) || new Set();
  if (h) set.add(h);
  const before = initiators().join(" ");
  hosts.set(d.tabId, set);
  if (initiators().join(" ") !== before) sync();
}

const healed = new Set(); // the user's tabs loaded again after a catch
const born = new Map(); // a new tab -> when Chrome told us of it

// heal loads again, once, a page the rules for unseen tabs blocked in a
// tab that turned out to be the user's (not followed once Chrome told us
// of it and of what opened it). Another extension's block of the same
// URL is met again by the reload: once, no loop.
async function heal(d) {
  await new Promise((r) => setTimeout(r, HEAL_AFTER_MS)); // onCreatedNavigationTarget may follow it yet
  const age = Date.now() - (born.get(d.tabId) ?? -Infinity);
  if (tabs.has(d.tabId) || healed.has(d.tabId) || !(age < HEAL_WITHIN_MS) || check(rules, d.url).allowed) return;
  healed.add(d.tabId);
  known.add(d.tabId);
  await sync(); // the tab is excluded now
  await chrome.tabs.update(d.tabId, { url: d.url }).catch(() => {});
}
const HEAL_AFTER_MS = 300;
// Only a tab this new can have been caught (the rules leave a tab once it
// is known, within milliseconds); an older one was blocked by someone
// else, or by a rule that holds there anyway.
const HEAL_WITHIN_MS = 5000;

// sync installs the session rules for the current rules and tabs, one
// update at a time.
let syncing = Promise.resolve();
function sync() {
  syncing = syncing.then(async () => {
    const ids = [...tabs];
    const old = await chrome.declarativeNetRequest.getSessionRules();
    let add = ids.length ? ruleSet(ids) : [];
    const marked = [...new Set([...ids, ...touched])];
    if (marked.length) add.push(markRule(add.length + 1, { tabIds: marked }));
    for (const p of opening.values()) add.push(markRule(add.length + 1, { requestDomains: [p.host], excludedTabIds: p.except }, ["main_frame"]));
    const removeRuleIds = old.map((r) => r.id);
    try {
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds, addRules: add });
    } catch (err) {
      // Chrome refused the rules for unseen tabs (a host it will not take
      // as an initiator, say): the bridge's own tabs keep theirs.
      const own = add.filter((r) => r.condition.tabIds);
      if (own.length === add.length) throw err;
      console.error("browser-bridge: the rules for new tabs not installed:", err);
      add = own;
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds, addRules: add });
    }
    covered = new Set(add.some((r) => r.condition.tabIds) ? ids : []);
  }).catch((err) => console.error("browser-bridge: site rules not installed:", err));
  return syncing;
}

// ---- The recorder's marker ----
// The page's half of the recorder (page/record-main.js) runs from a
// document's first script only in the documents of the tabs it records
// from their start: the bridge's own, and the user's tabs the bridge has
// touched (handlers/record.js). It knows them by a Server-Timing entry
// this rule adds to their documents' responses, which it reads at
// document_start before the page's first script; in the user's other
// tabs it changes nothing. Of the highest priority: an allow rule of
// the user's list would otherwise keep it from applying (a block still
// blocks).
const MARK = "browser-bridge-record";
function markRule(id, scope, resourceTypes = NAVIGATIONS) {
  return { id, priority: 4, condition: { resourceTypes, ...scope },
    action: { type: "modifyHeaders", responseHeaders: [{ header: "Server-Timing", operation: "append", value: MARK }] } };
}

// A tab the bridge creates with a URL (and no site rules that make it
// create it empty first, see followVerbs) is named in a rule only once
// it exists, after its first request has gone. While it is created, the
// marker also holds for a top-level load from that URL's host in any tab
// that did not exist before (opening: host -> {host, except, n}). A load
// that redirects elsewhere is not covered: its page gets the recorder's
// page half when its document asks (handlers/record.js, record.main).
const opening = new Map();

async function markOpening(url) {
  let host = "";
  try {
    const u = new URL(url);
    if (/^https?:$/.test(u.protocol)) host = u.hostname;
  } catch (_) { /* not a URL: no load to mark */ }
  if (!/^[a-z0-9.-]+$/.test(host)) return false;
  await ready;
  const p = opening.get(host) || { host, except: [chrome.tabs.TAB_ID_NONE, ...known], n: 0 };
  p.n++;
  opening.set(host, p);
  await sync();
  return host;
}

function unmarkOpening(host) {
  const p = opening.get(host);
  if (p && --p.n <= 0) opening.delete(host);
}

// recordFromStart marks the documents of tabId from now on.
export async function recordFromStart(tabId) {
  await ready;
  if (!Number.isInteger(tabId) || tabId < 0 || tabs.has(tabId) || touched.has(tabId)) return;
  touched.add(tabId);
  save();
  await sync();
}

// follow puts tabId under the rules; it resolves once they are installed.
function follow(tabId) {
  if (!Number.isInteger(tabId) || tabId < 0 || tabs.has(tabId)) return syncing;
  tabs.add(tabId);
  known.add(tabId);
  save();
  return learnHosts(tabId).then(sync);
}

// bridgeTab says whether tabId is one of the bridge's tabs, once the set
// is restored (handlers/readiness.js puts the action scripts in those).
export async function bridgeTab(tabId) {
  await ready;
  return tabs.has(tabId);
}

// ---- Verbs ----

// set is policy.set: the daemon's rules, kept for this browser session.
export async function set(msg) {
  const list = (name) => {
    const v = msg[name] ?? [];
    if (!Array.isArray(v) || !v.every((p) => typeof p === "string")) throw new BridgeError(Codes.invalidArgument, `${name} must be a list of patterns`);
    return v;
  };
  await ready;
  rules = { allow: list("allow"), deny: list("deny"), builtInDeny: list("builtInDeny"), refuseProgramEvaluate: msg.refuseProgramEvaluate === true };
  // The rules are enforced whether or not the store takes them.
  await Promise.all([sync(), save()]);
  return { ok: true };
}

// followVerbs wraps the verbs that open or load tabs (in dispatch.js's
// table) so that the rules hold in those tabs before their pages load.
// A tab cannot be named in a session rule before Chrome creates it, so
// while the user has site rules, a tab or window the bridge creates with
// a URL is created empty, put under the rules, and then loaded: a
// redirect of its first page into a denied site is stopped like any
// other. (Without site rules it is created with its URL, and the
// recorder's marker holds for that URL while it is: see markOpening.)
export function followVerbs(handlers) {
  const navigate = handlers["tab.navigate"];
  for (const verb of ["tab.create", "window.create"]) {
    const create = handlers[verb];
    if (!create) continue;
    handlers[verb] = async (msg, ctx) => {
      await ready;
      const url = typeof msg.url === "string" && msg.url ? msg.url : null;
      // (A door without tab.navigate — a program's — follows its tabs
      // once they exist.)
      if (!url || !userRules() || !navigate) {
        let marked = url ? await markOpening(url) : false;
        let res;
        try {
          res = await create(msg, ctx);
        } catch (e) {
          // The host-wide rule made for this tab must not outlive it.
          if (marked) {
            unmarkOpening(marked);
            marked = false;
            await sync();
          }
          throw e;
        } finally {
          if (marked) unmarkOpening(marked);
        }
        await follow(res && res.tabId);
        if (marked) await sync();
        return res;
      }
      // about:blank, not no URL: that would be the New Tab page.
      const blank = await create({ ...msg, url: "about:blank", waitMs: 0 }, ctx);
      await follow(blank.tabId);
      const loaded = await navigate({ tabId: blank.tabId, url, waitMs: msg.waitMs }, ctx);
      return { ...blank, ...loaded };
    };
  }
  const contextCreate = handlers["context.create"];
  if (contextCreate) {
    handlers["context.create"] = async (msg, ctx) => {
      const res = await contextCreate(msg, ctx);
      await follow(res && res.tabId);
      return res;
    };
  }
  if (navigate) {
    handlers["tab.navigate"] = async (msg, ctx) => {
      await ready;
      await follow(msg.tabId);
      return navigate(msg, ctx);
    };
  }
}

// userRules says whether the user has rules of their own (the built-in
// ones name pages no redirect can reach).
function userRules() {
  return (rules.deny || []).length + (rules.allow || []).length > 0;
}

// DRIVING are the verbs that read or drive a page: the extension checks
// the rules against the tab's URL before it runs them, whichever door
// they came through (guardVerbs).
const DRIVING = new Set(["page.run", "cdp", "cdp.batch", "cdp.attach", "dom.setFiles", "dom.chooseFiles", "trace.record", "trace.nodes"]);

// guardVerbs wraps the page-driving handlers of dispatch.js's table: a tab
// that shows a denied site, or the blocked page that stopped one, is
// refused with blocked_by_policy naming the rule (protected_page for the
// browser's own pages, as Chrome would refuse them). The handler gets the
// tab as the guard judged it, as ctx.tab (cdp.batch's expectURL compares
// with it, without a second look).
export function guardVerbs(handlers) {
  for (const verb of DRIVING) {
    const h = handlers[verb];
    if (!h) continue;
    handlers[verb] = async (msg, ctx) => {
      if (Number.isInteger(msg && msg.tabId)) {
        const tab = await chrome.tabs.get(msg.tabId);
        refuse(tab.id, tab.url || tab.pendingUrl || "");
        if (verb === "page.run") return guardedRun(h, msg, { ...ctx, tab });
        if (verb === "cdp.batch") return guardedBatch(h, msg, { ...ctx, tab });
        return h(msg, { ...ctx, tab });
      }
      return h(msg, ctx);
    };
  }
}

// ---- Frames ----
// A page the rules allow may frame a site they deny: a user's own tab,
// which the session rules do not cover (in the bridge's tabs they block
// such a frame before it loads). The bridge's page scripts do not run in
// a frame that shows a denied site, nor in any frame inside one (an
// about:blank or srcdoc frame it filled holds its content); an answer
// from one that got there meanwhile is replaced by the refusal; and a
// cdp.batch whose check or look is aimed into one (a click on an element
// in it) is refused before its input goes out. The daemon judges the
// answers' URLs again (internal/actions refuseFrames): a refusal here is
// an answer with a code and no value, which it leaves out and names, as
// extract's frames[] shows.

// frameRefused says why the rules refuse a frame at url, or "". Only web
// pages are judged, as the daemon does: the browser's and the
// extension's pages are Chrome's to refuse, file: has the upload rules,
// and a blob: URL is its maker's, whose origin it carries.
function frameRefused(url) {
  let u = String(url || "");
  if (u.startsWith("blob:")) u = u.slice(5);
  if (!/^https?:/i.test(u)) return "";
  const dec = check(rules, u);
  return dec.allowed ? "" : dec.why;
}

// refusal is the answer that stands in for a frame's. The URL is the
// page's choice: quoted.
function refusal(frameId, documentId, url, why) {
  return { frameId, documentId, url, code: Codes.blockedByPolicy, error: `not read: the frame shows ${JSON.stringify(url)}, which the bridge may not touch: ${why}` };
}

// deniedFrames maps the frames of the tab the rules refuse (a frame at a
// denied URL, and every frame inside one) to their refusal; all is every
// frame. Empty, without a look, while the user has no rules of their own.
async function deniedFrames(tabId) {
  if (!userRules()) return { denied: new Map(), all: null };
  const all = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
  const byId = new Map(all.map((f) => [f.frameId, f]));
  const denied = new Map();
  const judge = (f, depth) => {
    if (denied.has(f.frameId)) return denied.get(f.frameId);
    let why = frameRefused(f.url);
    const parent = byId.get(f.parentFrameId);
    if (!why && parent && depth < 64) {
      const up = judge(parent, depth + 1);
      if (up) why = `it is inside a frame the bridge may not touch (${up.url}): ${up.why}`;
    }
    const out = why ? { url: f.url, why, documentId: f.documentId } : null;
    if (out) denied.set(f.frameId, out);
    return out;
  };
  for (const f of all) judge(f, 0);
  return { denied, all };
}

// screen replaces the answers of refused frames in a page script's
// frames: those denied before it ran, and those whose page is denied now.
function screen(frames, denied) {
  if (!Array.isArray(frames)) return frames;
  return frames.map((f) => {
    if (!f || !Number.isInteger(f.frameId)) return f;
    const d = denied.get(f.frameId);
    if (d) return refusal(f.frameId, f.documentId, d.url, d.why);
    const why = frameRefused(f.url);
    return why ? refusal(f.frameId, f.documentId, f.url, why) : f;
  });
}

// guardedRun is page.run kept out of refused frames. With one frame
// named, that frame must pass; with every frame, the script runs in each
// document that passed, one by one (by documentId: a frame that navigated
// since is not run into, as its document is another; a document the
// script cannot enter, a Chrome error page, or one that is gone, is left
// out, as allFrames leaves it). Without a refused frame it runs as asked,
// and its answers are screened all the same.
async function guardedRun(h, msg, ctx) {
  const { denied, all } = await deniedFrames(msg.tabId);
  if (denied.size === 0) {
    const res = await h(msg, ctx);
    return res && { ...res, frames: screen(res.frames, denied) };
  }
  if (!msg.allFrames) {
    const id = Number.isInteger(msg.frameId) ? msg.frameId : 0;
    const d = denied.get(id);
    if (d) return { frames: [refusal(id, d.documentId, d.url, d.why)] };
    const res = await h(msg, ctx);
    return res && { ...res, frames: screen(res.frames, denied) };
  }
  const docs = all.filter((f) => !denied.has(f.frameId) && f.documentId).map((f) => f.documentId);
  const runs = await Promise.all(docs.map((doc) => h({ ...msg, allFrames: false }, { ...ctx, documentIds: [doc] }).catch(() => null)));
  const out = screen(runs.flatMap((r) => (r && r.frames) || []), denied);
  for (const [frameId, d] of denied) out.push(refusal(frameId, d.documentId, d.url, d.why));
  return { frames: out };
}

// guardedBatch is cdp.batch refused when its check or its look is aimed
// into a refused frame (the commands would be input into it), and with
// the answers of both screened.
async function guardedBatch(h, msg, ctx) {
  const { denied } = await deniedFrames(msg.tabId);
  const aimed = [...((msg.check && Array.isArray(msg.check.frames)) ? msg.check.frames.map((f) => f && f.frameId) : []),
    ...(msg.then && typeof msg.then === "object" && !msg.then.allFrames ? [Number.isInteger(msg.then.frameId) ? msg.then.frameId : 0] : [])];
  for (const id of aimed) {
    const d = denied.get(id);
    if (d) throw new BridgeError(Codes.blockedByPolicy, `frame ${id} of tab ${msg.tabId} shows ${JSON.stringify(d.url)}, which the bridge may not touch: ${d.why}; act on the page's own elements`, [msg.tabId]);
  }
  const res = await h(msg, ctx);
  if (!res) return res;
  const out = { ...res, check: screen(res.check, denied) };
  if (res.then) out.then = { ...res.then, frames: screen(res.then.frames, denied) };
  return out;
}

function refuse(tabId, url) {
  if (url.startsWith(blockedPage())) {
    // The stop as recorded; the URL of the page is not read (see stops.js).
    // The stopped address is the page's text, so it is quoted.
    const s = stops.get(tabId);
    const what = s ? `was stopped from loading ${JSON.stringify(s.url)} by ${s.kind === "allow" ? "the allow list" : `the site rule ${JSON.stringify(s.rule)}`}` : "shows the bridge's blocked page";
    throw new BridgeError(Codes.blockedByPolicy, `tab ${tabId} ${what}; open an allowed page in it, or ask the user to change the rules (browser-bridge policy list)`, [tabId]);
  }
  // The extension's own pages are the user's controls (the Pause switch,
  // the site rules, the answers to the bridge's questions) and run with
  // all of its rights: Chrome keeps scripts out of them, but not the
  // debugger (checked in Chromium 156: attached to ui/workspace.html,
  // Runtime.evaluate sees chrome.tabs). No door drives one.
  if (url.startsWith(chrome.runtime.getURL(""))) {
    throw new BridgeError(Codes.protectedPage, `tab ${tabId} shows a page of the Browser Bridge extension, which no action may read or drive; act in another tab (a workspace's page: open a page in its workspace)`, [tabId]);
  }
  const dec = check(rules, url);
  if (dec.allowed) return;
  throw new BridgeError(dec.kind === "builtin" ? Codes.protectedPage : Codes.blockedByPolicy, `tab ${tabId} shows ${url}, which the bridge may not touch: ${dec.why}`, [tabId]);
}

// ---- Events ----

// A tab a bridge tab's page opened (a link to _blank, window.open) is the
// bridge's too.
// Every other new tab is known from now on: the rules for unseen tabs
// leave it (see New tabs).
// These and enforce wait for the restored state (ready): the event that
// woke a stopped service worker must not find the bridge's tabs empty —
// a page of the agent's that opened a tab then would escape the rules.
chrome.tabs.onCreated.addListener(async (tab) => {
  born.set(tab.id, Date.now());
  setTimeout(() => born.delete(tab.id), HEAL_WITHIN_MS + HEAL_AFTER_MS);
  await ready;
  known.add(tab.id);
  if (tabs.has(tab.openerTabId)) follow(tab.id);
  else if (initiators().length) sync();
});
chrome.webNavigation.onCreatedNavigationTarget.addListener(async (d) => {
  await ready;
  if (tabs.has(d.sourceTabId)) follow(d.tabId);
});
chrome.tabs.onRemoved.addListener(async (tabId) => {
  await ready;
  known.delete(tabId);
  healed.delete(tabId);
  hosts.delete(tabId);
  if (tabs.delete(tabId) | touched.delete(tabId)) {
    save();
    sync();
  }
});

// enforce sends a bridge tab whose top frame goes to a denied URL to the
// blocked page. Before the navigation it leaves http(s) to the session
// rules when they cover the tab (they block it without a round trip, and
// blocked() below shows the blocked page); once it has committed,
// anything denied that got through is replaced. A tab that commits
// anything else after the blocked page has its stop forgotten.
async function enforce(d, committed) {
  if (d.frameId !== 0) return;
  await ready;
  if (!tabs.has(d.tabId)) return;
  if (d.url.startsWith(chrome.runtime.getURL(""))) {
    // Our own pages: the blocked page itself.
    if (committed && d.url.startsWith(blockedPage())) stops.shown(d.tabId);
    return;
  }
  const dec = check(rules, d.url);
  // The browser's own pages (a new tab's chrome://newtab) are Chrome's to
  // refuse to extensions, and no web page can lead to them.
  if (dec.allowed || (dec.kind === "builtin" && !/^(https?|wss?):/i.test(d.url))) {
    if (committed) stops.left(d.tabId);
    return;
  }
  if (!committed && /^(https?|wss?):/i.test(d.url) && covered.has(d.tabId) && expressible(dec, d.url)) return;
  stop(d.tabId, d.url, dec);
}

// blocked shows the blocked page in a bridge tab whose page load the
// session rules blocked. webRequest, not webNavigation: its URL is the
// one that was blocked, after any redirects. (Another extension's block
// is not ours to explain: the rules must refuse the URL too.)
function blocked(d) {
  if (d.type !== "main_frame" || !/ERR_BLOCKED_BY_CLIENT/.test(d.error || "")) return;
  if (!tabs.has(d.tabId)) {
    if (d.tabId >= 0) heal(d);
    return;
  }
  const dec = check(rules, d.url);
  if (!dec.allowed) stop(d.tabId, d.url, dec);
}

// expressible says whether the session rules stop url, which the rules
// refused with dec, before it loads: a deny rule's regexes must match
// url itself (no regex resolves ".." behind an encoded slash, say).
function expressible(dec, url) {
  if (dec.kind === "allow") return (rules.allow || []).every((p) => toRegexes(p, "allow").length > 0);
  return toRegexes(dec.rule).some((re) => {
    try {
      return new RegExp(re).test(url);
    } catch (_) {
      return false; // RE2 syntax JavaScript does not take: act ourselves
    }
  });
}

chrome.webNavigation.onBeforeNavigate.addListener((d) => enforce(d, false));
chrome.webNavigation.onCommitted.addListener((d) => {
  enforce(d, true);
  ready.then(() => shown(d));
});
chrome.webRequest.onErrorOccurred.addListener((d) => { ready.then(() => blocked(d)); }, { urls: ["<all_urls>"], types: ["main_frame"] });

// decide is the rules' decision on url (handlers/siterules.js check).
export function decide(url) {
  return check(rules, url);
}

// programScriptsOff says whether the user turned off programs' scripts
// in pages (Runtime.evaluate and callFunctionOn on the program door).
export function programScriptsOff() {
  return !!rules.refuseProgramEvaluate;
}

// For the extension's page: the rules and how many tabs they hold.
export function summary() {
  return { rules, tabs: tabs.size, saveFailures };
}
