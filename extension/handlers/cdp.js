// chrome.debugger primitives (CDP 1.3). The passthrough refuses methods that
// would step around the bridge's limits (SPEC §4): reading cookies or
// storage, setting files (upload has its own checked path), and anything
// beyond the tab.
import { BridgeError, Codes } from "../protocol.js";
import { intArg } from "./tabinfo.js";

const attached = new Set();

chrome.debugger.onDetach.addListener((source) => attached.delete(source.tabId));

const DENIED = [
  /^Network\.getCookies$/, /^Network\.getAllCookies$/, /^Storage\./,
  /^DOM\.setFileInputFiles$/, /^Target\./, /^Browser\./, /^SystemInfo\./,
];

export function deniedMethod(method) {
  return DENIED.some((re) => re.test(method));
}

export async function attach(msg) {
  const tabId = intArg(msg, "tabId");
  await ensureAttached(tabId);
  return { ok: true };
}

export async function ensureAttached(tabId) {
  if (attached.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, "1.3");
  } catch (err) {
    if (!/already attached/i.test(String(err && err.message))) throw err;
  }
  attached.add(tabId);
}

export async function detach(msg) {
  const tabId = intArg(msg, "tabId");
  attached.delete(tabId);
  try {
    await chrome.debugger.detach({ tabId });
  } catch (err) {
    if (!/not attached/i.test(String(err && err.message))) throw err;
  }
  return { ok: true };
}

export async function send(msg) {
  const tabId = intArg(msg, "tabId");
  const method = msg.method;
  if (typeof method !== "string" || !/^[A-Za-z]+\.[A-Za-z]+$/.test(method)) {
    throw new BridgeError(Codes.invalidArgument, "method must look like Domain.method");
  }
  if (deniedMethod(method)) {
    throw new BridgeError(Codes.blockedByPolicy, `CDP method ${method} is not allowed through the bridge (cookies, storage, files and browser-wide targets are off limits; use the bridge's own actions)`);
  }
  await ensureAttached(tabId);
  return (await chrome.debugger.sendCommand({ tabId }, method, msg.params || {})) ?? {};
}
