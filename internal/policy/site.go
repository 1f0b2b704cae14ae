package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// site is a URL in the one spelling the rules match: as the browser
// resolves it (the WHATWG URL standard, which Chrome and the extension's
// URL object follow), and then as a server reads the path. The same URL
// written another way — "localhost." for localhost, [::ffff:127.0.0.1] or
// 2130706433 for 127.0.0.1, "/%61dmin" or "//admin" for "/admin", user info
// in front of the host — gives the same site, so a rule cannot be passed by
// spelling. handlers/siterules.js makes the same
// site from the browser's own URL parser.
type site struct {
	scheme string
	// host is the host name in lower case and punycode without trailing
	// dots, an IPv4 address in dotted decimal (an IPv4-mapped IPv6 address
	// too), an IPv6 address in brackets; "" for a URL without one.
	host string
	// port is "" when the URL names none or its scheme's default.
	port string
	// path has escapes of unreserved characters decoded, other escapes
	// in upper case, and empty and dot segments collapsed.
	path  string
	query string
	// href is the whole URL from these parts: no user info, no fragment.
	href string
}

// defaultPorts are WHATWG's special schemes and their default ports: the
// URLs whose host the browser parses as a domain or an IP address.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}

// sites reads raw as the browser would and gives its readings: the site,
// and when the path has an encoded slash (%2F, %5C), the site with those
// read as slashes too — what a server that decodes them before it routes
// serves. A URL the browser would refuse to load is an error.
func sites(raw string) ([]site, error) {
	spelled := browserSpelling(raw)
	u, err := url.Parse(spelled)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" {
		return nil, fmt.Errorf("%q is not an absolute URL", raw)
	}
	s := site{scheme: strings.ToLower(u.Scheme)}
	_, special := defaultPorts[s.scheme]
	if u.Opaque != "" {
		// (Trailing spaces end an opaque path, as they end a URL.)
		s.path = strings.TrimRight(u.Opaque, " ")
		s.query = canonEscapes(pathEncode(u.RawQuery, true))
		return []site{s.withHref(false)}, nil
	}
	host := u.Hostname()
	if strings.HasPrefix(u.Host, "[") {
		host = "[" + host + "]"
	}
	if special {
		if s.host, err = canonHost(host); err != nil {
			return nil, err
		}
		if s.scheme == "file" && s.host == "localhost" {
			s.host = ""
		}
		if s.host == "" && s.scheme != "file" {
			return nil, fmt.Errorf("%q has no host", raw)
		}
		if s.port, err = canonPort(u.Port(), s.scheme); err != nil {
			return nil, err
		}
	} else {
		// chrome://settings: a name no rule but a URL pattern matches,
		// kept as written (in lower case).
		s.host = strings.ToLower(u.Host)
	}
	s.path = rawPath(u)
	if s.path == "" && special {
		s.path = "/"
	}
	s.path = collapse(canonEscapes(pathEncode(s.path, false)))
	s.query = canonEscapes(pathEncode(u.RawQuery, true))
	authority := special || strings.HasPrefix(spelled[len(u.Scheme)+1:], "//")
	out := []site{s.withHref(authority)}
	if slashed := collapse(readSlashes(s.path)); slashed != s.path {
		s.path = slashed
		out = append(out, s.withHref(authority))
	}
	return out, nil
}

// withHref is s with its href written from its parts; authority says
// whether the URL has one ("//" and a host, perhaps empty: file:///x).
func (s site) withHref(authority bool) site {
	var b strings.Builder
	b.WriteString(s.scheme + ":")
	if authority {
		b.WriteString("//" + s.host)
		if s.port != "" {
			b.WriteString(":" + s.port)
		}
	}
	b.WriteString(s.path)
	if s.query != "" {
		b.WriteString("?" + s.query)
	}
	s.href = b.String()
	return s
}

var (
	dropTabsAndNewlines = strings.NewReplacer("\t", "", "\n", "", "\r", "")
	encodedSlashes      = strings.NewReplacer("%2F", "/", "%5C", "/")
)

