// The site rules' semantics, without side effects: a twin of
// internal/policy (read its doc comment). match() and check() follow
// Match and Check line by line, and toRegex() turns a pattern into the
// declarativeNetRequest regexFilter that matches the same request URLs.
// The cases in internal/policy/testdata/cases.json are checked against
// Go, against this file under node (extension/policy_test.go) and in
// Chromium (e2e/user).

// parse reads a URL into the parts Go's net/url gives Match.
function parse(raw) {
  const u = new URL(raw);
  return {
    scheme: u.protocol.slice(0, -1),
    href: u.href,
    // Go's Hostname() drops an IPv6 address's brackets; Host keeps them.
    hostname: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    host: u.host,
    port: u.port,
    path: u.pathname,
    query: u.search.slice(1),
  };
}

// check decides whether the bridge may touch raw (policy.Rules.Check):
// {allowed, rule, kind: "builtin" | "deny" | "allow" (not on the allow
// list), why}.
export function check(rules, raw) {
  if (!raw || raw === "about:blank") return { allowed: true, rule: "" };
  let u;
  try {
    u = parse(raw);
  } catch (err) {
    return { allowed: false, rule: "", kind: "deny", why: `its URL cannot be checked against the site rules (${err.message})` };
  }
  for (const p of rules.builtInDeny || []) {
    if (match(p, u)) return { allowed: false, rule: p, kind: "builtin", why: `the browser's own pages and extension stores are off limits (built-in rule "${p}")` };
  }
  for (const p of rules.deny || []) {
    if (match(p, u)) return { allowed: false, rule: p, kind: "deny", why: `denied by your site rule "${p}" (browser-bridge policy list)` };
  }
  const allow = rules.allow || [];
  if (allow.length === 0) return { allowed: true, rule: "" };
  for (const p of allow) {
    if (match(p, u)) return { allowed: true, rule: p };
  }
  // The pattern that adds the site, or how to lift the list (policy.go's notAllowed).
  const add = u.hostname ? u.hostname.toLowerCase() : "PATTERN";
  return { allowed: false, rule: "", kind: "allow", why: `not on your allow list (${allow.join(", ")}): add it with browser-bridge policy allow ${add}, or take patterns off the list with browser-bridge policy remove PATTERN (an empty list allows every site)` };
}

// match reports whether pattern matches the URL u (a string or parse()'s
// parts), as policy.Match does.
export function match(pattern, u) {
  if (typeof u === "string") u = parse(u);
  pattern = pattern.trim();
  if (pattern === "") return false;
  if (isURLPattern(pattern)) {
    const i = pattern.indexOf(":");
    return glob(pattern.slice(0, i).toLowerCase() + pattern.slice(i), u.href);
  }
  if (!["http", "https", "ws", "wss"].includes(u.scheme)) return false;
  const [host, rest] = cut(pattern, "/");
  if (!matchHost(host.toLowerCase(), u)) return false;
  if (rest === "") return true;
  let p = u.path || "/";
  if (u.query !== "") p += "?" + u.query;
  return glob("/" + rest, p);
}

// cut is Go's strings.Cut: before and after the first sep ("" after when
// there is none).
function cut(s, sep) {
  const i = s.indexOf(sep);
  return i < 0 ? [s, "", false] : [s.slice(0, i), s.slice(i + sep.length), true];
}

// isURLPattern tells "https://x/*", "chrome://*", "view-source:*" from a
// host with a port ("localhost:8080", "example.com:8443").
function isURLPattern(pattern) {
  const [head, rest, ok] = cut(pattern, ":");
  if (!ok || head === "" || /[/*]/.test(head)) return false;
  if (rest.startsWith("//")) return true;
  return !head.includes(".") && head.toLowerCase() !== "localhost";
}

function matchHost(pattern, u) {
  let host = u.hostname.toLowerCase();
  if (pattern.includes(":")) {
    host = u.host.toLowerCase();
    if (u.port === "") {
      if (u.scheme === "http" || u.scheme === "ws") host += ":80";
      if (u.scheme === "https" || u.scheme === "wss") host += ":443";
    }
  }
  if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) || glob(pattern, host);
  if (pattern.includes("*")) return glob(pattern, host);
  const [bare] = cut(pattern, ":");
  const [hostOnly] = cut(host, ":");
  if (pattern.includes(":")) return host === pattern || host.endsWith("." + pattern);
  return hostOnly === bare || hostOnly.endsWith("." + bare);
}

// glob matches s against pattern, where "*" is any run of characters.
function glob(pattern, s) {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === s;
  if (!s.startsWith(parts[0])) return false;
  s = s.slice(parts[0].length);
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i];
    if (i === parts.length - 1) return s.endsWith(part);
    const j = s.indexOf(part);
    if (j < 0) return false;
    s = s.slice(j + part.length);
  }
  return true;
}

// The same rules as declarativeNetRequest regexFilters.

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const globRe = (g, star) => g.split("*").map(esc).join(star);
const USERINFO = "(?:[^/?#@]*@)?";
const NAME_STAR = "[^/?#@:]*";

// toRegex is the RE2 regular expression that matches the whole request
// URLs (http, https, ws, wss; requests have no fragment) that pattern
// matches, or null: for a pattern that can match no such URL (a
// chrome:// or file: pattern), and for a host with a wildcard port, which
// webNavigation handles alone.
export function toRegex(pattern) {
  pattern = pattern.trim();
  if (pattern === "") return null;
  if (isURLPattern(pattern)) {
    const i = pattern.indexOf(":");
    const scheme = pattern.slice(0, i).toLowerCase();
    if (!["http", "https", "ws", "wss"].includes(scheme)) return null;
    return "^" + globRe(scheme + pattern.slice(i), ".*") + "$";
  }
  const [host, rest] = cut(pattern, "/");
  const authority = authorityRe(host.toLowerCase());
  if (authority === null) return null;
  return "^" + authority + (rest === "" ? "(?:[/?].*)?" : globRe("/" + rest, ".*")) + "$";
}

// authorityRe matches scheme, user info, host and port for a host glob.
function authorityRe(h) {
  if (!h.includes(":")) return "(?:https?|wss?)://" + USERINFO + nameRe(h) + "(?::[0-9]+)?";
  const j = h.lastIndexOf(":");
  const name = h.slice(0, j);
  const port = h.slice(j + 1);
  if (name === "" || name.includes(":") || !/^[0-9]+$/.test(port)) return null;
  // Go appends the scheme's default port to a URL that has none, and
  // URLs written by Chrome never show a default port.
  const alts = ["(?:https?|wss?)://" + USERINFO + nameRe(name) + ":" + port];
  if (port === "80") alts.push("(?:http|ws)://" + USERINFO + nameRe(name));
  if (port === "443") alts.push("(?:https|wss)://" + USERINFO + nameRe(name));
  return "(?:" + alts.join("|") + ")";
}

function nameRe(name) {
  if (name.includes("*")) return globRe(name, NAME_STAR);
  return "(?:" + NAME_STAR + "\\.)?" + esc(name);
}
