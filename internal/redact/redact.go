// Package redact takes secrets out of what a page's requests carried
// before the agent sees it: the values of credential headers, the values
// of fields named like a password, token, secret, key, card number or CVC
// in query strings, URL-encoded, multipart and JSON bodies, and values
// shaped like credentials (a JWT, a live API key) under any name, become
// "[redacted, N chars]" (an Authorization value keeps its scheme:
// "Bearer [redacted, 40 chars]"), and a credential header's value that is
// plainly no secret ("Bearer undefined") is shown, flagged Suspicious.
// docs/cli.md's "Secrets never reach the agent" says exactly what is
// redacted. The extension records requests as the browser made them;
// the daemon redacts on the way out, so every result that shows a request
// (console's network lines too) goes through here.
//
// Everything it reads is outside input (a page's bytes): it never fails,
// and what it cannot parse it leaves as it is only when no secret-looking
// name appears in it (see Body). Every rule is linear in its input (Go's
// regular expressions are), since bodies run to hundreds of kilobytes.
package redact

import (
	"bytes"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// secretHeaders are header names whose values are credentials, lower case.
var secretHeaders = map[string]bool{
	"cookie": true, "set-cookie": true, "set-cookie2": true,
	"authorization": true, "proxy-authorization": true,
}

// apiKeyHeader matches the names of custom headers of credentials: those
// that say auth, token, secret, key, session, signature, password,
// credential or jwt (x-api-key, x-auth-token, x-csrf-token,
// x-amz-security-token, private-token, x-session-id, x-hub-signature …).
var apiKeyHeader = regexp.MustCompile(`(?i)(api[-_]?key|token|secret|auth|session|password|signature|credential|jwt|(^|[-_])key([-_]|$))`)

// urlHeaders are header names whose value is a URL, lower case: the page's
// own URL (Referer) or where it sends the browser (an OAuth redirect's
// Location carries ?code=…), redacted as a URL is.
var urlHeaders = map[string]bool{"referer": true, "location": true, "content-location": true}

// Header returns value with its secrets taken out. A credential header's
// value keeps its shape: its scheme ("Bearer [redacted, 40 chars]"), a
// cookie's names ("sid=[redacted, 32 chars]; theme=[redacted, 4 chars]"),
// a Set-Cookie's attributes; a value plainly no secret, such as "Bearer
// undefined", is shown as it is and flagged Suspicious, since it is the
// bug. A URL-bearing header is redacted as a URL, and any other has its
// credential-shaped values (a JWT, a live API key) taken out.
func Header(name, value string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch {
	case urlHeaders[n]:
		return URL(value)
	case secretHeaders[n] || apiKeyHeader.MatchString(n):
		if plainlyNotSecret(value) {
			return strings.TrimRight(value+" ", " ") + " " + Suspicious
		}
		switch n {
		case "cookie":
			return cookies(value)
		case "set-cookie", "set-cookie2":
			// One cookie a line (a browser may join several so).
			lines := strings.Split(value, "\n")
			for i, l := range lines {
				pair, attrs, hasAttrs := strings.Cut(l, ";")
				lines[i] = cookies(pair)
				if hasAttrs {
					lines[i] += ";" + attrs
				}
			}
			return strings.Join(lines, "\n")
		}
		return markCred(value)
	}
	return tokens(value)
}

// cookies redacts the values of a Cookie header's name=value pairs,
// keeping their names: which cookies were sent is often the bug.
func cookies(value string) string {
	pairs := strings.Split(value, ";")
	for i, p := range pairs {
		name, v, ok := strings.Cut(p, "=")
		switch {
		case !ok:
			pairs[i] = mark(p)
		case plainlyNotSecret(v):
		default:
			pairs[i] = name + "=" + mark(v)
		}
	}
	return strings.Join(pairs, ";")
}

// secretField matches field names whose values are secrets: password,
// passwd, pwd, pass, token (access_token, id_token, csrfToken …), secret
// (client_secret), key (apiKey, api_key, privateKey — but not "keyword",
// "keyboard" or "monkey"), card (card_number, cardNumber, cc-number),
// cvc, cvv, csc, pin and otp.
var secretField = regexp.MustCompile(`(?i)(pass(wd|word)?$|^pwd$|^pw$|passw|pass[-_]?(phrase|code)|^sig$|jwt|sess(ion)?[-_]?id|^sid$|cookie|bearer|token|secret|(^|[^a-z])key($|[^a-z])|[a-z]key$|^key|apikey|api_key|^auth$|authori[sz]ation|card|^cc[-_]?(num|number|exp)|cvc|cvv|csc|^pin$|otp|credential|session|signature|ssn)`)

// keyNotSecret are names the key rule would take that are plainly not
// secrets.
var keyNotSecret = regexp.MustCompile(`(?i)^(keyword|keywords|keyboard|keys?code|monkey|keyframe|keyframes|turkey|hockey|jockey|donkey|whiskey|whisky)$`)

// SecretName reports whether a form, query or JSON field named name holds
// a secret. A nested form name (user[password], user.password) is secret
// when any of its parts is.
func SecretName(name string) bool {
	if secretPart(name) {
		return true
	}
	if !strings.ContainsAny(name, "[].") {
		return false
	}
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '[' || r == ']' || r == '.' }) {
		if secretPart(part) {
			return true
		}
	}
	return false
}

