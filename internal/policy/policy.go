// Package policy is the user's site rules (SPEC §5, `browser-bridge
// policy`): URL patterns the bridge may or may not touch. The daemon checks
// every navigation and every page action against them, and the extension
// checks again before it acts, so a redirect or a link into a denied site
// is stopped too.
//
// A pattern is one of:
//   - a host glob: "example.com" (that host and its subdomains),
//     "*.example.com" (subdomains only), "localhost:8080" (with a port);
//   - a host and path: "example.com/admin/*";
//   - a full URL pattern with a scheme: "https://example.com/pay/*",
//     "chrome://*".
//
// "*" matches any run of characters. Hosts match without regard to case.
// Deny wins; when the allow list is not empty, only what it matches is
// allowed.
package policy

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
)

// Rules are the allow and deny lists of settings.json.
type Rules struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// DefaultDeny are denied whatever the settings say: the browser's own
// pages and the extension stores, where an agent has nothing to do and a
// click could install or remove software.
var DefaultDeny = []string{
	"chrome://*", "chrome-untrusted://*", "edge://*", "brave://*", "opera://*", "vivaldi://*",
	"chrome-extension://*", "devtools://*", "view-source:*",
	"chromewebstore.google.com", "chrome.google.com/webstore*",
	"microsoftedge.microsoft.com/addons*", "addons.opera.com",
}

// Decision is the outcome of a check.
type Decision struct {
	Allowed bool
	// Rule is the pattern that decided, or "" (allowed by default).
	Rule string
	// Why says it for a message: "denied by rule ...", "not on the allow
	// list".
	Why string
}

// Check decides whether the bridge may touch rawURL. about:blank and empty
// URLs (a tab that has not loaded) are always allowed.
func (r Rules) Check(rawURL string) Decision {
	if rawURL == "" || rawURL == "about:blank" {
		return Decision{Allowed: true}
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return Decision{Why: fmt.Sprintf("its URL cannot be checked against the site rules (%v)", err)}
	}
	for _, p := range DefaultDeny {
		if Match(p, u) {
			return Decision{Rule: p, Why: fmt.Sprintf("the browser's own pages and extension stores are off limits (built-in rule %q)", p)}
		}
	}
	for _, p := range r.Deny {
		if Match(p, u) {
			return Decision{Rule: p, Why: fmt.Sprintf("denied by your site rule %q (browser-bridge policy list)", p)}
		}
	}
	if len(r.Allow) == 0 {
		return Decision{Allowed: true}
	}
	for _, p := range r.Allow {
		if Match(p, u) {
			return Decision{Allowed: true, Rule: p}
		}
	}
	return Decision{Why: notAllowed(r.Allow, u)}
}

// notAllowed says that u is off the allow list and what to type: the
// pattern that adds its site, or how to lift the list (siterules.js says
// the same words).
func notAllowed(allow []string, u *url.URL) string {
	add := "PATTERN"
	if h := strings.ToLower(u.Hostname()); h != "" {
		add = h
	}
	return fmt.Sprintf("not on your allow list (%s): add it with browser-bridge policy allow %s, or take patterns off the list with browser-bridge policy remove PATTERN (an empty list allows every site)", strings.Join(allow, ", "), add)
}

// Match reports whether pattern matches u.
func Match(pattern string, u *url.URL) bool {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return false
	}
	if isURLPattern(pattern) {
		// The whole URL, scheme included; the scheme without regard to
		// case, as URLs have it.
		scheme, rest, _ := strings.Cut(pattern, ":")
		return glob(strings.ToLower(scheme)+":"+rest, u.Scheme+":"+strings.TrimPrefix(u.String(), u.Scheme+":"))
	}
	if u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss" {
		return false // host patterns name web sites
	}
	host, rest, _ := strings.Cut(pattern, "/")
	if !matchHost(strings.ToLower(host), u) {
		return false
	}
	if rest == "" {
		return true
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return glob("/"+rest, p)
}

// isURLPattern tells a pattern with a scheme ("https://x/*", "chrome://*",
// "view-source:*") from a host with a port ("localhost:8080/x",
// "example.com:8443"): a host has a dot in it or is localhost.
func isURLPattern(pattern string) bool {
	head, rest, ok := strings.Cut(pattern, ":")
	if !ok || head == "" || strings.ContainsAny(head, "/*") {
		return false
	}
	if strings.HasPrefix(rest, "//") {
		return true
	}
	return !strings.Contains(head, ".") && !strings.EqualFold(head, "localhost")
}

// matchHost matches a host glob against u's host.
func matchHost(pattern string, u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	if strings.Contains(pattern, ":") {
		host = strings.ToLower(u.Host)
		if u.Port() == "" {
			switch u.Scheme {
			case "http", "ws":
				host += ":80"
			case "https", "wss":
				host += ":443"
			}
		}
	}
	if strings.HasPrefix(pattern, "*.") {
		return strings.HasSuffix(host, pattern[1:]) || glob(pattern, host)
	}
	if strings.Contains(pattern, "*") {
		return glob(pattern, host)
	}
	bare, _, _ := strings.Cut(pattern, ":")
	hostOnly, _, _ := strings.Cut(host, ":")
	if strings.Contains(pattern, ":") {
		return host == pattern || strings.HasSuffix(host, "."+pattern)
	}
	return hostOnly == bare || strings.HasSuffix(hostOnly, "."+bare)
}

// glob matches s against a pattern where "*" is any run of characters
// (including "/": path.Match's "*" stops at a slash).
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return true
}

// Valid checks a pattern as the user typed it, with a sentence that says
// what a pattern looks like.
func Valid(pattern string) error {
	p := strings.TrimSpace(pattern)
	if p == "" || p != pattern || strings.ContainsAny(p, " \t\n") {
		return fmt.Errorf("pattern %q must be one word without spaces, e.g. example.com, *.example.com, example.com/admin/* or https://example.com/pay/*", pattern)
	}
	if strings.Contains(p, "**") {
		return fmt.Errorf("pattern %q: one * matches any run of characters; use one", pattern)
	}
	if _, err := path.Match(strings.ReplaceAll(p, "*", "x"), "x"); err != nil {
		return fmt.Errorf("pattern %q: %v", pattern, err)
	}
	return nil
}

// Add puts pattern on one list and takes it off the other (a site is
// allowed or denied, not both). It reports whether anything changed.
func (r *Rules) Add(list, pattern string) (bool, error) {
	if err := Valid(pattern); err != nil {
		return false, err
	}
	switch list {
	case "allow":
		r.Deny = remove(r.Deny, pattern)
		if slices.Contains(r.Allow, pattern) {
			return false, nil
		}
		r.Allow = append(r.Allow, pattern)
	case "deny":
		r.Allow = remove(r.Allow, pattern)
		if slices.Contains(r.Deny, pattern) {
			return false, nil
		}
		r.Deny = append(r.Deny, pattern)
	default:
		return false, fmt.Errorf("unknown list %q: allow or deny", list)
	}
	return true, nil
}

// Remove takes pattern off both lists; it reports whether it was on one.
func (r *Rules) Remove(pattern string) bool {
	n := len(r.Allow) + len(r.Deny)
	r.Allow, r.Deny = remove(r.Allow, pattern), remove(r.Deny, pattern)
	return len(r.Allow)+len(r.Deny) != n
}

func remove(list []string, p string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return s == p })
}