// browserSpelling undoes what the browser forgives before Go's parser
// sees a URL: spaces and control characters around it, tabs and newlines
// inside it, and in a special scheme's URL any number of slashes or
// backslashes before the host ("http:/x", "http:\\x") and backslashes for
// slashes in the path. Without this, Go would read "http:/127.0.0.1/" as a
// path with no host while the browser goes to 127.0.0.1.
func browserSpelling(raw string) string {
	raw = strings.TrimFunc(raw, func(r rune) bool { return r <= ' ' })
	raw = dropTabsAndNewlines.Replace(raw)
	i := strings.Index(raw, ":")
	if i <= 0 {
		return raw
	}
	scheme := strings.ToLower(raw[:i])
	if _, special := defaultPorts[scheme]; !special {
		return raw
	}
	rest := raw[i+1:]
	end := strings.IndexAny(rest, "?#")
	if end < 0 {
		end = len(rest)
	}
	head := strings.ReplaceAll(rest[:end], `\`, "/")
	if scheme != "file" {
		head = "//" + strings.TrimLeft(head, "/")
	}
	return scheme + ":" + head + rest[end:]
}

// rawPath is u's path as it was written (Go's EscapedPath re-escapes it
// when the writing is not one Go would choose, and so loses the
// difference between "/" and "%2F").
func rawPath(u *url.URL) string {
	if u.RawPath != "" {
		return u.RawPath
	}
	return u.EscapedPath()
}

// idnaProfile is the WHATWG URL standard's "domain to ASCII": UTS #46
// nontransitional processing without the STD3 rules and hyphen checks
// (browsers allow "_" and "r3---sn" in host names), with the Bidi and
// joiner checks.
var idnaProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false))

// canonHost is the browser's host parser for special schemes, then with
// trailing dots dropped, an IPv4-mapped IPv6 address read as the IPv4
// address and the unspecified addresses as loopback: the one spelling of
// the host that rules match. A host the browser refuses is an error.
func canonHost(h string) (string, error) {
	h, err := readHost(h)
	return loopback(h), err
}

// loopback reads the unspecified addresses as the loopback ones: a
// connection to 0.0.0.0 ("0", "0x0") or [::] reaches this machine's own
// servers, so a rule for 127.0.0.1 or [::1] must hold there too.
func loopback(h string) string {
	switch h {
	case "0.0.0.0":
		return "127.0.0.1"
	case "[::]":
		return "[::1]"
	}
	return h
}

// readHost is canonHost without loopback.
func readHost(h string) (string, error) {
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", fmt.Errorf("IPv6 address %q has no closing bracket", h)
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || a.Zone() != "" || !a.Is6() {
			return "", fmt.Errorf("%q is not an IPv6 address the browser accepts", h)
		}
		if a.Is4In6() {
			return a.Unmap().String(), nil
		}
		return "[" + a.String() + "]", nil
	}
	for _, c := range []byte(h) {
		if c >= 0x80 || c == '%' {
			// Go rejects escapes in a host; the browser decodes them first.
			d, err := url.PathUnescape(h)
			if err != nil {
				return "", err
			}
			if h, err = idnaProfile.ToASCII(d); err != nil {
				return "", fmt.Errorf("host %q: %w", d, err)
			}
			break
		}
	}
	h = strings.TrimRight(strings.ToLower(h), ".")
	if i := strings.IndexFunc(h, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune("#/:<>?@[\\]^|%", r) }); i >= 0 {
		return "", fmt.Errorf("host %q has a character no host may have", h)
	}
	labels := strings.Split(h, ".")
	if last := labels[len(labels)-1]; last == "" || !isIPv4Number(last) {
		return h, nil
	}
	return parseIPv4(labels)
}

// isIPv4Number tells a host's last label that makes the browser read the
// host as an IPv4 address: decimal digits, or "0x" and hex digits.
func isIPv4Number(label string) bool {
	if len(label) >= 2 && (label[:2] == "0x" || label[:2] == "0X") {
		label = label[2:]
		return strings.Trim(label, "0123456789abcdefABCDEF") == ""
	}
	return strings.Trim(label, "0123456789") == ""
}

// parseIPv4 is the WHATWG IPv4 parser: up to four numbers, each decimal,
// octal (a leading 0) or hex (0x), the last filling the bytes left:
// "127.1", "0x7f.1", "0177.0.0.1" and "2130706433" are all 127.0.0.1.
func parseIPv4(parts []string) (string, error) {
	bad := errors.New("not an IPv4 address the browser accepts: " + strings.Join(parts, "."))
	if len(parts) > 4 {
		return "", bad
	}
	var n uint64
	for i, p := range parts {
		base := 10
		switch {
		case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) >= 2 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return "", bad
		}
		last := i == len(parts)-1
		if !last && v > 255 || last && v >= 1<<(8*(5-len(parts))) {
			return "", bad
		}
		if last {
			n = n<<(8*(5-len(parts))) | v
		} else {
			n = n<<8 | v
		}
	}
	return fmt.Sprintf("%d.%d.%d.%d", n>>24, n>>16&255, n>>8&255, n&255), nil
}

// canonPort is the port as the browser writes it: no leading zeros, and
// none for the scheme's default.
func canonPort(p, scheme string) (string, error) {
	if p == "" {
		return "", nil
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil {
		return "", fmt.Errorf("port %q is not a number up to 65535", p)
	}
	if p = strconv.FormatUint(n, 10); p == defaultPorts[scheme] {
		return "", nil
	}
	return p, nil
}

// pathEncode escapes what the browser escapes in a path or query and Go
// may leave as written: controls, space, quotes, angle brackets, the
// backquote and braces (a path), bytes past ASCII.
func pathEncode(s string, query bool) string {
	set := "\"<>`{}"
	if query {
		set = "\"<>'"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(set, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// canonEscapes decodes the escapes of unreserved characters (RFC 3986:
// letters, digits, "-._~"), which mean the same written either way, and
// writes the other escapes' hex digits in upper case.
func canonEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		var n uint64
		var err error
		if s[i] == '%' && i+2 < len(s) {
			n, err = strconv.ParseUint(s[i+1:i+3], 16, 8)
		}
		if s[i] != '%' || i+2 >= len(s) || err != nil {
			b.WriteByte(s[i])
			continue
		}
		c := byte(n)
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString(strings.ToUpper(s[i : i+3]))
		}
		i += 2
	}
	return b.String()
}

// collapse drops a path's empty and "." segments and resolves ".." ones,
// keeping a final slash: "//admin/./x/../y/" is "/admin/y/". The browser
// resolves the dot segments; servers commonly merge the slashes.
func collapse(p string) string {
	if !strings.HasPrefix(p, "/") {
		return p
	}
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	dir := false
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
			continue
		}
		dir = dir || last
	}
	if dir && len(out) > 0 {
		return "/" + strings.Join(out, "/") + "/"
	}
	return "/" + strings.Join(out, "/")
}

// readSlashes reads the encoded slashes of a canonical path (canonEscapes
// wrote them in upper case) as slashes.
func readSlashes(p string) string {
	return encodedSlashes.Replace(p)
}