func secretPart(name string) bool {
	n := strings.TrimSpace(name)
	if n == "" || keyNotSecret.MatchString(n) {
		return false
	}
	return secretField.MatchString(n)
}

// queryName reports whether a query or form parameter named name holds a
// secret: the field names, and "code", which in a URL or a token request
// is an OAuth authorization code (in JSON it is mostly an error's code).
func queryName(name string) bool {
	return SecretName(name) || strings.EqualFold(strings.TrimSpace(name), "code")
}

// Query redacts the values of secret-named fields of a query string (or a
// URL-encoded body) without re-encoding the rest: what is not a secret
// stays byte for byte.
func Query(q string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		dec, err := url.QueryUnescape(name)
		if err != nil {
			dec = name
		}
		if !hasValue || !queryName(dec) {
			continue
		}
		if v := p[len(name)+1:]; !plainlyNotSecret(v) {
			if u, err := url.QueryUnescape(v); err == nil {
				v = u
			}
			// Redacted already (the extension's stored copy of a
			// console line is): its mark stays as it counted.
			if isMark(v) {
				continue
			}
			parts[i] = name + "=" + url.QueryEscape(mark(v))
		}
	}
	return strings.Join(parts, "&")
}

// URL redacts the secret-named fields of a URL's query and of its
// fragment (tokens come back in #access_token=… from OAuth), and any
// user:password in it.
func URL(s string) string {
	if s == "" {
		return s
	}
	rest, frag, hasFrag := strings.Cut(s, "#")
	base, q, hasQuery := strings.Cut(rest, "?")
	base = pathParams(userinfo(base))
	out := base
	if hasQuery {
		out += "?" + Query(q)
	}
	if hasFrag {
		out += "#" + Query(frag)
	}
	return tokens(out)
}

// pathParam is a ;name=value parameter in a URL's path (Java servers put
// the session there: /cart;jsessionid=…).
var pathParam = regexp.MustCompile(`;([A-Za-z0-9_.\-]{1,64})=([^;/?#]*)`)

// pathParams redacts the secret-named ;name=value parameters of a path.
func pathParams(s string) string {
	if !strings.Contains(s, ";") {
		return s
	}
	return pathParam.ReplaceAllStringFunc(s, func(m string) string {
		name, v, _ := strings.Cut(m[1:], "=")
		if u, err := url.QueryUnescape(v); !SecretName(name) || (err == nil && isMark(u)) {
			return m
		}
		return ";" + name + "=" + url.QueryEscape(mark(v))
	})
}

// userinfo replaces the password of scheme://user:password@host.
func userinfo(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	auth, path, _ := strings.Cut(rest, "/")
	at := strings.LastIndex(auth, "@")
	if at < 0 {
		return s
	}
	user, pass, hasPass := strings.Cut(auth[:at], ":")
	if !hasPass || isMark(pass) {
		return s
	}
	out := scheme + "://" + user + ":" + mark(pass) + auth[at:]
	if len(rest) > len(auth) {
		out += "/" + path
	}
	return out
}

