package redact

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Mark begins every redaction: "[redacted, 40 chars]" stands for a value
// of 40 characters, so the agent sees a secret's place and size (a token
// cut short, or one twice as long as it should be) but not the secret.
// Only a whole mark is taken for a value redacted already (isMark): a
// value that merely begins with Mark ("[redactedS3CRET") is a page's and
// is redacted.
const Mark = "[redacted"

// markOnly is a mark and nothing else, as mark writes it.
var markOnly = regexp.MustCompile(`^\[redacted, \d+ chars\]$`)

// isMark reports whether v is a mark, exactly: redacted already.
func isMark(v string) bool { return markOnly.MatchString(v) }

// leadingMark is a mark at the start of a value, after an Authorization
// scheme or not (group 1; authScheme says whether it is one).
var leadingMark = regexp.MustCompile(`^(?:([A-Za-z]+)[\t\n\f\r ]+)?\[redacted, \d+ chars\]`)

// markEnd is where a mark at the start of s ends (after the scheme of a
// credential: "Bearer [redacted, 40 chars]"), or -1.
func markEnd(s string) int {
	m := leadingMark.FindStringSubmatchIndex(s)
	if m == nil || (m[2] >= 0 && !authScheme(s[m[2]:m[3]])) {
		return -1
	}
	return m[1]
}

// mark is what stands for the secret s.
func mark(s string) string {
	return fmt.Sprintf("[redacted, %d chars]", utf8.RuneCountInString(s))
}

// markCred is the mark of a credential that keeps its scheme:
// "Bearer [redacted, 40 chars]".
func markCred(s string) string {
	if scheme, cred, ok := strings.Cut(strings.TrimSpace(s), " "); ok && authScheme(scheme) {
		return scheme + " " + mark(strings.TrimSpace(cred))
	}
	return mark(s)
}

// Suspicious follows a credential header's value that is plainly no
// secret ("Bearer undefined", "Bearer ", ""): the value is shown as it
// was sent, since it is the bug, and flagged.
const Suspicious = "[suspicious: empty credential]"

// tokenShape matches values that are credentials whatever they are named:
// a JWT (three base64url parts, the first two JSON objects, so "eyJ"), a
// PEM private key, and the prefixed keys of common services (Stripe's
// sk_live_/sk_test_/rk_live_/rk_test_, GitHub's ghp_/gho_/ghu_/ghs_/ghr_
// and github_pat_, Slack's xox?-, AWS's access key ids AKIA…, Google's
// AIza…, GitLab's glpat-, npm's npm_). It is how a token under a name no
// rule knows (an X-Debug header, a "bearer" field, a console line) is
// still caught. Group 1 is a key's prefix, which is kept: it says which
// kind of key (a live or a test one) without saying which key. A PEM key
// cut short (a truncated body) is redacted to the end of the text.
var tokenShape = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*` +
	`|(?s:-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|\z))` +
	`|\b((?:sk|rk)_(?:live|test)_|(?:ghp|gho|ghu|ghs|ghr)_|github_pat_|xox[abposr]-|AKIA|AIza|glpat-|npm_)` +
	`(?:[A-Za-z0-9_-]{8,})`)

// keyRest is how a prefixed key must go on after its prefix, by prefix:
// the shapes are tighter than tokenShape's common tail, so that words
// such as "npm_install_dir" are not taken for keys.
var keyRest = map[string]*regexp.Regexp{
	"gh":     regexp.MustCompile(`^[A-Za-z0-9]{20,}`),
	"github": regexp.MustCompile(`^[A-Za-z0-9_]{20,}`),
	"xox":    regexp.MustCompile(`^[A-Za-z0-9-]{10,}`),
	"AKIA":   regexp.MustCompile(`^[0-9A-Z]{16}`),
	"AIza":   regexp.MustCompile(`^[0-9A-Za-z_-]{30,}`),
	"glpat":  regexp.MustCompile(`^[A-Za-z0-9_-]{20,}`),
	"npm":    regexp.MustCompile(`^[A-Za-z0-9]{36}`),
	"stripe": regexp.MustCompile(`^[A-Za-z0-9]{8,}`),
}

func restRule(prefix string) *regexp.Regexp {
	switch {
	case strings.HasPrefix(prefix, "github_pat_"):
		return keyRest["github"]
	case strings.HasPrefix(prefix, "gh"):
		return keyRest["gh"]
	case strings.HasPrefix(prefix, "xox"):
		return keyRest["xox"]
	case prefix == "AKIA":
		return keyRest["AKIA"]
	case prefix == "AIza":
		return keyRest["AIza"]
	case prefix == "glpat-":
		return keyRest["glpat"]
	case prefix == "npm_":
		return keyRest["npm"]
	}
	return keyRest["stripe"]
}

// tokenHints are the strings without which tokenShape cannot match.
var tokenHints = []string{"eyJ", "_", "xox", "AKIA", "AIza", "glpat-", "PRIVATE KEY"}

// tokens replaces every credential-shaped value in s (see tokenShape):
// a JWT or a PEM key by its mark, a prefixed key by its prefix and the
// mark of the rest.
func tokens(s string) string {
	hinted := false
	for _, h := range tokenHints {
		if strings.Contains(s, h) {
			hinted = true
			break
		}
	}
	if !hinted {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range tokenShape.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[0], m[1]
		if m[2] >= 0 { // a prefixed key: its rest must have the key's shape
			prefix := s[m[2]:m[3]]
			rest := restRule(prefix).FindString(s[m[3]:end])
			if rest == "" {
				continue
			}
			b.WriteString(s[last:m[3]])
			b.WriteString(mark(rest))
			last = m[3] + len(rest)
			continue
		}
		b.WriteString(s[last:start])
		if strings.HasPrefix(s[start:end], "-----BEGIN") {
			b.WriteString(pem(s[start:end]))
		} else {
			b.WriteString(mark(s[start:end]))
		}
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// pemLine is a PEM block's BEGIN or END line.
var pemLine = regexp.MustCompile(`-----(?:BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY-----`)

// wholeMark is a mark and nothing else.
var wholeMark = regexp.MustCompile(`^\s*\[redacted, \d+ chars\]\s*$`)

// pem keeps a private key's BEGIN and END lines and redacts what is
// between them.
func pem(block string) string {
	lines := pemLine.FindAllStringIndex(block, 2)
	begin := block[:lines[0][1]]
	if wholeMark.MatchString(pemLine.ReplaceAllString(block[len(begin):], "")) {
		return block // redacted already
	}
	if len(lines) < 2 {
		return begin + mark(block[len(begin):])
	}
	return begin + mark(block[len(begin):lines[1][0]]) + block[lines[1][0]:]
}

// marked reports whether a value is redacted already ("[redacted, 40
// chars]", "Bearer [redacted, 40 chars]", in quotes or not): a second
// pass leaves it as the first counted it. The mark must be the whole
// value.
func marked(v string) bool {
	v = strings.TrimSpace(v)
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		v = strings.TrimSpace(strings.TrimSuffix(v[1:], v[:1]))
	}
	if scheme, rest, ok := strings.Cut(v, " "); ok && authScheme(scheme) {
		v = strings.TrimSpace(rest)
	}
	return isMark(v)
}

// plainlyNotSecret reports whether a value under a secret name is one that
// holds no secret and says something worth seeing when a page is broken:
// nothing, "undefined", "null", or an authorization scheme with nothing
// after it. "Authorization: Bearer undefined" then reads as the missing
// token it is, not as a redaction.
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
