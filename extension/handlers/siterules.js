// The site rules' semantics, without side effects: a twin of
// internal/policy (read its doc comment). match() and check() follow
// Match and Check line by line, and toRegex() turns a pattern into the
// declarativeNetRequest regexFilter that matches the same request URLs.
// The cases in internal/policy/testdata/cases.json are checked against
// Go, against this file under node (extension/policy_test.go) and in
// Chromium (e2e/user).

// WHATWG's special schemes and their default ports: the URLs whose host
// the browser parses as a domain or an IP address.
const SPECIAL = { http: "80", https: "443", ws: "80", wss: "443", ftp: "21", file: "" };
const WEB = ["http", "https", "ws", "wss"];

// sites reads raw as the browser does (its own URL parser) and gives the
// readings the rules match, as internal/policy's sites does: the URL in
// one spelling — host without trailing dots, an IPv4-mapped IPv6 address
// as the IPv4 address, no user info, no fragment, escapes of unreserved
// characters decoded, empty and dot segments collapsed — and, when the
// path has an encoded slash (%2F, %5C), the same with those read as
// slashes. The browser's parser already does the rest (case, punycode,
// the decimal, octal and hex IPv4 forms, backslashes, default ports).
// A URL the browser refuses throws.
function sites(raw) {
  const u = new URL(raw);
  const s = { scheme: u.protocol.slice(0, -1).toLowerCase(), host: "", port: "", path: "", query: canonEscapes(u.search.slice(1)) };
  const special = s.scheme in SPECIAL;
  const authority = special || u.href.startsWith(u.protocol + "//");
  if (!authority && !u.pathname.startsWith("/")) {
    // An opaque path: view-source:…, mailto:…, javascript:…
    s.path = u.pathname.replace(/ +$/, "");
    return [withHref(s, false)];
  }
  if (special) {
    s.host = canonHost(u.hostname);
    s.port = u.port;
  } else {
    // chrome://settings: a name no rule but a URL pattern matches, kept
    // as written (in lower case).
    s.host = u.host.toLowerCase();
  }
  if (s.scheme === "file" && s.host === "localhost") s.host = "";
  s.path = collapse(canonEscapes(u.pathname));
  const out = [withHref(s, authority)];
  const slashed = collapse(s.path.replace(/%2F|%5C/g, "/"));
  if (slashed !== s.path) out.push(withHref({ ...s, path: slashed }, authority));
  return out;
}

function withHref(s, authority) {
  let href = s.scheme + ":";
  if (authority) href += "//" + s.host + (s.port ? ":" + s.port : "");
  href += s.path + (s.query ? "?" + s.query : "");
  return { ...s, href };
}

// canonHost finishes the browser's host: trailing dots dropped (the
// rest read again by the browser's parser, which may now see an IPv4
// number form), an IPv4-mapped IPv6 address as the IPv4 address, the
// unspecified addresses as loopback (internal/policy's loopback: a
// connection to 0.0.0.0 or [::] reaches this machine's own servers).
function canonHost(h) {
  const out = readHost(h);
  return { "0.0.0.0": "127.0.0.1", "[::]": "[::1]" }[out] || out;
}

