// chrome.debugger primitives (CDP 1.3). The `cdp` and `cdp.batch` verbs
// are a door to the debugger, and each door checks the methods sent
// through it with its own policy, which the transport chooses (the
// door's cdpPolicy, see dispatch.js and transport/session.js). The
// actions door — the daemon's actions — is an allow-list of exactly what
// the actions send (actionsOnly below); anything else is refused with
// method_not_allowed (docs/design.md#wire-protocol: no cookies or storage, no file setting
// outside upload, nothing beyond the tab — and, more than that, nothing
// the bridge has no action for). The handlers' own CDP calls in this folder (Page.enable on attach,
// the DOM, Target and Runtime calls of upload in files.js) are code shipped
// in the extension and do not pass through the door. The program door has
// its own cdp handler and deny-list (handlers/programs.js).
//
// Attachment hygiene: attaching shows Chrome's "started debugging this
// browser" bar on every tab of every window (and shrinks every viewport by
// its height), so the bridge attaches only to the tabs an action needs and
// detaches after IDLE_MS without use — a burst of actions keeps one
// attachment instead of flickering the bar per command. "Without use"
// counts from the end of the last command: the idle timer is armed only
// when no command to the tab is in flight, so a slow command (a large
// screenshot, a page that takes long to answer) is never cut off. A
// program's attachment (Hive's cdp.attach) is pinned instead: it lasts
// until cdp.detach, because the program expects the events and the
// domains it enabled to stay.
import { BridgeError, Codes } from "../protocol.js";
import { cancelled, info, intArg } from "./tabinfo.js";
import { run as pageRun } from "./page.js";
import { netState } from "./readiness.js";

const IDLE_MS = 5000;
const ENABLE_WAIT_MS = 5000;

const attached = new Map(); // tabId -> idle timer (null while commands are in flight)
const inflight = new Map(); // tabId -> number of commands in flight
const userCancelled = new Set(); // tabs whose debugging the user cancelled
const pinned = new Set(); // tabs a program attached: no idle detach
// kept: tabId -> what to send again whenever the bridge attaches to the
// tab (an emulation of viewport.js, which Chrome drops with the session
// that set it); the attachment is kept while it is set: no idle detach.
const kept = new Map();
// Another debugger (DevTools, another extension, a CDP client) may be
// attached to a tab as well: Chrome lets several clients in, and the
// bridge's commands work beside it — unless it has paused the page at a
// breakpoint, which then answers nobody. foreign: tabs another debugger
// was attached to when the bridge attached (see debuggedByOthers).
const foreign = new Set();
// attaching: tabId -> the attach in progress, which a second command to
// the tab joins instead of attaching again.
const attaching = new Map();

// Dialogs (alert, confirm, prompt, beforeunload) stop the page: the input
// event that opened one does not finish until someone answers it. The
// Page domain tells us when one opens, so a command can return at once
// and say so instead of hanging until its deadline.
const dialogs = new Map(); // tabId -> {type, message, defaultPrompt}
const dialogWaiters = new Map(); // tabId -> Set of callbacks

chrome.debugger.onEvent.addListener((source, method, params) => {
  const tabId = source.tabId;
  if (method === "Page.javascriptDialogOpening") {
    const d = { type: params.type, message: String(params.message || "").slice(0, 500), defaultPrompt: params.defaultPrompt || "" };
    dialogs.set(tabId, d);
    for (const cb of dialogWaiters.get(tabId) || []) cb(d);
  } else if (method === "Page.javascriptDialogClosed") {
    dialogs.delete(tabId);
    // The idle detach skipped this tab while the dialog was open.
    if (attached.has(tabId)) touch(tabId);
  }
});

// untilDialog resolves when a dialog is open on the tab; cancel() drops
// the waiter.
export function untilDialog(tabId) {
  let cb;
  const promise = new Promise((resolve) => {
    cb = (d) => resolve({ __dialog: d });
    if (dialogs.has(tabId)) return cb(dialogs.get(tabId));
    if (!dialogWaiters.has(tabId)) dialogWaiters.set(tabId, new Set());
    dialogWaiters.get(tabId).add(cb);
  });
  return { promise, cancel: () => dialogWaiters.get(tabId)?.delete(cb) };
}

