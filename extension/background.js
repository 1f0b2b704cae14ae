// Service worker entry: it only wires listeners. Everything the worker does
// starts from one of these events, because MV3 may stop the worker whenever
// it is idle and start it again for the next event.
import { connect } from "./native.js";

const RECONNECT_ALARM = "browser-bridge-reconnect";

// The alarm wakes a stopped worker (minimum period 30 s) and reconnects; an
// open native port keeps the worker alive, so normally it finds one open.
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) connect();
});
chrome.runtime.onStartup.addListener(connect);
chrome.runtime.onInstalled.addListener(connect);

// Every start of the worker runs this file: create the alarm only when it
// is missing, since creating it again would restart its period (and a
// worker woken every 30 s would keep pushing the next wake-up away).
chrome.alarms.get(RECONNECT_ALARM).then((alarm) => {
  if (!alarm) return chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
}).catch(() => chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 }));
connect();
