// Service worker entry: it only wires listeners. Everything the worker does
// starts from one of these events, because MV3 may stop the worker whenever
// it is idle and start it again for the next event.
import * as native from "./transport/native.js";
import * as websocket from "./transport/websocket.js";
import * as userpage from "./handlers/userpage.js";

// The transports: each open() connects unless it is connected already (or
// switched off), so calling it on every wake-up is safe. A new transport
// is its file in transport/ and a line here.
const TRANSPORTS = [native, websocket];

// The extension's own pages (ui/) ask the worker for what they show.
userpage.listen(TRANSPORTS);

function connectAll() {
  for (const t of TRANSPORTS) t.open();
}

const RECONNECT_ALARM = "browser-bridge-reconnect";

// The alarm wakes a stopped worker (minimum period 30 s) and reconnects; an
// open native port (or WebSocket traffic) keeps the worker alive, so
// normally it finds them open.
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) connectAll();
});
chrome.runtime.onStartup.addListener(connectAll);
chrome.runtime.onInstalled.addListener(connectAll);

// Every start of the worker runs this file: create the alarm only when it
// is missing, since creating it again would restart its period (and a
// worker woken every 30 s would keep pushing the next wake-up away).
chrome.alarms.get(RECONNECT_ALARM).then((alarm) => {
  if (!alarm) return chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
}).catch(() => chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 }));
connectAll();