chrome.tabs.onRemoved.addListener((tabId) => {
  interrupted.delete(tabId);
  kept.delete(tabId);
  dialogs.delete(tabId);
  dialogWaiters.delete(tabId);
  userCancelled.delete(tabId);
  lastChange.delete(tabId);
});

chrome.debugger.onDetach.addListener((source, reason) => {
  dialogs.delete(source.tabId);
  pinned.delete(source.tabId);
  foreign.delete(source.tabId);
  clearTimeout(attached.get(source.tabId));
  attached.delete(source.tabId);
  // The user pressed Cancel on the debugging bar: remember it so the
  // failing command says so instead of something cryptic.
  if (reason === "canceled_by_user") userCancelled.add(source.tabId);
});

// ACTIONS_METHODS: the CDP methods the daemon's actions send through the
// native door (internal/actions; extension/verbs_test.go checks both ways
// that this list and the Go side's methods are the same). Names match
// exactly, case included: Chrome's canonical names.
const ACTIONS_METHODS = new Set([
  // click, press, type: trusted input (the page sees isTrusted),
  // sent in order by cdp.batch; insertText is type's text.
  "Input.dispatchMouseEvent",
  "Input.dispatchKeyEvent",
  "Input.insertText",
  // Where a child frame's <iframe> is, transforms included: a hit test
  // at a point over it, the <iframe> of a same-process frame's node, and
  // the corners of its boxes (internal/actions/geometry.go).
  "DOM.getNodeForLocation",
  "DOM.getFrameOwner",
  "DOM.getBoxModel",
  "Page.getFrameTree",
  // Dialogs: an alert, confirm, prompt or beforeunload stops the page
  // until it is answered; every action answers one it meets.
  "Page.handleJavaScriptDialog",
  // screenshot: the capture itself, and the document's size in CSS and
  // device pixels for a whole-page shot (Chrome's limits are in device
  // pixels). No Runtime.evaluate: the daemon never runs an expression in
  // a page.
  "Page.captureScreenshot",
  "Page.getLayoutMetrics",
  // pdf: the page printed, as Chrome's print preview would.
  "Page.printToPDF",
  // network: the body of the tab's current document, which the page's
  // scripts never read (internal/actions/record.go).
  "Page.getResourceContent",
]);

// actionsOnly is the actions door's policy: it throws unless method is on
// ACTIONS_METHODS. A policy is a function of the method name that throws
// a BridgeError to refuse; the program door has its own, a deny-list
// (handlers/programs.js).
export function actionsOnly(method) {
  checkShape(method);
  if (!ACTIONS_METHODS.has(method)) {
    throw new BridgeError(Codes.methodNotAllowed, `CDP method ${method} is not allowed through the bridge: it sends only the methods its own actions need; use the bridge's actions (click, type, press, screenshot, upload, ...) instead`);
  }
}

export function checkShape(method) {
  if (typeof method !== "string" || !/^[A-Za-z]+\.[A-Za-z]+$/.test(method)) {
    throw new BridgeError(Codes.invalidArgument, "method must look like Domain.method");
  }
}

// policyOf is the door's policy from the command's ctx; without one, the
// strictest (a door must choose to be more open).
function policyOf(ctx) {
  const policy = ctx?.door?.cdpPolicy;
  return typeof policy === "function" ? policy : actionsOnly;
}

// pin keeps the tab's attachment until detach (or the tab or the
// debugger goes); unpin lets it idle out again.
export function pin(tabId) {
  pinned.add(tabId);
  if (attached.has(tabId)) touch(tabId);
}

export function unpin(tabId) {
  if (!pinned.delete(tabId)) return;
  if (attached.has(tabId)) touch(tabId);
}

// keep keeps the tab's attachment while reapply is set (null: no more),
// and has reapply run first whenever the bridge attaches to the tab
// anew (see viewport.js).
export function keep(tabId, reapply) {
  if (reapply) kept.set(tabId, reapply);
  else kept.delete(tabId);
  if (attached.has(tabId)) touch(tabId);
}

