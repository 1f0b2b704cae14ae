// browser.state: every normal window and its tabs, for status and for the
// daemon's reconciliation of its owned-tab registry.
import { info } from "./tabinfo.js";
import { inFlight } from "../transport/inflight.js";
import { debuggedByOthers } from "./cdp.js";

export async function snapshot() {
  const [wins, focused, incognitoAllowed, fileSchemeAccess, debugged] = await Promise.all([
    chrome.windows.getAll({ populate: true, windowTypes: ["normal", "popup"] }),
    chrome.windows.getLastFocused({ windowTypes: ["normal", "popup"] }).catch(() => null),
    chrome.extension.isAllowedIncognitoAccess(),
    chrome.extension.isAllowedFileSchemeAccess(),
    debuggedByOthers().catch(() => []),
  ]);
  return {
    lastFocusedWindowId: focused ? focused.id : -1,
    incognitoAllowed,
    // "Allow access to file URLs", which upload needs.
    fileSchemeAccess,
    // The other commands running in the extension (not this one).
    running: inFlight().filter((v) => v !== "browser.state"),
    // Tabs that another debugger (DevTools, another extension) is attached
    // to: if it pauses the page, the bridge's commands there time out.
    debuggedTabs: debugged,
    windows: wins.map((w) => ({
      windowId: w.id,
      incognito: w.incognito,
      focused: w.focused,
      tabs: (w.tabs || []).map(info),
    })),
  };
}