function readHost(h) {
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(h);
  if (m) {
    const hi = parseInt(m[1], 16), lo = parseInt(m[2], 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  if (h.startsWith("[")) return h;
  // Chrome escapes what no host may have ("exa mple.com"); Go refuses it.
  if (/[\x00-\x20#/:<>?@[\\\]^|%\x7f]/.test(h)) throw new TypeError(`host ${JSON.stringify(h)} has a character no host may have`);
  const trimmed = h.replace(/\.+$/, "");
  if (trimmed === h || trimmed === "") return trimmed;
  return new URL("http://" + trimmed + "/").hostname;
}

// canonEscapes decodes the escapes of unreserved characters (letters,
// digits, "-._~"), which mean the same written either way, and writes the
// other escapes' hex digits in upper case.
function canonEscapes(s) {
  return s.replace(/%([0-9a-fA-F]{2})/g, (e, hex) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : e.toUpperCase();
  });
}

// collapse drops a path's empty and "." segments and resolves ".." ones,
// keeping a final slash: "//admin/./x/../y/" is "/admin/y/".
function collapse(p) {
  if (!p.startsWith("/")) return p;
  const segs = p.split("/");
  const out = [];
  let dir = false;
  segs.forEach((s, i) => {
    if (s !== "" && s !== "." && s !== "..") {
      out.push(s);
      return;
    }
    if (s === "..") out.pop();
    dir = dir || i === segs.length - 1;
  });
  return "/" + out.join("/") + (dir && out.length ? "/" : "");
}

// check decides whether the bridge may touch raw (policy.Rules.Check):
// {allowed, rule, kind: "builtin" | "deny" | "allow" (not on the allow
// list), why}. A deny rule that matches any reading of the URL denies it;
// an allow rule must match them all.
export function check(rules, raw) {
  if (!raw || raw === "about:blank") return { allowed: true, rule: "" };
  let views;
  try {
    views = sites(raw);
  } catch (err) {
    return { allowed: false, rule: "", kind: "deny", why: `its URL cannot be checked against the site rules (${err.message})` };
  }
  const any = (p) => views.some((s) => matchSite(p, s));
  for (const p of rules.builtInDeny || []) {
    if (any(p)) return { allowed: false, rule: p, kind: "builtin", why: `the browser's own pages and extension stores are off limits (built-in rule "${p}")` };
  }
  for (const p of rules.deny || []) {
    if (any(p)) return { allowed: false, rule: p, kind: "deny", why: `denied by your site rule "${p}" (browser-bridge policy list)` };
  }
  const allow = rules.allow || [];
  if (allow.length === 0) return { allowed: true, rule: "" };
  for (const p of allow) {
    if (views.every((s) => matchSite(p, s))) return { allowed: true, rule: p };
  }
  // The pattern that adds the site, or how to lift the list (policy.go's notAllowed).
  const add = views[0].host || "PATTERN";
  return { allowed: false, rule: "", kind: "allow", why: `not on your allow list (${allow.join(", ")}): add it with browser-bridge policy allow ${add}, or take patterns off the list with browser-bridge policy remove PATTERN (an empty list allows every site)` };
}

// match reports whether pattern matches the URL raw as a deny rule does
// (policy.Match): in any of its readings. A URL the browser would not
// load matches nothing.
export function match(pattern, raw) {
  let views;
  try {
    views = sites(raw);
  } catch (_) {
    return false;
  }
  return views.some((s) => matchSite(pattern, s));
}

function matchSite(pattern, s) {
  pattern = pattern.trim();
  if (pattern === "") return false;
  if (isURLPattern(pattern)) return glob(canonURLPattern(pattern), s.href);
  if (!WEB.includes(s.scheme)) return false;
  const [host, rest] = cut(pattern, "/");
  if (!matchHost(host, s)) return false;
  if (rest === "") return true;
  return glob(canonPatternPath("/" + rest), s.path + (s.query ? "?" + s.query : ""));
}

// cut is Go's strings.Cut: before and after the first sep ("" after when
// there is none).
function cut(s, sep) {
  const i = s.indexOf(sep);
  return i < 0 ? [s, "", false] : [s.slice(0, i), s.slice(i + sep.length), true];
}

// isURLPattern tells "https://x/*", "chrome://*", "view-source:*" from a
// host with a port ("localhost:8080", "example.com:8443", "[::1]:8080").
function isURLPattern(pattern) {
  const [head, rest, ok] = cut(pattern, ":");
  if (!ok || !/^[A-Za-z][A-Za-z0-9+\-.]*$/.test(head)) return false;
  if (rest.startsWith("//")) return true;
  return !head.includes(".") && head.toLowerCase() !== "localhost";
}

// STAR stands in for "*" while a pattern goes through the URL parser.
const STAR = "zq-star-qz";

// memo keeps the last results of f, a pure function of a pattern: each
// check reads every rule again, and the URL parser is not free.
function memo(f) {
  const seen = new Map();
  return (p) => {
    if (!seen.has(p)) {
      if (seen.size >= 256) seen.clear();
      seen.set(p, f(p));
    }
    return seen.get(p);
  };
}

// canonURLPattern writes a URL pattern's literal parts in the one
// spelling; one the parser cannot read is matched as written, its scheme
// in lower case.
const canonURLPattern = memo((pattern) => {
  try {
    let s = sites(pattern.replaceAll("*", STAR))[0];
    // "https://*" names no path: the "/" the parser gives it would
    // require one.
    const [, rest, ok] = cut(pattern, "://");
    if (ok && !/[/?]/.test(rest) && s.path === "/") s = withHref({ ...s, path: "" }, true);
    return s.href.replaceAll(STAR, "*");
  } catch (_) {
    const i = pattern.indexOf(":");
    return pattern.slice(0, i).toLowerCase() + pattern.slice(i);
  }
});

// canonPatternPath writes a host pattern's path (and query) as a URL's.
function canonPatternPath(p) {
  const [path, query, hasQuery] = cut(p, "?");
  return collapse(canonEscapes(path)) + (hasQuery ? "?" + canonEscapes(query) : "");
}

// canonPatternHost is a host glob in the one spelling of hosts, its "*"s
// kept; a glob the browser could not read as a host is put in lower case.
const canonPatternHost = memo((h) => {
  if (/[/?#@\\]/.test(h)) return h.toLowerCase();
  try {
    return canonHost(new URL("http://" + h.replaceAll("*", STAR) + "/").hostname).replaceAll(STAR, "*");
  } catch (_) {
    return h.toLowerCase();
  }
});

// splitPatternHost cuts a host pattern into its host glob and port glob
// ("" for none): "localhost:80*", "[::1]:8080", "::1" (no port).
function splitPatternHost(p) {
  if (p.startsWith("[") && p.includes("]")) {
    const i = p.indexOf("]");
    const rest = p.slice(i + 1);
    return [p.slice(0, i + 1), rest.startsWith(":") ? rest.slice(1) : rest];
  }
  if ((p.match(/:/g) || []).length > 1) return ["[" + p + "]", ""];
  const [host, port] = cut(p, ":");
  return [host, port];
}

function matchHost(pattern, s) {
  const [hostGlob, portGlob] = splitPatternHost(pattern);
  if (portGlob !== "" && !glob(portGlob, s.port || SPECIAL[s.scheme] || "")) return false;
  pattern = canonPatternHost(hostGlob);
  const host = s.host;
  if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) || glob(pattern, host);
  if (pattern.includes("*")) return glob(pattern, host);
  return host === pattern || host.endsWith("." + pattern);
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
//
// They see the URLs of requests (navigations and, in the bridge's tabs,
// every subresource: http, https, ws and wss) as Chrome writes them: host in lower case and punycode
// with the IPv4 forms resolved, no default port, dot segments resolved.
// What Chrome leaves as written, a deny rule's regex lets through in
// every spelling it can afford: trailing dots after the host, an IPv4
// address as an IPv4-mapped IPv6 one, user info, runs of slashes, and —
// when the regex stays small enough — encoded slashes between segments
// and escapes of unreserved characters. An allow rule's regex takes
// only the spellings that cannot change the path a server reads (host
// spellings, user info, runs of slashes). A ".." segment that an
// encoded slash keeps from Chrome ("/x/..%2Fadmin") is beyond a regex:
// webNavigation stops that one once it sees it.
//
// Chrome refuses a regexFilter that compiles to more than a few hundred
// bytes of RE2 program (isRegexSupported: memoryLimitExceeded), and one
// refused rule fails the whole update. So each regex is built in the
// richest form whose cost (an estimate of RE2's instructions: against
// Chromium 156 every regex of cost 110 or less was taken, and none of
// more than 122) stays within BUDGET; an IPv4 host's two spellings get
// a regex each; and a pattern too long for any form gets none:
// webNavigation enforces it alone.

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const globRe = (g, star) => g.split("*").map(esc).join(star);
const USERINFO = "(?:[^/?#@]*@)?";
const NAME_STAR = "[^/?#@:]*";
// SEP is one slash between segments as a server may read it.
const SEP = "(?:/|%2[Ff]|%5[Cc])+";
const BUDGET = 100;
// The forms of a path, richest first: encoded slashes and escapes of
// unreserved characters; encoded slashes; runs of slashes only.
const ESCAPES = 2, SLASHES = 1, PLAIN = 0;

// toRegexes is the RE2 regular expressions that together match the
// request URLs (http, https, ws, wss; requests have no fragment) that
// pattern matches as a rule of kind ("deny", the default, or "allow"): one per
// spelling of the host (an IPv4 address has two), each in the richest
// form that stays within BUDGET. It is empty for a pattern that can
// match no such URL (a chrome:// or file: pattern), for a host with a
// wildcard port, and for a pattern too long for a regex Chrome takes:
// webNavigation handles those alone.
export function toRegexes(pattern, kind = "deny") {
  pattern = pattern.trim();
  if (pattern === "") return [];
  const out = [];
  for (const host of [NAME, MAPPED, UNSPECIFIED]) {
    const re = fitting(pattern, kind, host);
    // The unspecified spelling is a rare one: without a regex of its
    // own, webNavigation stops it.
    if (re === null && host !== UNSPECIFIED) return [];
    if (re) out.push(re);
  }
  return out;
}

// fitting is the regex of pattern for the host spellings hosts in the
// richest form within BUDGET; null when none fits or the pattern has no
// regex, undefined when hosts is MAPPED and the host is no IPv4 address.
function fitting(pattern, kind, hosts) {
  for (const form of kind === "allow" ? [PLAIN] : [ESCAPES, SLASHES, PLAIN]) {
    // A host pattern's regex takes ws and wss too (a page's sockets)
    // when it can afford them.
    for (const ws of [true, false]) {
      const re = regexOf(pattern, form, hosts, ws);
      if (re === null || re === undefined || cost(re) <= BUDGET) return re;
    }
  }
  return null;
}

// The spellings of an IPv4 host a regex takes: as written, or as an
// IPv4-mapped IPv6 address; and for a loopback address, the unspecified
// address that reaches it.
const NAME = 0, MAPPED = 1, UNSPECIFIED = 2;

function regexOf(pattern, form, hosts, ws) {
  if (isURLPattern(pattern)) {
    const canon = canonURLPattern(pattern);
    const i = canon.indexOf(":");
    const scheme = canon.slice(0, i);
    const rest = canon.slice(i + 1);
    if (!WEB.includes(scheme) || !rest.startsWith("//")) return null;
    const head = "^" + scheme + "://" + USERINFO;
    const slash = rest.indexOf("/", 2);
    const [host, port] = splitPatternHost(slash < 0 ? rest.slice(2) : rest.slice(2, slash));
    if (port.includes("*") || host.includes("*")) {
      // A "*" in the host or port is any run of characters, as in the
      // glob.
      if (hosts !== NAME) return undefined;
      if (port.includes("*")) return head + globRe(rest.slice(2), ".*") + "$";
      const name = globRe(host, ".*") + "\\.*" + (port ? ":" + port : "");
      return head + name + (slash < 0 ? "$" : pathRe(rest.slice(slash), form));
    }
    const name = hostRe(host, hosts);
    if (name === undefined) return undefined;
    return head + name + (port ? ":" + port : "") + (slash < 0 ? "$" : pathRe(rest.slice(slash), form));
  }
  const [host, rest] = cut(pattern, "/");
  const authority = authorityRe(host, hosts, ws);
  if (authority === null || authority === undefined) return authority;
  return "^" + authority + (rest === "" ? "(?:[/?].*)?$" : pathRe(canonPatternPath("/" + rest), form));
}

// authorityRe matches scheme (http and https, and ws and wss with ws),
// user info, host and port for a host glob.
function authorityRe(h, hosts, ws) {
  const [host, port] = splitPatternHost(h);
  if (host === "") return null;
  const name = nameRe(canonPatternHost(host), hosts);
  if (name === undefined) return undefined;
  const scheme = ws ? "(?:http|ws)" : "http";
  if (port === "") return scheme + "s?://" + USERINFO + name + "(?::[0-9]+)?";
  if (!/^[0-9]+$/.test(port)) return null;
  // Go appends the scheme's default port to a URL that has none, and
  // URLs written by Chrome never show a default port.
  const alts = [scheme + "s?://" + USERINFO + name + ":" + port];
  if (port === "80") alts.push(scheme + "://" + USERINFO + name);
  if (port === "443") alts.push(scheme + "s://" + USERINFO + name);
  return "(?:" + alts.join("|") + ")";
}

// nameRe matches a host glob's host and its subdomains (an IP address
// has none).
function nameRe(name, hosts) {
  if (name.includes("*") || name.startsWith("[") || IPV4.test(name)) return hostRe(name, hosts);
  const re = hostRe(name, hosts);
  return re === undefined ? undefined : "(?:" + NAME_STAR + "\\.)?" + re;
}

const IPV4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

// UNSPECIFIED_RE is how Chrome writes the unspecified address that
// reaches a loopback one (canonHost).
const UNSPECIFIED_RE = { "127.0.0.1": "(?:0\\.0\\.0\\.0\\.*|\\[::ffff:0:0\\])", "[::1]": "\\[::\\]" };

// hostRe matches one canonical host as Chrome may write it: with
// trailing dots, an IPv4 address as an IPv4-mapped IPv6 one, a loopback
// address as the unspecified one (hosts says which; undefined for MAPPED
// and a host that is no IPv4 address, for UNSPECIFIED and one that is
// no loopback address).
function hostRe(name, hosts) {
  const ip = IPV4.exec(name);
  if (hosts === MAPPED && !ip) return undefined;
  if (hosts === UNSPECIFIED) return UNSPECIFIED_RE[name];
  if (name.startsWith("[")) return esc(name);
  const dots = "\\.*";
  if (name.includes("*")) return globRe(name, NAME_STAR) + dots;
  if (!ip || hosts === NAME) return esc(name) + dots;
  const [a, b, c, d] = ip.slice(1).map(Number);
  return "\\[::ffff:" + ((a << 8) | b).toString(16) + ":" + ((c << 8) | d).toString(16) + "\\]";
}

// pathRe matches a canonical path (and query) glob in the spellings of
// form, to the end of the URL.
function pathRe(p, form) {
  const [path, query, hasQuery] = cut(p, "?");
  let re = "";
  const put = (r) => (re += r);
  for (let i = 0; i < path.length; i++) {
    if (path[i] === "/") {
      re += form >= SLASHES ? SEP : "/+";
      while (path[i + 1] === "/") i++;
    } else {
      i = charRe(path, i, form === ESCAPES, put);
    }
  }
  if (hasQuery) {
    re += "\\?";
    for (let i = 0; i < query.length; i++) i = charRe(query, i, form === ESCAPES, put);
  }
  // A final "*" matches any rest: the regex need not say so.
  return re.endsWith(".*") ? re.slice(0, -2) : re + "$";
}

// charRe puts the regex for s[i] (a "*", an escape, or a character that
// may come escaped) and returns the index of its last character.
function charRe(s, i, escapes, put) {
  const c = s[i];
  const anyCase = (h) => (/[A-Fa-f]/.test(h) ? "[" + h.toUpperCase() + h.toLowerCase() + "]" : h);
  if (c === "*") {
    put(".*");
    return i;
  }
  if (c === "%" && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
    put("%" + anyCase(s[i + 1]) + anyCase(s[i + 2]));
    return i + 2;
  }
  if (escapes && /[A-Za-z0-9\-._~]/.test(c)) {
    const hex = c.charCodeAt(0).toString(16).toUpperCase();
    put("(?:" + esc(c) + "|%" + anyCase(hex[0]) + anyCase(hex[1]) + ")");
    return i;
  }
  put(esc(c));
  return i;
}

// cost estimates the RE2 instructions of re (only the syntax toRegex
// writes): one per character, quantifier and alternative; a class one
// per character or range, three more when negated (its complement spans
// UTF-8).
export function cost(re) {
  let n = 0;
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === "\\") {
      n++;
      i++;
    } else if (c === "(") {
      if (re.startsWith("(?:", i)) i += 2;
    } else if (c === "[") {
      const j = re.indexOf("]", i + 1);
      const body = re.slice(i + 1, j);
      const items = body.replace(/^\^/, "").replace(/.-./g, "r").length;
      n += body.startsWith("^") ? items + 3 : items;
      i = j;
    } else if (c === "{") {
      n += 2;
      i = re.indexOf("}", i);
    } else if (c !== ")") {
      n++;
    }
  }
  return n;
}