export function isAttached(tabId) {
  return attached.has(tabId);
}

// touch restarts the idle timer of an attached tab; while commands to the
// tab are in flight, or while a program holds it, there is none (the last
// command to finish arms it).
function touch(tabId) {
  clearTimeout(attached.get(tabId));
  if ((inflight.get(tabId) || 0) > 0 || pinned.has(tabId) || kept.has(tabId)) {
    attached.set(tabId, null);
    return;
  }
  attached.set(tabId, setTimeout(() => {
    // A dialog still open keeps the attachment: it is how the bridge
    // knows of the dialog and answers it on the next command.
    if ((inflight.get(tabId) || 0) > 0 || dialogs.has(tabId) || pinned.has(tabId) || kept.has(tabId)) return;
    attached.delete(tabId);
    foreign.delete(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }, IDLE_MS));
}

// hold runs fn with the tab counted as in use: no idle detach meanwhile.
export async function hold(tabId, fn) {
  inflight.set(tabId, (inflight.get(tabId) || 0) + 1);
  if (attached.has(tabId)) {
    clearTimeout(attached.get(tabId));
    attached.set(tabId, null);
  }
  try {
    return await fn();
  } finally {
    const n = (inflight.get(tabId) || 1) - 1;
    if (n > 0) inflight.set(tabId, n);
    else inflight.delete(tabId);
    if (attached.has(tabId)) touch(tabId);
  }
}

// attach attaches the debugger to the tab and reports a dialog open on it
// (which stops the page until someone answers it): the daemon answers it
// before it acts, and looks for one this way when the page stops
// answering.
export async function attach(msg) {
  const tabId = intArg(msg, "tabId");
  // waitMs shortens the wait for an answer from the tab: a caller that has
  // already waited on the page (a page script it holds) spends only the
  // rest of its bound here, never more than the usual wait.
  const wait = Number.isInteger(msg.waitMs) && msg.waitMs > 0 ? Math.min(msg.waitMs, ENABLE_WAIT_MS) : ENABLE_WAIT_MS;
  await ensureAttached(tabId, wait);
  // settle: a batch command interrupted by a dialog (a click whose handler
  // showed it) may show another as soon as that is answered (a loop of
  // alerts). Wait until the command finishes or the next dialog opens.
  const p = msg.settle && interrupted.get(tabId);
  if (p && !dialogs.has(tabId)) {
    const dialog = untilDialog(tabId);
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(resolve, SETTLE_WAIT_MS); });
    const first = await Promise.race([p.then(() => "done"), dialog.promise, late]);
    clearTimeout(timer);
    dialog.cancel();
    if (first === "done") interrupted.delete(tabId);
  }
  return { ok: true, dialog: dialogs.get(tabId) || null };
}

// interrupted: tabId -> the batch command a dialog interrupted, settled
// (never rejected) when it finishes.
const interrupted = new Map();
const SETTLE_WAIT_MS = 5000;

// A service worker that stops (Chrome stops idle or crashed workers, an
// update restarts them) leaves its debugger sessions attached, and the
// new worker knows nothing of them: no idle timer would ever detach them,
// and the "started debugging" bar would stay for good (seen on Chromium
// 156). So a worker detaches them when it starts, before it attaches
// anything itself. chrome.debugger.detach touches only this extension's
// own sessions: for a tab that DevTools or another extension debugs it
// fails with "not attached", and theirs stays.
const leftOver = chrome.debugger.getTargets()
  .then((ts) => Promise.all(ts
    .filter((t) => t.attached && Number.isInteger(t.tabId))
    .map((t) => chrome.debugger.detach({ tabId: t.tabId }).catch(() => {}))))
  .catch(() => {});

// debuggedByOthers lists the tabs that a debugger other than the
// bridge's is attached to. Chrome marks a target attached when any client
// is, so for a tab the bridge itself is attached to, it is what Chrome
// said when the bridge attached.
export async function debuggedByOthers() {
  await leftOver;
  const targets = await chrome.debugger.getTargets();
  return targets
    .filter((t) => t.attached && Number.isInteger(t.tabId))
    .filter((t) => foreign.has(t.tabId) || !(attached.has(t.tabId) || attaching.has(t.tabId)))
    .map((t) => t.tabId);
}

