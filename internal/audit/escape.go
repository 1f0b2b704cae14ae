package audit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The trail holds text from outside: a page's words in a locator, a
// workspace name from the environment, a URL. A newline in it would print
// a forged line of its own in `browser-bridge log`, and an ESC or a C1
// control (U+009B is CSI to many terminals) would drive the reader's
// terminal. So both forms the trail is read in carry none:
// Printable escapes them for people, MarshalLine for JSON readers.

// unsafeRune reports whether r must not reach a terminal raw: the C0 and
// C1 controls and DEL, the bidirectional overrides that reorder what a
// line seems to say, and the line and paragraph separators.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// Printable returns s with every control character, bidirectional
// control and byte that is not UTF-8 written as a Go escape (\n, \x1b,
// \u009b, \u202e), so it prints on one line and does nothing to a
// terminal. Other text, and s without such characters, is unchanged.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// MarshalLine is e as the trail stores it and `browser-bridge log --json`
// prints it: one line of JSON in which no unsafe character appears raw.
// encoding/json escapes the C0 controls and U+2028/9 but passes DEL, C1
// and the bidirectional controls through; they are escaped here as \uXXXX,
// which decodes to the same text. JSON outside its strings is ASCII, so
// every such rune met is inside a string.
func MarshalLine(e Entry) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	clean := true
	for _, r := range string(b) {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return b, nil
	}
	out := make([]byte, 0, len(b)+16)
	for _, r := range string(b) {
		if unsafeRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}
