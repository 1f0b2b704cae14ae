// Window primitives.
import { BridgeError, Codes } from "../protocol.js";
import { info, intArg, waitLoad } from "./tabinfo.js";
import { ungroupFirst } from "./tabs.js";

// create opens a normal window, unfocused unless asked, so the user keeps
// working in their own window.
export async function create(msg, ctx) {
  const incognito = !!msg.incognito;
  if (incognito && !(await chrome.extension.isAllowedIncognitoAccess())) {
    throw notAllowed();
  }
  const props = { type: "normal", focused: !!msg.focused, incognito };
  if (typeof msg.url === "string" && msg.url) props.url = msg.url;
  if (Number.isInteger(msg.width)) props.width = msg.width;
  if (Number.isInteger(msg.height)) props.height = msg.height;
  const w = await chrome.windows.create(props);
  // Without "Allow in Incognito" Chrome resolves to nothing and the window
  // is invisible to the extension.
  if (!w || !w.tabs || !w.tabs.length) throw notAllowed();
  const tabId = w.tabs[0].id;
  // Without a wait, the tab as the window came with it (no further round
  // trip to Chrome).
  const t = msg.waitMs > 0 ? await waitLoad(tabId, msg.waitMs, ctx?.signal) : info(w.tabs[0]);
  return { ...t, windowId: w.id, incognito: w.incognito };
}

export async function close(msg) {
  const windowId = intArg(msg, "windowId");
  // Its groups go with it, not into the user's saved groups (see
  // tabs.ungroupFirst). The daemon closes only windows that hold nothing
  // but the bridge's tabs.
  const grouped = (await chrome.tabs.query({ windowId }).catch(() => [])).filter((t) => t.groupId >= 0).map((t) => t.id);
  await ungroupFirst(grouped);
  await chrome.windows.remove(windowId);
  return { ok: true };
}

function notAllowed() {
  return new BridgeError(Codes.incognitoNotAllowed,
    "the extension may not open incognito windows: open chrome://extensions, Browser Bridge, Details, and turn on \"Allow in Incognito\" (or pass incognito: false)");
}
