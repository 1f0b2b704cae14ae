// Readiness primitives for reading pages: the quiet-DOM content script.
//
// The content script (page/quiet.js) records when each document's DOM last
// changed, from document_start on, so extract can return at once on a page
// that has long been quiet. It is registered dynamically, only while the
// bridge is in use (the daemon calls readiness.enable; disabling the bridge
// calls readiness.disable), never as a static entry that would run in every
// page forever. persistAcrossSessions: false drops it when Chrome restarts,
// so a bridge that is no longer used leaves nothing behind; the daemon
// registers it again on its next read.
const QUIET_ID = "browser-bridge-quiet";

export async function enable() {
  const have = await chrome.scripting.getRegisteredContentScripts({ ids: [QUIET_ID] });
  if (have.length) return { ok: true, registered: false };
  try {
    await chrome.scripting.registerContentScripts([{
      id: QUIET_ID,
      js: ["page/quiet.js"],
      matches: ["<all_urls>"],
      runAt: "document_start",
      allFrames: true,
      // about:blank, srcdoc and data frames inherit their creator's origin:
      // track them too.
      matchOriginAsFallback: true,
      persistAcrossSessions: false,
      world: "ISOLATED",
    }]);
  } catch (err) {
    // Two reads racing to register: the loser sees "Duplicate script ID".
    if (!/duplicate/i.test(String(err && err.message))) throw err;
  }
  return { ok: true, registered: true };
}

export async function disable() {
  try {
    await chrome.scripting.unregisterContentScripts({ ids: [QUIET_ID] });
  } catch (_) { /* not registered: nothing to do */ }
  return { ok: true };
}
