// Package redact takes secrets out of what a page's requests carried
// before the agent sees it (SPEC §2b, network): the values of credential
// headers, and the values of fields named like a password, token, secret,
// key, card number or CVC in query strings, URL-encoded bodies and JSON
// bodies, become "[redacted]". The extension records requests as the
// browser made them; the daemon redacts on the way out, so every result
// that shows a request (console's network lines too) goes through here.
//
// Everything it reads is outside input (a page's bytes): it never fails,
// and what it cannot parse it leaves as it is only when no secret-looking
// name appears in it (see Body).
package redact

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Mark replaces a secret value.
const Mark = "[redacted]"

// secretHeaders are header names whose values are credentials, lower case.
var secretHeaders = map[string]bool{
	"cookie": true, "set-cookie": true, "set-cookie2": true,
	"authorization": true, "proxy-authorization": true,
}

// apiKeyHeader matches header names of API keys and tokens: x-api-key,
// api-key, x-auth-token, x-csrf-token, x-amz-security-token, private-token …
var apiKeyHeader = regexp.MustCompile(`(?i)(api[-_]?key|token|secret|auth|session|password|signature|credential)`)

// Header returns value, or Mark when name is a credential header.
func Header(name, value string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if secretHeaders[n] || apiKeyHeader.MatchString(n) {
		return Mark
	}
	return value
}

// secretField matches field names whose values are secrets: password,
// passwd, pwd, pass, token (access_token, id_token, csrfToken …), secret
// (client_secret), key (apiKey, api_key, privateKey — but not "keyword",
// "keyboard" or "monkey"), card (card_number, cardNumber, cc-number),
// cvc, cvv, csc, pin and otp.
var secretField = regexp.MustCompile(`(?i)(pass(wd|word)?$|^pwd$|passw|token|secret|(^|[^a-z])key($|[^a-z])|[a-z]key$|^key|apikey|api_key|^auth$|authori[sz]ation|card|^cc[-_]?(num|number|exp)|cvc|cvv|csc|^pin$|otp|credential|session|signature|ssn)`)

// keyNotSecret are names the key rule would take that are plainly not
// secrets.
var keyNotSecret = regexp.MustCompile(`(?i)^(keyword|keywords|keyboard|keys?code|monkey|keyframe|keyframes|turkey|hockey|jockey|donkey|whiskey|whisky)$`)

// SecretName reports whether a form, query or JSON field named name holds
// a secret.
func SecretName(name string) bool {
	n := strings.TrimSpace(name)
	if n == "" || keyNotSecret.MatchString(n) {
		return false
	}
	return secretField.MatchString(n)
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
		if hasValue && SecretName(dec) {
			parts[i] = name + "=" + url.QueryEscape(Mark)
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
	base = userinfo(base)
	out := base
	if hasQuery {
		out += "?" + Query(q)
	}
	if hasFrag {
		out += "#" + Query(frag)
	}
	return out
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
	user, _, hasPass := strings.Cut(auth[:at], ":")
	if !hasPass {
		return s
	}
	out := scheme + "://" + user + ":" + Mark + auth[at:]
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
	ct := strings.ToLower(contentType)
	trim := strings.TrimSpace(body)
	if strings.Contains(ct, "json") || (len(trim) > 0 && (trim[0] == '{' || trim[0] == '[')) {
		if out, ok := JSON(body); ok {
			return out
		}
	}
	if strings.Contains(ct, "x-www-form-urlencoded") {
		return Query(body)
	}
	return loose(body)
}

// JSON redacts the values of secret-named members anywhere in a JSON
// document, keeping its order; ok is false when body is not one JSON value.
func JSON(body string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	if dec.More() {
		return "", false
	}
	var buf bytes.Buffer
	if !writeJSON(&buf, strings.NewReader(body)) {
		return "", false
	}
	return buf.String(), true
}

// loosePair finds name = value, name: value and "name": "value" pairs in
// text that is not well-formed JSON or a form.
var loosePair = regexp.MustCompile(`(?i)("?)([A-Za-z0-9_.\-\[\]]{1,64})("?\s*[:=]\s*)("(?:[^"\\]|\\.)*"?|[^\s&,;"}]+)`)

// Loose redacts name=value and "name": value pairs of secret-named fields
// in free text (a console message that prints a request, say).
func Loose(text string) string { return loose(text) }

// bearer matches the credential of an Authorization value in text.
var bearer = regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=\-]{6,}`)

// hints are the words without which neither a secret-named field nor a
// credential can be in a text (lower case): most console lines hold none,
// and skip the regular expressions.
var hints = []string{"pass", "pwd", "token", "secret", "key", "auth", "card", "cc", "cvc", "cvv", "csc", "pin", "otp", "credential", "session", "signature", "ssn", "bearer", "basic"}

func loose(body string) string {
	lower := strings.ToLower(body)
	if !slices.ContainsFunc(hints, func(h string) bool { return strings.Contains(lower, h) }) {
		return body
	}
	body = bearer.ReplaceAllString(body, "${1}${2}"+Mark)
	return loosePair.ReplaceAllStringFunc(body, func(m string) string {
		g := loosePair.FindStringSubmatch(m)
		if !SecretName(g[2]) {
			return m
		}
		v := Mark
		if strings.HasPrefix(g[4], `"`) {
			v = `"` + Mark + `"`
		}
		return g[1] + g[2] + g[3] + v
	})
}