export async function ensureAttached(tabId, wait = ENABLE_WAIT_MS) {
  await leftOver;
  if (attached.has(tabId)) {
    touch(tabId);
    return;
  }
  if (attaching.has(tabId)) return attaching.get(tabId);
  const p = attachAndEnable(tabId, wait).finally(() => attaching.delete(tabId));
  attaching.set(tabId, p);
  return p;
}

async function attachAndEnable(tabId, wait) {
  userCancelled.delete(tabId);
  await attachNoting(tabId);
  // Page events report dialogs (see untilDialog); a dialog already open
  // is announced again on enable — but while one is open, enable itself
  // gets no answer until the dialog closes: go on as soon as either comes.
  const dialog = untilDialog(tabId);
  let timer;
  const enabled = chrome.debugger.sendCommand({ tabId }, "Page.enable").then(() => "enabled", () => "enabled");
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve("late"), wait); });
  const first = await Promise.race([enabled, dialog.promise, late]);
  clearTimeout(timer);
  dialog.cancel();
  touch(tabId);
  // An emulation set before this attachment (one the user's Cancel on the
  // debugging bar ended) is set again before any command goes out.
  if (first === "enabled" && kept.has(tabId)) await kept.get(tabId)().catch(() => {});
  if (first === "late") {
    // Chrome tells a debugger only of the dialogs that open while it is
    // attached: one that opened before holds the page unseen.
    throw new BridgeError(Codes.timeout, "the tab does not answer the debugger: a dialog (alert, confirm, prompt) that opened while the bridge was not attached may hold it — the bridge cannot see or answer such a dialog, so ask the user to (handoff) — or the page is frozen; else reload or close the tab");
  }
}

// attachNoting attaches the bridge's debugger to the tab, noting first
// whether another one is attached already.
async function attachNoting(tabId) {
  // The look at the targets goes out together with the attach, not a
  // round trip before it: Chrome runs an extension's calls in the order
  // they were made, so the look still sees the tab as it was before ours.
  const targets = chrome.debugger.getTargets().catch(() => []);
  const attaching = chrome.debugger.attach({ tabId }, "1.3");
  attaching.catch(() => {}); // read below, once the look is noted
  const target = (await targets).find((t) => t.tabId === tabId);
  if (target && target.attached) foreign.add(tabId);
  else foreign.delete(tabId);
  try {
    await attaching;
  } catch (err) {
    const m = String(err && err.message);
    if (/another debugger|already attached/i.test(m) && !/already attached to the tab with id/i.test(m)) {
      throw new BridgeError(Codes.blockedByPolicy, `another debugger (DevTools or another extension) holds this tab: ${m}. Close DevTools on that tab and try again`);
    }
    if (!/already attached/i.test(m)) throw err;
  }
}

export async function detach(msg) {
  const tabId = intArg(msg, "tabId");
  pinned.delete(tabId);
  clearTimeout(attached.get(tabId));
  attached.delete(tabId);
  foreign.delete(tabId);
  try {
    await chrome.debugger.detach({ tabId });
  } catch (err) {
    if (!/not attached/i.test(String(err && err.message))) throw err;
  }
  return { ok: true };
}

export function sendCommand(tabId, method, params) {
  if (method === "Page.captureScreenshot") return capturing(tabId, () => sendNow(tabId, method, params));
  return sendNow(tabId, method, params);
}

