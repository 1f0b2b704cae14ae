package extension

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// These run the worker's modules under node against a stand-in for the
// chrome API (chromeMock): chrome.storage.session keeps its 10 MB quota
// and refuses a write past it, as Chrome does. Each case is a fresh
// worker (one node process) and prints a JSON list of failures.

// chromeMock defines globalThis.chrome, load(path) (imports a module of
// the extension's), fire(event, ...args) (calls an event's listeners),
// tick(ms) and fail(msg). Any API it does not model answers undefined.
const chromeMock = `
const QUOTA = 10 * 1024 * 1024;
const listeners = {};
const failures = [];
globalThis.fail = (m) => failures.push(m);
globalThis.done = () => { process.stdout.write(JSON.stringify(failures)); process.exit(0); };
globalThis.tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
function auto(path) {
  const t = {};
  return new Proxy(function () { return Promise.resolve(undefined); }, {
    get(_, k) {
      if (k === "then" || typeof k === "symbol") return undefined;
      if (k === "addListener") return (f) => (listeners[path] ||= []).push(f);
      if (k === "removeListener" || k === "hasListener") return () => {};
      if (!(k in t)) t[k] = auto(path ? path + "." + k : k);
      return t[k];
    },
    set(_, k, v) { t[k] = v; return true; },
  });
}
globalThis.fire = (event, ...args) => (listeners[event] || []).map((f) => f(...args));
const chrome = auto("");
globalThis.chrome = chrome;
const utf8 = new TextEncoder();
const session = {
  data: {}, getDelay: 0, refuse: false,
  bytes(data = session.data) {
    let n = 0;
    for (const [k, v] of Object.entries(data)) n += k.length + utf8.encode(JSON.stringify(v)).length;
    return n;
  },
  async get(keys) {
    if (session.getDelay) await tick(session.getDelay);
    const all = JSON.parse(JSON.stringify(session.data));
    if (keys === null || keys === undefined) return all;
    const out = {};
    for (const k of [].concat(keys)) if (k in all) out[k] = all[k];
    return out;
  },
  async set(items) {
    const next = { ...session.data, ...JSON.parse(JSON.stringify(items)) };
    if (session.refuse || session.bytes(next) > session.quota) throw new Error("Resource::kQuotaBytes quota exceeded");
    session.data = next;
  },
  async remove(keys) { for (const k of [].concat(keys)) delete session.data[k]; },
  quota: QUOTA,
};
globalThis.session = session;
chrome.storage.session = session;
chrome.runtime.id = "ext";
chrome.runtime.getURL = (p) => "chrome-extension://ext/" + p;
globalThis.openTabs = new Set();
chrome.tabs.TAB_ID_NONE = -1;
chrome.tabs.query = async () => [...openTabs].map((id) => ({ id, url: "https://a.test/" }));
chrome.tabs.get = async (id) => { if (!openTabs.has(id)) throw new Error("No tab with id: " + id); return { id, url: "https://a.test/", status: "complete" }; };
globalThis.ruleUpdates = [];
chrome.declarativeNetRequest.getSessionRules = async () => [];
chrome.declarativeNetRequest.updateSessionRules = async (u) => { ruleUpdates.push(u); };
chrome.webNavigation.getAllFrames = async () => [];
chrome.scripting.executeScript = async () => [];
const root = process.argv[1];
globalThis.load = (p) => import(require("url").pathToFileURL(require("path").join(root, p)).href);
`