// Body redacts a request or response body by its content type: JSON
// (also when it merely looks like JSON) field by field, URL-encoded forms
// field by field. Text that is neither but names a secret field
// ("password=…" in a text/plain body, a JSON document cut short) has the
// value after each such name replaced, so nothing that looks like one is
// passed on whole.
func Body(contentType, body string) string {
	if body == "" {
		return body
	}
	body = utf16Text(body)
	ct := strings.ToLower(contentType)
	trim := strings.TrimSpace(body)
	if strings.Contains(ct, "multipart/") || strings.HasPrefix(body, "--") {
		if out, ok := multipartBody(contentType, body); ok {
			return out
		}
	}
	if strings.Contains(ct, "json") || (len(trim) > 0 && (trim[0] == '{' || trim[0] == '[')) {
		if out, ok := JSON(body); ok {
			return out
		}
	}
	// The extension hands a form that Chrome parsed (multipart ones too)
	// on URL-encoded, whatever the request's content type said.
	if strings.Contains(ct, "x-www-form-urlencoded") || formLike(trim) {
		return Query(body)
	}
	if strings.Contains(ct, "html") || strings.HasPrefix(trim, "<") {
		body = htmlTags(body)
	}
	return loose(body)
}

// formLike reports whether s reads as a URL-encoded form: name=value
// pairs joined by &, with no spaces or line breaks.
func formLike(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	return ok && name != "" && !strings.ContainsAny(s, " \t\r\n<>{}\"'") && !strings.ContainsAny(name, ":;,/")
}

// JSON redacts the values of secret-named members anywhere in a JSON
// document, keeping its order; ok is false when body is not one JSON value.
func JSON(body string) (string, bool) {
	var buf bytes.Buffer
	if !writeJSON(&buf, strings.NewReader(body)) {
		return "", false
	}
	return buf.String(), true
}

// loosePair finds name = value, name: value, "name": "value",
// 'name': 'value' and "name" => "value" pairs in text that is not
// well-formed JSON or a form.
var loosePair = regexp.MustCompile(`(?i)(["']?)([A-Za-z0-9_.\-\[\]]{1,64})(["']?\s*(?:=>|[:=])\s*)("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[^\s&,;"'}]+)`)

// Loose redacts name=value and "name": value pairs of secret-named fields
// in free text (a console message that prints a request, say), and
// credential-shaped values (a JWT) wherever they are.
func Loose(text string) string { return loose(text) }

// bearer matches the credential of an Authorization value in text.
var bearer = regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+)([A-Za-z0-9._~+/=\-]{6,})`)

// hints are the words without which neither a secret-named field nor a
// credential can be in a text (lower case): most console lines hold none,
// and skip the regular expressions. tokens has its own.
var hints = []string{"pass", "pw", "token", "secret", "key", "auth", "card", "cc", "cvc", "cvv", "csc", "pin", "otp", "credential", "sess", "sid", "sig", "jwt", "cookie", "ssn", "bearer", "basic"}

func loose(body string) string {
	lower := strings.ToLower(body)
	if !slices.ContainsFunc(hints, func(h string) bool { return strings.Contains(lower, h) }) {
		return tokens(body)
	}
	// Pairs first, so that a mark counts the characters of the value as
	// it was; then what is left: an Authorization value, and tokens.
	body = pairs(body)
	body = bearer.ReplaceAllStringFunc(body, func(m string) string {
		g := bearer.FindStringSubmatch(m)
		if plainlyNotSecret(g[3]) || isMark(g[3]) {
			return m
		}
		return g[1] + g[2] + mark(g[3])
	})
	return tokens(body)
}

// pairs replaces the values of the secret-named pairs of text. A value
// without quotes runs to the end of its phrase ("password: two words"
// hides both words), up to a line break or a separator.
func pairs(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range loosePair.FindAllStringSubmatchIndex(text, -1) {
		if m[0] < last || !SecretName(text[m[4]:m[5]]) {
			continue
		}
		start, end := m[8], m[9]
		quote := ""
		if v := text[start:end]; strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'") {
			quote = v[:1]
		} else if k := markEnd(text[start:]); k >= 0 {
			// A mark, whose comma ends the pattern's value: the value
			// runs on from its end, so that what follows it in the same
			// phrase ("[redacted, 3 chars]S3CRET") is not taken for
			// redacted.
			end = phraseEnd(text, start+k)
		} else {
			end = phraseEnd(text, end)
		}
		v := text[start:end]
		if plainlyNotSecret(v) || marked(v) {
			continue
		}
		if quote != "" {
			v = strings.TrimSuffix(v[1:], quote)
		}
		b.WriteString(text[last:start])
		b.WriteString(quote + markCred(v) + quote)
		last = end
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// phraseEnd is where an unquoted value that ends at i continues to: the
// next line break or separator.
func phraseEnd(text string, i int) int {
	if j := strings.IndexAny(text[i:], "\r\n&,;}){\"'<"); j >= 0 {
		return i + j
	}
	return len(text)
}