// Chrome sets a tab's device emulation aside while it takes a screenshot
// and puts it back when the capture answers, so an emulation set or
// cleared while a capture is in flight is undone at the capture's end
// (seen: a reset during the capture of the step before — the replay's,
// or a screenshot's — left the page at the emulated phone's size, with
// the user agent and touch reset). So captures and emulation changes
// never overlap: a change waits for the tab's captures in flight, and a
// capture waits for the changes under way. A change waits at most
// APART_WAIT_MS (a capture held by a dialog must not stop it for good);
// one that went ahead of captures still in flight (a slow full-page
// capture on a loaded machine) runs again once they have ended, unless
// a later change has run since.
const APART_WAIT_MS = 10000;
const captures = new Map(); // tabId -> Set of capture promises in flight
const changes = new Map(); // tabId -> Set of emulation change promises under way
const lastChange = new Map(); // tabId -> sequence number of its latest change
let changeSeq = 0;

// settledWithin resolves true once promises have all settled, or false
// after ms if they have not.
function settledWithin(promises, ms) {
  if (!promises.length) return Promise.resolve(true);
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  return Promise.race([Promise.allSettled(promises).then(() => true), late]).finally(() => clearTimeout(timer));
}

function tracked(map, tabId, p) {
  if (!map.has(tabId)) map.set(tabId, new Set());
  const set = map.get(tabId);
  set.add(p);
  const drop = () => {
    set.delete(p);
    if (!set.size && map.get(tabId) === set) map.delete(tabId);
  };
  p.then(drop, drop);
  return p;
}

function capturing(tabId, fn) {
  const waitFor = [...(changes.get(tabId) || [])];
  return tracked(captures, tabId, settledWithin(waitFor, APART_WAIT_MS).then(fn));
}

// emulationChange runs fn, which sends a tab's emulation commands, apart
// from the tab's screenshots (see capturing).
export function emulationChange(tabId, fn) {
  const waitFor = [...(captures.get(tabId) || [])];
  const seq = ++changeSeq;
  lastChange.set(tabId, seq);
  return tracked(changes, tabId, settledWithin(waitFor, APART_WAIT_MS).then(async (apart) => {
    const out = await fn();
    if (!apart) {
      Promise.allSettled(waitFor).then(() => {
        if (lastChange.get(tabId) === seq) emulationChange(tabId, fn).catch(() => {});
      });
    }
    return out;
  }));
}

function sendNow(tabId, method, params) {
  return hold(tabId, async () => {
    try {
      return (await chrome.debugger.sendCommand({ tabId }, method, params || {})) ?? {};
    } catch (err) {
      if (userCancelled.has(tabId)) {
        throw new BridgeError(Codes.blockedByPolicy, "the user cancelled the bridge's debugging session on this tab (the Cancel button of the debugging bar); run the command again to allow it");
      }
      throw err;
    }
  });
}

// send runs one CDP command on the tab, attaching first when needed.
// Chrome may let the debugger go between the attach and the command (the
// renderer was swapped or crashed): it then refuses the command unsent,
// "not attached", and send attaches again and sends it once more, rather
// than fail an action on a tab that is still there.
export async function send(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  policyOf(ctx)(msg.method);
  return hold(tabId, async () => {
    await ensureAttached(tabId);
    try {
      return await sendCommand(tabId, msg.method, msg.params);
    } catch (err) {
      if (userCancelled.has(tabId) || !/not attached/i.test(String(err && err.message))) throw err;
      clearTimeout(attached.get(tabId));
      attached.delete(tabId);
      await ensureAttached(tabId);
      return sendCommand(tabId, msg.method, msg.params);
    }
  });
}

