package pathcheck

import (
	"errors"
	"path"
	"strings"
)

// File URLs are checked by the path Chrome reads for them, so they are
// parsed as Chrome parses them (the URL Standard's file scheme; Chromium's
// url/url_parse_file.cc and net/base/filename_util.cc on POSIX), not as
// net/url does. The forms that differ:
//
//   - tabs and newlines anywhere are dropped, and spaces and control
//     characters at either end trimmed;
//   - the scheme is case-insensitive ("FILE:");
//   - backslashes are slashes (file: is a special scheme), so
//     file:///proc\self\environ is /proc/self/environ;
//   - any number of slashes but two starts the path with an empty host:
//     file:root/.ssh/id_rsa and file:/root/.ssh/id_rsa are
//     file:///root/.ssh/id_rsa; two slashes start a host;
//   - dot segments are resolved with %2e as a dot (file:///a/%2e%2e/b is
//     /b), then the path is percent-decoded once;
//   - %2F and %00 are refused by Chrome (a literal slash or NUL in a name
//     could slip past a check), and here too, with %5C (a backslash, which
//     a path check would read as part of a name).

// IsFileURL says whether Chrome reads s as a file: URL.
func IsFileURL(s string) bool {
	s = chromeTrim(s)
	return len(s) >= 5 && strings.EqualFold(s[:5], "file:")
}

// FileURLPath returns the local path Chrome reads for the file: URL s,
// canonical (absolute and clean), or an error saying why no path can be
// given: s is not a file: URL, names another host, or has escapes that
// Chrome refuses in file paths.
func FileURLPath(s string) (string, error) {
	s = chromeTrim(s)
	if len(s) < 5 || !strings.EqualFold(s[:5], "file:") {
		return "", errors.New("not a file: URL")
	}
	rest := s[5:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.ReplaceAll(rest, `\`, "/")
	slashes := len(rest) - len(strings.TrimLeft(rest, "/"))
	var p string
	if slashes == 2 {
		host, tail, _ := strings.Cut(rest[2:], "/")
		if h := fold(percentDecode(host)); h != "" && h != "localhost" {
			return "", errors.New("it names another host; file URLs must be local (file:///path)")
		}
		p = "/" + tail
	} else {
		p = "/" + strings.TrimLeft(rest, "/")
	}
	lp := strings.ToLower(p)
	for _, bad := range []string{"%2f", "%5c", "%00"} {
		if strings.Contains(lp, bad) {
			return "", errors.New("its path has an escaped slash, backslash or NUL (" + bad + "), which Chrome does not read as a file path")
		}
	}
	p = percentDecode(p)
	if strings.ContainsRune(p, 0) {
		return "", errors.New("its path contains a NUL byte")
	}
	return path.Clean(p), nil
}

// chromeTrim drops what Chrome drops before parsing a URL: ASCII tabs and
// newlines anywhere, C0 controls and spaces at either end.
func chromeTrim(s string) string {
	// Byte by byte: a path may hold bytes that are not UTF-8, and they
	// must reach the check as they are.
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	start, end := 0, len(b)
	for start < end && b[start] <= ' ' {
		start++
	}
	for end > start && b[end-1] <= ' ' {
		end--
	}
	return string(b[start:end])
}

// percentDecode decodes %XX escapes; a % not followed by two hex digits
// stays as it is, as in Chrome.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
