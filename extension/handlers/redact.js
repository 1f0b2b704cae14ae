// Redaction of console messages before the recorder stores them
// (handlers/record.js keeps a copy of each tab's console record in
// chrome.storage.session, which outlives the service worker): the twin
// of internal/redact's Loose (a message's text) and URL (its URLs), run
// under node by internal/redact's twin test on the same cases. The daemon
// still redacts everything on the way out; this copy makes sure that what
// is stored holds no secret either. A value already redacted ("[redacted,
// 40 chars]", the whole value) is left as it is, so redacting twice
// changes nothing; one that merely begins "[redacted" is redacted.
// docs/reference.md#what-is-redacted says what is redacted.

const runes = (s) => [...s].length;
const mark = (s) => `[redacted, ${runes(s)} chars]`;

// isMark says whether v is a mark, exactly: redacted already.
const isMark = (v) => /^\[redacted, \d+ chars\]$/.test(v);

// markEnd is where a mark at the start of s ends (after the scheme of a
// credential: "Bearer [redacted, 40 chars]"), or -1.
function markEnd(s) {
  const m = /^(?:([A-Za-z]+)[\t\n\f\r ]+)?\[redacted, \d+ chars\]/.exec(s);
  if (!m || (m[1] !== undefined && !authScheme(m[1]))) return -1;
  return m[0].length;
}

function authScheme(word) {
  return ["bearer", "basic", "token", "digest", "negotiate"].includes(word.toLowerCase());
}

function markCred(s) {
  const t = s.trim();
  const i = t.indexOf(" ");
  if (i >= 0 && authScheme(t.slice(0, i))) return t.slice(0, i) + " " + mark(t.slice(i + 1).trim());
  return mark(s);
}

// marked says whether v is redacted already, its quotes and scheme
// aside: the mark must be the whole value.
function marked(v) {
  v = v.trim();
  if (v[0] === '"' || v[0] === "'") {
    const q = v[0];
    v = v.slice(1);
    if (v.endsWith(q)) v = v.slice(0, -1);
    v = v.trim();
  }
  const i = v.indexOf(" ");
  if (i >= 0 && authScheme(v.slice(0, i))) v = v.slice(i + 1).trim();
  return isMark(v);
}