// batch runs several CDP commands in order in one round trip (a click is
// mouseMoved + mousePressed + mouseReleased: one command to the extension
// keeps the tail latency tight). It stops at the first failure, and when
// a dialog opens (or is open) it returns at once with the dialog and the
// index of the command it interrupted: that command finishes by itself
// once the dialog is answered; the daemon answers it and sends the rest.
//
// check (optional) is a check made between two commands, in the same round
// trip: before command check.before (or after the last one when it equals
// their number), the page script check.fn of check.files runs in each of
// check.frames ({frameId, args}) — the extension's own files, as page.run
// runs them — and the commands from there on are sent only if every frame
// answers {ok: true}; otherwise the batch stops there, {stopped: true}.
// The answers come back as check. A click re-checks this way what is
// under the pointer once the mouse is there, just before pressing
// (internal/actions: moveOnto): nothing the daemon could do in another
// round trip would come as close.
//
// A page that begins to navigate away while a command waits for its
// answer gets NAV_GRACE_MS more; then the batch returns {navigated: true,
// interrupted: i} and sends nothing more.
//
// expectURL (optional) is the URL the daemon judged the tab by before it
// sent the batch without a look at the tab of its own (type in one round
// trip): when the tab shows another, nothing runs and the batch answers
// {stale: true, tab}; with it, the answer carries the tab as it was
// judged (before). activate makes the tab the active one of its window,
// if it is not, before the first command (input to a background tab is
// slow, see E2E.md).
//
// The debugger is attached while a check that comes first runs: the
// check is a page script, which needs no debugger, and no command goes
// out before both are done. A dialog open meanwhile still ends the check
// (the attach's Page.enable announces it); a failed attach ends it too.
//
// The whole batch holds the tab (hold): between its commands, a check or
// the look after them may take seconds on a busy page, and the idle
// detach must not come in between (a click's press then failed with
// "Debugger is not attached" once its check had taken over IDLE_MS).
export async function batch(msg, ctx) {
  return hold(intArg(msg, "tabId"), () => batchHeld(msg, ctx));
}

async function batchHeld(msg, ctx) {
  const tabId = intArg(msg, "tabId");
  const cmds = Array.isArray(msg.commands) ? msg.commands : [];
  const allowed = policyOf(ctx);
  for (const c of cmds) allowed(c && c.method);
  const check = checkArg(msg.check, cmds.length);
  let tab = null;
  if (typeof msg.expectURL === "string" || msg.activate) {
    tab = ctx?.tab || await chrome.tabs.get(tabId);
    if (typeof msg.expectURL === "string" && info(tab).url !== msg.expectURL) {
      return { results: [], stale: true, stopped: true, tab: info(tab) };
    }
  }
  const attaching = ensureAttached(tabId);
  attaching.catch(() => {}); // awaited before the first command
  if (!check || check.before > 0) await attaching;
  // A cancel is honoured before the batch starts, never within it: a click
  // cut after its mousePressed would leave the button held down. (The check
  // comes before the press, so a cancel there stops the batch too.)
  if (ctx?.signal?.aborted) throw cancelled();
  let readied = null;
  const ready = () => {
    readied ||= attaching.then(() => (msg.activate && !tab.active ? chrome.tabs.update(tabId, { active: true }) : null));
    return readied;
  };
  const nav = leaving(tabId);
  try {
    const out = await runBatch(tabId, msg, cmds, check, ctx, nav, attaching, ready);
    if (typeof msg.expectURL === "string") out.before = info(tab);
    return out;
  } finally {
    nav.cancel();
  }
}

// NAV_GRACE_MS is how long a command of a batch may still take once the
// tab's page began to navigate away: input sent to a page as it is being
// replaced may never be answered (seen with Input.insertText into a field
// whose focus handler navigates), and the batch must not hang on it.
const NAV_GRACE_MS = 1000;

// leaving resolves {__navigated: true} NAV_GRACE_MS after the tab's top
// frame begins a navigation.
function leaving(tabId) {
  let timer = null;
  let done;
  const promise = new Promise((resolve) => { done = resolve; });
  const listener = (d) => {
    if (d.tabId === tabId && d.frameId === 0 && timer === null) {
      timer = setTimeout(() => done({ __navigated: true }), NAV_GRACE_MS);
    }
  };
  chrome.webNavigation.onBeforeNavigate.addListener(listener);
  return { promise, cancel: () => { clearTimeout(timer); chrome.webNavigation.onBeforeNavigate.removeListener(listener); } };
}

