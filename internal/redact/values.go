package redact

import (
	"regexp"
	"strings"
)

// tokenShape matches values that are credentials whatever they are named:
// a JWT (three base64url parts, the first two JSON objects, so "eyJ"), and
// the prefixed keys of common services (Stripe's sk_live_/rk_live_,
// GitHub's ghp_/gho_/github_pat_, Slack's xox?-, AWS's access key ids,
// Google's AIza…). It is how a token under a name no rule knows (an
// X-Debug header, a "bearer" field) is still caught.
var tokenShape = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*|\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}`)

// tokens replaces every credential-shaped value in s (see tokenShape).
func tokens(s string) string {
	if !strings.Contains(s, "eyJ") && !strings.Contains(s, "_") && !strings.Contains(s, "xox") && !strings.Contains(s, "AKIA") && !strings.Contains(s, "AIza") {
		return s
	}
	return tokenShape.ReplaceAllString(s, Mark)
}

// plainlyNotSecret reports whether a value under a secret name is one that
// holds no secret and says something worth seeing when a page is broken:
// nothing, "undefined", "null", or an authorization scheme with nothing
// after it. "Authorization: Bearer undefined" then reads as the missing
// token it is, not as "[redacted]".
func plainlyNotSecret(v string) bool {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), `"'`))
	if scheme, rest, ok := strings.Cut(v, " "); ok && authScheme(scheme) {
		v = strings.TrimSpace(rest)
	} else if authScheme(v) {
		return true
	}
	switch strings.ToLower(v) {
	case "", "undefined", "null", "nil", "none", "[object object]":
		return true
	}
	return false
}

// authScheme reports whether word names an Authorization scheme.
func authScheme(word string) bool {
	switch strings.ToLower(word) {
	case "bearer", "basic", "token", "digest", "negotiate":
		return true
	}
	return false
}
