// Service worker entry: it only wires — the transports to the dispatcher
// and its doors, the daemon's port to the native transport — and
// registers listeners. Everything the worker does starts from one of these
// events, because MV3 may stop the worker whenever it is idle and start it
// again for the next event. Only this file imports both the transports and
// the dispatcher, so the modules form a tree (extension/imports_test.go).
import * as native from "./transport/native.js";
import * as websocket from "./transport/websocket.js";
import { actionsDoor, dispatch, programDoor } from "./dispatch.js";
import * as daemon from "./daemon.js";
import * as userpage from "./handlers/userpage.js";
import { TYPE_FOCUSED } from "./protocol.js";

// The doors: the daemon, over the native link, drives the bridge's
// actions; a WebSocket server is a program, on its own program door.
native.plug({ dispatch, door: actionsDoor });
websocket.plug({ dispatch, doorFor: programDoor });
// Handlers ask the daemon through this port; the native link is the one
// that reaches it.
daemon.plug(native.ask);

// The transports: each open() connects unless it is connected already (or
// switched off), so calling it on every wake-up is safe. A new transport
// is its file in transport/ and its lines here.
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

// When several browsers are connected to one daemon, a call that names none
// goes to the one the user focused last: tell the daemon when one of this
// browser's windows gets the focus (WINDOW_ID_NONE is focus leaving the
// browser). The bridge's own windows open unfocused, so this is the user.
// Registered at the top level, as MV3 listeners must be; an event that
// wakes a stopped worker finds the port reopened by connectAll above.
chrome.windows.onFocusChanged.addListener((windowId) => {
  if (windowId === chrome.windows.WINDOW_ID_NONE) return;
  daemon.ask(TYPE_FOCUSED, {}, 5_000).catch(() => { /* no daemon: nothing to tell */ });
});