// runWorker runs script (the body of an async function, after
// chromeMock) and reports each failure it prints.
func runWorker(t *testing.T, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: install Node.js (Debian: apt-get install nodejs), as .ci/run does")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	src := chromeMock + "\n(async () => {\n" + script + "\n})().then(done, (e) => { fail(\"threw: \" + (e && e.stack)); done(); });\n"
	out, err := exec.Command(node, "-e", src, root).Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var fails []string
	if err := json.Unmarshal(out, &fails); err != nil {
		t.Fatalf("node said: %s", out)
	}
	for _, f := range fails {
		t.Error(f)
	}
}

// A store over its quota must not keep a new deny rule from being
// installed: policy.set enforces the rules whether or not they are saved,
// and counts the failed save.
func TestPolicySetEnforcesWhenStoreIsFull(t *testing.T) {
	runWorker(t, `
session.data.policyTabs = [7];
openTabs.add(7);
const policy = await load("handlers/policy.js");
await tick(10);
session.refuse = true;
try {
  await policy.set({ deny: ["evil.test"], allow: [], builtInDeny: [] });
} catch (e) {
  fail("policy.set threw: " + e.message);
}
await tick(10);
const last = ruleUpdates[ruleUpdates.length - 1] || { addRules: [] };
const blocks = last.addRules.filter((r) => r.action.type === "block" && (r.condition.tabIds || []).includes(7) && new RegExp(r.condition.regexFilter).test("https://evil.test/"));
if (!blocks.length) fail("no rule blocks evil.test in tab 7 after policy.set with a full store: " + JSON.stringify(last));
if (!(policy.summary().saveFailures > 0)) fail("the failed save is not counted: " + JSON.stringify(policy.summary()));
// Once the store takes it again, the save is made after all.
session.refuse = false;
await tick(800);
if (!(session.data.policyRules && session.data.policyRules.deny.includes("evil.test"))) fail("the rules are not saved once the store has room: " + JSON.stringify(session.data));
`)
}

// recordScript starts a worker with the recorder, and defines
// logIn(tabId, n, text) (n console lines in the tab, recorded) and
// stored() (the bytes of each tab's stored copy).
const recordScript = `
const record = await load("handlers/record.js");
await tick(10);
globalThis.logIn = async (tabId, n, text) => {
  openTabs.add(tabId);
  record.start(tabId, true);
  const records = [];
  for (let i = 0; i < n; i++) records.push({ source: "console", level: "log", text: text + " " + i, time: Date.now() });
  for (let i = 0; i < records.length; i += 500) {
    fire("runtime.onMessage", { type: "record.batch", records: records.slice(i, i + 500) }, { id: "ext", tab: { id: tabId }, frameId: 0, url: "https://a.test/" }, () => {});
  }
};
globalThis.stored = () => {
  const out = {};
  for (const [k, v] of Object.entries(session.data)) if (k.startsWith("consoleRecord:")) out[k] = k.length + new TextEncoder().encode(JSON.stringify(v)).length;
  return out;
};
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
`

// A tab's copy is measured as stored: redacted (a mark is longer than a
// short secret) and in UTF-8.
func TestRecordCopyMeasuredRedacted(t *testing.T) {
	runWorker(t, recordScript+`
await logIn(3, 1000, "token=a;".repeat(240));
await tick(1500);
const s = stored();
if (!s["consoleRecord:3"]) fail("tab 3 has no stored copy: " + JSON.stringify(s));
if (s["consoleRecord:3"] > 64 * 1024) fail("tab 3's copy is " + s["consoleRecord:3"] + " bytes, over its 64 KB");
`)
}

// Copies stored under a larger share are cut when more tabs share the
// store, whether their records changed or not, and all together stay
// well within the quota the site rules need too.
func TestRecordCopiesShareShrinks(t *testing.T) {
	runWorker(t, recordScript+`
for (let tab = 1; tab <= 16; tab++) await logIn(tab, 60, "x".repeat(1900));
await tick(1500);
let total = sum(stored());
if (total > 1024 * 1024) fail("16 tabs store " + total + " bytes, over 1 MB");
if (total < 768 * 1024) fail("16 tabs store only " + total + " bytes: " + JSON.stringify(stored()));
for (let tab = 17; tab <= 32; tab++) await logIn(tab, 60, "y".repeat(1900));
await tick(1500);
total = sum(stored());
if (total > 1024 * 1024) fail("32 tabs store " + total + " bytes, over 1 MB: " + JSON.stringify(stored()));
`)
}

// A write the store refuses keeps the tab's newest messages, not nothing.
func TestRecordRefusedWriteTrims(t *testing.T) {
	runWorker(t, recordScript+`
session.data.other = "z".repeat(10 * 1024 * 1024 - 40 * 1024);
await logIn(4, 400, "x".repeat(1900));
await tick(1500);
const s = stored();
if (!s["consoleRecord:4"]) fail("tab 4 lost its whole copy to a store that had 40 KB left");
else if (s["consoleRecord:4"] < 10 * 1024) fail("tab 4 keeps only " + s["consoleRecord:4"] + " bytes of 40 KB left");
`)
}

// Events that come before the stored records are back (the ones that
// wake a stopped worker) find their tab's record: a navigation is
// recorded, and the page's half is told to record.
func TestRecordEventsWaitForRestore(t *testing.T) {
	runWorker(t, `
openTabs.add(5);
session.data["consoleRecord:5"] = { startedAt: 1, fromLoad: true, msgSeq: 1, msgDropped: 0, leftOut: 0,
  msgs: [{ seq: 1, level: "log", text: "before", source: "console", url: "", line: 0, column: 0, time: 1, frameUrl: "https://a.test/" }] };
session.getDelay = 200;
const record = await load("handlers/record.js");
fire("webNavigation.onBeforeNavigate", { tabId: 5, frameId: 0, url: "https://a.test/next", timeStamp: Date.now() });
fire("webNavigation.onCommitted", { tabId: 5, frameId: 0, url: "https://a.test/next", timeStamp: Date.now() });
let answer = null;
const async = fire("runtime.onMessage", { type: "record.page" }, { id: "ext", tab: { id: 5 }, frameId: 0, url: "https://a.test/next" }, (a) => { answer = a; });
if (!async.includes(true)) fail("record.page does not answer later");
await tick(600);
if (!answer || answer.record !== true) fail("record.page before the restore answered " + JSON.stringify(answer) + ", want record: true");
const got = await record.consoleRead({ tabId: 5, all: true });
const texts = got.messages.map((m) => m.source + ":" + m.text + (m.url || ""));
if (!texts.includes("console:before")) fail("the stored message is not back: " + JSON.stringify(texts));
if (!got.messages.some((m) => m.source === "navigation" && m.url === "https://a.test/next")) fail("the navigation before the restore is not recorded: " + JSON.stringify(texts));
`)
}