function plainlyNotSecret(v) {
  v = v.trim().replace(/^["']+|["']+$/g, "").trim();
  const i = v.indexOf(" ");
  if (i >= 0 && authScheme(v.slice(0, i))) v = v.slice(i + 1).trim();
  else if (authScheme(v)) return true;
  return ["", "undefined", "null", "nil", "none", "[object object]"].includes(v.toLowerCase());
}

// The u beside i: Go's (?i) folds letters outside ASCII that fold to
// ASCII ones (the Kelvin sign K to k, the long s to s), and so must the
// twin, or "toKen=…" would pass here in the clear.
const secretField = /(pass(wd|word)?$|^pwd$|^pw$|passw|pass[-_]?(phrase|code)|^sig$|jwt|sess(ion)?[-_]?id|^sid$|cookie|bearer|token|secret|(^|[^a-z])key($|[^a-z])|[a-z]key$|^key|apikey|api_key|^auth$|authori[sz]ation|card|^cc[-_]?(num|number|exp)|cvc|cvv|csc|^pin$|otp|credential|session|signature|ssn)/iu;
const keyNotSecret = /^(keyword|keywords|keyboard|keys?code|monkey|keyframe|keyframes|turkey|hockey|jockey|donkey|whiskey|whisky)$/iu;

function secretPart(name) {
  const n = name.trim();
  return n !== "" && !keyNotSecret.test(n) && secretField.test(n);
}

// secretName is redact.SecretName: a nested name is secret when any of
// its parts is.
export function secretName(name) {
  if (secretPart(name)) return true;
  if (!/[[\].]/.test(name)) return false;
  return name.split(/[[\].]/).filter((p) => p !== "").some(secretPart);
}

const queryName = (name) => secretName(name) || name.trim().toLowerCase() === "code";

// As Go's url.QueryEscape and QueryUnescape (a bad escape: as it was).
const queryEscape = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, "+");
function queryUnescape(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch (_) {
    return null;
  }
}

function query(q) {
  if (q === "") return q;
  return q.split("&").map((p) => {
    const eq = p.indexOf("=");
    if (eq < 0) return p;
    const name = p.slice(0, eq);
    if (!queryName(queryUnescape(name) ?? name)) return p;
    let v = p.slice(eq + 1);
    if (plainlyNotSecret(v)) return p;
    v = queryUnescape(v) ?? v;
    if (isMark(v)) return p;
    return name + "=" + queryEscape(mark(v));
  }).join("&");
}

function pathParams(s) {
  if (!s.includes(";")) return s;
  return s.replace(/;([A-Za-z0-9_.-]{1,64})=([^;/?#]*)/g, (m, name, v) => {
    if (!secretName(name) || isMark(queryUnescape(v) ?? v)) return m;
    return ";" + name + "=" + queryEscape(mark(v));
  });
}

function userinfo(s) {
  const i = s.indexOf("://");
  if (i < 0) return s;
  const scheme = s.slice(0, i);
  const rest = s.slice(i + 3);
  const slash = rest.indexOf("/");
  const auth = slash < 0 ? rest : rest.slice(0, slash);
  const at = auth.lastIndexOf("@");
  if (at < 0) return s;
  const colon = auth.slice(0, at).indexOf(":");
  if (colon < 0) return s;
  const user = auth.slice(0, colon);
  const pass = auth.slice(colon + 1, at);
  if (isMark(pass)) return s;
  let out = scheme + "://" + user + ":" + mark(pass) + auth.slice(at);
  if (rest.length > auth.length) out += rest.slice(auth.length);
  return out;
}

// url is redact.URL.
export function url(s) {
  if (typeof s !== "string" || s === "") return s;
  const hash = s.indexOf("#");
  const rest = hash < 0 ? s : s.slice(0, hash);
  const qm = rest.indexOf("?");
  let out = pathParams(userinfo(qm < 0 ? rest : rest.slice(0, qm)));
  if (qm >= 0) out += "?" + query(rest.slice(qm + 1));
  if (hash >= 0) out += "#" + query(s.slice(hash + 1));
  return tokens(out);
}

const tokenShape = /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*|-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)|\b((?:sk|rk)_(?:live|test)_|(?:ghp|gho|ghu|ghs|ghr)_|github_pat_|xox[abposr]-|AKIA|AIza|glpat-|npm_)(?:[A-Za-z0-9_-]{8,})/g;

function restRule(prefix) {
  if (prefix.startsWith("github_pat_")) return /^[A-Za-z0-9_]{20,}/;
  if (prefix.startsWith("gh")) return /^[A-Za-z0-9]{20,}/;
  if (prefix.startsWith("xox")) return /^[A-Za-z0-9-]{10,}/;
  if (prefix === "AKIA") return /^[0-9A-Z]{16}/;
  if (prefix === "AIza") return /^[0-9A-Za-z_-]{30,}/;
  if (prefix === "glpat-") return /^[A-Za-z0-9_-]{20,}/;
  if (prefix === "npm_") return /^[A-Za-z0-9]{36}/;
  return /^[A-Za-z0-9]{8,}/;
}

function pem(block) {
  const lines = [...block.matchAll(/-----(?:BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY-----/g)].slice(0, 2);
  const beginEnd = lines[0].index + lines[0][0].length;
  const begin = block.slice(0, beginEnd);
  // Redacted already: a mark and nothing else between the lines.
  if (/^[\t\n\f\r ]*\[redacted, \d+ chars\][\t\n\f\r ]*$/.test(block.slice(beginEnd).replace(/-----(?:BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY-----/g, ""))) return block;
  if (lines.length < 2) return begin + mark(block.slice(beginEnd));
  return begin + mark(block.slice(beginEnd, lines[1].index)) + block.slice(lines[1].index);
}

function tokens(s) {
  if (!["eyJ", "_", "xox", "AKIA", "AIza", "glpat-", "PRIVATE KEY"].some((h) => s.includes(h))) return s;
  let out = "";
  let last = 0;
  for (const m of s.matchAll(tokenShape)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[1] !== undefined) {
      const restAt = start + m[1].length;
      const rest = (restRule(m[1]).exec(s.slice(restAt, end)) || [""])[0];
      if (rest === "") continue;
      out += s.slice(last, restAt) + mark(rest);
      last = restAt + rest.length;
      continue;
    }
    out += s.slice(last, start) + (m[0].startsWith("-----BEGIN") ? pem(m[0]) : mark(m[0]));
    last = end;
  }
  return last === 0 ? s : out + s.slice(last);
}

const loosePair = /(["']?)([A-Za-z0-9_.\-[\]]{1,64})(["']?[\t\n\f\r ]*(?:=>|[:=])[\t\n\f\r ]*)("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[^\t\n\f\r &,;"'}]+)/giu;
const bearer = /\b(bearer|basic|token)([\t\n\f\r ]+)([A-Za-z0-9._~+/=-]{6,})/gi;
const hints = ["pass", "pw", "token", "secret", "key", "auth", "card", "cc", "cvc", "cvv", "csc", "pin", "otp", "credential", "sess", "sid", "sig", "jwt", "cookie", "ssn", "bearer", "basic"];

function phraseEnd(text, i) {
  const j = text.slice(i).search(/[\r\n&,;}){"'<]/);
  return j >= 0 ? i + j : text.length;
}

function pairs(text) {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(loosePair)) {
    const nameAt = m.index + m[1].length;
    if (m.index < last || !secretName(m[2])) continue;
    const start = nameAt + m[2].length + m[3].length;
    let end = start + m[4].length;
    let quote = "";
    const v0 = text.slice(start, end);
    const k = markEnd(text.slice(start));
    if (v0.startsWith('"') || v0.startsWith("'")) quote = v0[0];
    // A mark, whose comma ends the pattern's value: the value runs on
    // from its end ("[redacted, 3 chars]S3CRET" is not redacted).
    else if (k >= 0) end = phraseEnd(text, start + k);
    else end = phraseEnd(text, end);
    let v = text.slice(start, end);
    if (plainlyNotSecret(v) || marked(v)) continue;
    if (quote !== "") {
      v = v.slice(1);
      if (v.endsWith(quote)) v = v.slice(0, -1);
    }
    out += text.slice(last, start) + quote + markCred(v) + quote;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

// loose is redact.Loose: secret-named pairs, an Authorization value and
// credential-shaped values in free text.
export function loose(text) {
  if (typeof text !== "string") return text;
  const lower = text.toLowerCase();
  if (!hints.some((h) => lower.includes(h))) return tokens(text);
  text = pairs(text).replace(bearer, (m, scheme, space, cred) => (plainlyNotSecret(cred) || isMark(cred) ? m : scheme + space + mark(cred)));
  return tokens(text);
}
