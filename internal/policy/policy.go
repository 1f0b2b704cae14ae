// Package policy is the user's site rules (docs/cli.md, `browser-bridge
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
// "*" matches any run of characters. Deny wins; when the allow list is
// not empty, only what it matches is allowed.
//
// Patterns and URLs are both matched in one spelling, the URL as the
// browser resolves it (site.go): "localhost." is localhost,
// [::ffff:127.0.0.1], 2130706433 and 0x7f.1 are 127.0.0.1, "bücher.de" is
// its punycode, "/%61dmin//x" is "/admin/x", and user info is not part of
// the URL matched. A path with an encoded slash ("/admin%2Fx") is read
// both ways: a deny rule that matches either reading denies it.
package policy

import (
	"fmt"
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
// URLs (a tab that has not loaded) are always allowed. The URL is read as
// the browser reads it, whatever its spelling (site); when a server may
// read it two ways (an encoded slash), a deny rule that matches either
// denies it, and an allow rule must match both.
func (r Rules) Check(rawURL string) Decision {
	if rawURL == "" || rawURL == "about:blank" {
		return Decision{Allowed: true}
	}
	views, err := sites(rawURL)
	if err != nil {
		return Decision{Why: fmt.Sprintf("its URL cannot be checked against the site rules (%v)", err)}
	}
	for _, p := range DefaultDeny {
		if matchAny(p, views) {
			return Decision{Rule: p, Why: fmt.Sprintf("the browser's own pages and extension stores are off limits (built-in rule %q)", p)}
		}
	}
	for _, p := range r.Deny {
		if matchAny(p, views) {
			return Decision{Rule: p, Why: fmt.Sprintf("denied by your site rule %q (browser-bridge policy list)", p)}
		}
	}
	if len(r.Allow) == 0 {
		return Decision{Allowed: true}
	}
	for _, p := range r.Allow {
		if slices.ContainsFunc(views, func(s site) bool { return match(p, s) }) && !slices.ContainsFunc(views, func(s site) bool { return !match(p, s) }) {
			return Decision{Allowed: true, Rule: p}
		}
	}
	return Decision{Why: notAllowed(r.Allow, views[0].host)}
}

// notAllowed says that a URL of host is off the allow list and what to
// type: the pattern that adds its site, or how to lift the list
// (siterules.js says the same words).
func notAllowed(allow []string, host string) string {
	add := "PATTERN"
	if host != "" {
		add = host
	}
	return fmt.Sprintf("not on your allow list (%s): add it with browser-bridge policy allow %s, or take patterns off the list with browser-bridge policy remove PATTERN (an empty list allows every site)", strings.Join(allow, ", "), add)
}

// Match reports whether pattern matches rawURL as a deny rule does: in
// any reading of the URL (Check). A URL the browser would not load
// matches nothing.
func Match(pattern, rawURL string) bool {
	views, err := sites(rawURL)
	return err == nil && matchAny(pattern, views)
}

func matchAny(pattern string, views []site) bool {
	return slices.ContainsFunc(views, func(s site) bool { return match(pattern, s) })
}

// match reports whether pattern matches one reading of a URL.
func match(pattern string, s site) bool {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return false
	}
	if isURLPattern(pattern) {
		// The whole URL, both in the one spelling.
		return glob(canonURLPattern(pattern), s.href)
	}
	if s.scheme != "http" && s.scheme != "https" && s.scheme != "ws" && s.scheme != "wss" {
		return false // host patterns name web sites
	}
	host, rest, _ := strings.Cut(pattern, "/")
	if !matchHost(host, s) {
		return false
	}
	if rest == "" {
		return true
	}
	p := s.path
	if s.query != "" {
		p += "?" + s.query
	}
	return glob(canonPatternPath("/"+rest), p)
}

// isURLPattern tells a pattern with a scheme ("https://x/*", "chrome://*",
// "view-source:*") from a host with a port ("localhost:8080/x",
// "example.com:8443", "[::1]:8080"): a scheme is a letter and then letters,
// digits, "+-.", and a host has a dot in it or is localhost.
func isURLPattern(pattern string) bool {
	head, rest, ok := strings.Cut(pattern, ":")
	if !ok || !isScheme(head) {
		return false
	}
	if strings.HasPrefix(rest, "//") {
		return true
	}
	return !strings.Contains(head, ".") && !strings.EqualFold(head, "localhost")
}

func isScheme(s string) bool {
	for i, c := range []byte(s) {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// star stands in for "*" while a pattern goes through the URL parser: a
// host label, a path segment and a scheme-less word all keep it as it is.
const star = "zq-star-qz"

// canonURLPattern writes a URL pattern's literal parts in the one
// spelling (its host in lower case and punycode, its path's escapes, no
// default port), so that "https://EXAMPLE.com./pay/*" means what it says.
// A pattern the parser cannot read is matched as written, its scheme in
// lower case.
func canonURLPattern(pattern string) string {
	views, err := sites(strings.ReplaceAll(pattern, "*", star))
	if err != nil {
		scheme, rest, _ := strings.Cut(pattern, ":")
		return strings.ToLower(scheme) + ":" + rest
	}
	s := views[0]
	// "https://*" names no path: the "/" the parser gives it would
	// require one.
	if _, rest, ok := strings.Cut(pattern, "://"); ok && !strings.ContainsAny(rest, "/?") && s.path == "/" {
		s.path = ""
		s = s.withHref(true)
	}
	return strings.ReplaceAll(s.href, star, "*")
}

// canonPatternPath writes a host pattern's path (and query) as a URL's
// is written (site).
func canonPatternPath(p string) string {
	path, query, hasQuery := strings.Cut(p, "?")
	path = collapse(canonEscapes(path))
	if hasQuery {
		return path + "?" + canonEscapes(query)
	}
	return path
}

// canonPatternHost is a host glob in the one spelling of hosts (canonHost),
// its "*"s kept; a glob the browser could not read as a host is only put
// in lower case.
func canonPatternHost(h string) string {
	c, err := canonHost(strings.ReplaceAll(h, "*", star))
	if err != nil {
		return strings.ToLower(h)
	}
	return strings.ReplaceAll(c, star, "*")
}

// splitPatternHost cuts a host pattern into its host glob and port glob
// ("" for none): "localhost:80*", "[::1]:8080", and an IPv6 address
// without brackets ("::1", no port).
func splitPatternHost(p string) (host, port string) {
	if strings.HasPrefix(p, "[") {
		if i := strings.Index(p, "]"); i >= 0 {
			host, rest := p[:i+1], p[i+1:]
			port, _ = strings.CutPrefix(rest, ":")
			return host, port
		}
	}
	if strings.Count(p, ":") > 1 {
		return "[" + p + "]", ""
	}
	host, port, _ = strings.Cut(p, ":")
	return host, port
}

// matchHost matches a host pattern (with or without a port) against s's
// host and port: the host itself or a subdomain, "*.x" for subdomains
// only, any other "*" as a glob.
func matchHost(pattern string, s site) bool {
	pattern, portGlob := splitPatternHost(pattern)
	if portGlob != "" {
		port := s.port
		if port == "" {
			port = defaultPorts[s.scheme]
		}
		if !glob(portGlob, port) {
			return false
		}
	}
	pattern = canonPatternHost(pattern)
	host := s.host
	if strings.HasPrefix(pattern, "*.") {
		return strings.HasSuffix(host, pattern[1:]) || glob(pattern, host)
	}
	if strings.Contains(pattern, "*") {
		return glob(pattern, host)
	}
	return host == pattern || strings.HasSuffix(host, "."+pattern)
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
