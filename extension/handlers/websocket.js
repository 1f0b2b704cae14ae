// The WebSocket transport's verbs on the actions door: websocket.configure
// (from `browser-bridge websocket enable|disable`) and websocket.status.
// They know no transport: configure writes the setting to
// chrome.storage.local, which the transport follows, and both read the
// link's state the transport keeps in chrome.storage.session
// (wssetting.js).
import { SETTING_KEY, LINK_KEY, checkToken, checkURL, normalize, status } from "../wssetting.js";
import { BridgeError, Codes, DEFAULT_WEBSOCKET_URL } from "../protocol.js";

// How long configure waits for the first connection to open or fail.
const CONFIGURE_WAIT_MS = 2_000;

// configure is the websocket.configure verb: {enabled, url, token}.
// enabled: true takes url (default Hive's) and token (none when absent);
// enabled: false keeps both for the next enable. It answers with the
// status once the transport has taken the setting and, when enabled, its
// first connection has opened or failed (up to 2 s).
export async function configure(msg) {
  if (typeof msg.enabled !== "boolean") throw new BridgeError(Codes.invalidArgument, "enabled must be true or false");
  const cur = await setting();
  let next;
  if (msg.enabled) {
    const url = msg.url === undefined || msg.url === null || msg.url === "" ? DEFAULT_WEBSOCKET_URL : msg.url;
    const token = msg.token === undefined || msg.token === null ? "" : msg.token;
    checkURL(url);
    checkToken(token);
    next = { enabled: true, url, token };
  } else {
    next = { ...cur, enabled: false };
    if (msg.url) {
      checkURL(msg.url);
      next.url = msg.url;
    }
    if (msg.token !== undefined && msg.token !== null) {
      checkToken(msg.token);
      next.token = msg.token;
    }
  }
  next.rev = crypto.randomUUID();
  // Listen before the write: the transport may answer at once.
  const taken = linkOf(next, CONFIGURE_WAIT_MS);
  await chrome.storage.local.set({ [SETTING_KEY]: next });
  return status(next, await taken);
}

// report is the websocket.status verb.
export async function report() {
  const [s, got] = await Promise.all([setting(), chrome.storage.session.get(LINK_KEY)]);
  return status(s, got[LINK_KEY]);
}

async function setting() {
  const got = await chrome.storage.local.get(SETTING_KEY);
  return normalize(got[SETTING_KEY]);
}

// linkOf resolves with the link's state once the transport has answered
// the setting s (the state carries its rev): at once when s is off, after
// the first connection opened or failed when it is on. After ms it
// resolves with whatever state is stored.
function linkOf(s, ms) {
  return new Promise((resolve) => {
    const done = (link) => {
      clearTimeout(timer);
      chrome.storage.onChanged.removeListener(changed);
      resolve(link);
    };
    const changed = (changes, area) => {
      const link = area === "session" && changes[LINK_KEY]?.newValue;
      if (link && link.rev === s.rev && (!s.enabled || link.connected || link.lastError)) done(link);
    };
    const timer = setTimeout(() => {
      chrome.storage.session.get(LINK_KEY).then((got) => done(got[LINK_KEY]), () => done(null));
    }, ms);
    chrome.storage.onChanged.addListener(changed);
  });
}