// attaching is the debugger's attach; ready resolves once commands may go
// out: attached, and the tab activated when asked.
async function runBatch(tabId, msg, cmds, check, ctx, nav, attaching, ready) {
  const results = [];
  let checked;
  for (let i = 0; i <= cmds.length; i++) {
    if (check && i === check.before) {
      if (ctx?.signal?.aborted) throw cancelled();
      const got = await runCheck(tabId, check, attaching);
      if (got.dialog) return { results, dialog: got.dialog, interrupted: i, stopped: true };
      if (!got.ok) return { results, check: got.frames, stopped: true };
      checked = got.frames;
    }
    if (i === cmds.length) break;
    await ready();
    const c = cmds[i];
    const wait = untilDialog(tabId);
    const sent = sendCommand(tabId, c.method, c.params);
    sent.catch(() => {}); // an interrupted command may fail later, unheard
    try {
      const r = await Promise.race([sent, wait.promise, nav.promise]);
      if (r && r.__dialog) {
        interrupted.set(tabId, sent.then(() => {}, () => {}));
        return { results, dialog: r.__dialog, interrupted: i, check: checked };
      }
      // The page went away under the command, which has not answered:
      // the rest is not sent (it would reach the next page).
      if (r && r.__navigated) return { results, navigated: true, interrupted: i, check: checked };
      results.push(r);
    } finally {
      wait.cancel();
    }
  }
  // then: a page script (page.run's params) run right after the commands,
  // net: the tab's activity (readiness.net) after it, and tab: the tab's
  // info — a look at what the input did in the same round trip as the
  // input. The three go out at once: none depends on another. A page
  // that went away meanwhile leaves then out.
  const out = { results, check: checked };
  const look = msg.then && typeof msg.then === "object" ? pageRun({ ...msg.then, tabId }) : undefined;
  look?.catch(() => {});
  const [then, net, tab] = await Promise.all([
    look && Promise.race([look, nav.promise]),
    msg.net ? netState({ tabId }) : undefined,
    msg.tab ? chrome.tabs.get(tabId).then(info) : undefined,
  ]);
  if (then && !then.__navigated) out.then = then;
  if (then && then.__navigated) out.navigated = true;
  if (net) out.net = net;
  if (tab) out.tab = tab;
  return out;
}

const MAX_CHECK_FRAMES = 16;

// checkArg validates a batch's check (see batch); page.run validates its
// files and fn when it runs them.
function checkArg(check, n) {
  if (check === undefined || check === null) return null;
  if (typeof check !== "object" || !Number.isInteger(check.before) || check.before < 0 || check.before > n ||
      !Array.isArray(check.frames) || !check.frames.length || check.frames.length > MAX_CHECK_FRAMES ||
      !check.frames.every((f) => f && Number.isInteger(f.frameId) && f.frameId >= 0)) {
    throw new BridgeError(Codes.invalidArgument, "check must be {before, files, fn, frames: [{frameId, args}]} with before at most the number of commands");
  }
  return check;
}

// runCheck runs a batch's check in its frames at once. A dialog that holds
// the page meanwhile ends it: {dialog}.
//
// attaching is the debugger's attach when it goes on beside the check: a
// failed attach ends the check too, since without the Page domain no
// dialog that holds the page would be heard.
async function runCheck(tabId, check, attaching) {
  const wait = untilDialog(tabId);
  try {
    const runs = Promise.all(check.frames.map((f) => pageRun({ tabId, files: check.files, fn: check.fn, frameId: f.frameId, args: f.args })));
    runs.catch(() => {}); // one a dialog cut short may fail later, unheard
    const failed = attaching.then(() => new Promise(() => {}));
    const r = await Promise.race([runs, wait.promise, failed]);
    if (r && r.__dialog) return { dialog: r.__dialog };
    const frames = r.map((x, i) => (x.frames && x.frames[0]) || { frameId: check.frames[i].frameId, error: "the check ran in no frame" });
    return { frames, ok: frames.every((f) => !f.error && f.value && f.value.ok === true) };
  } finally {
    wait.cancel();
  }
}

// aborted resolves when the command is cancelled (see dispatch.js).
export function aborted(ctx) {
  const signal = ctx && ctx.signal;
  let cb;
  const promise = new Promise((_, reject) => {
    cb = () => reject(cancelled());
    if (signal) {
      if (signal.aborted) return cb();
      signal.addEventListener("abort", cb, { once: true });
    }
  });
  promise.catch(() => {});
  return { promise, cancel: () => signal?.removeEventListener("abort", cb) };
}
