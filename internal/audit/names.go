package audit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// reservedNames are the sessions the daemon writes for itself in the
// trail: "user" is the person at the browser (pause and resume on the
// extension's page) and "extension" the extension. A client that could
// take either name, or one that merely reads the same, would make its
// lines look like the user's own.
var reservedNames = []string{"user", "extension"}

// CheckName reports why a session or workspace name given from outside
// (an environment variable, a client's handshake) may not be used in the
// trail, or nil when it may. It refuses names that are not UTF-8, hold a
// control or an invisible character (format characters such as zero-width
// spaces and bidirectional controls, variation selectors, other default
// ignorables, whitespace other than a plain space) — any of which lets two
// names read the same — and the reserved names in any case, with or
// without a "session:" prefix and written in full-width letters.
func CheckName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("the name %s is not UTF-8 text", Printable(name))
	}
	for _, r := range name {
		if invisibleRune(r) {
			return fmt.Errorf("the name %s holds an invisible or control character (%s), which would let it pass for another name", quoteName(name), strconv.QuoteRuneToASCII(r))
		}
	}
	folded := foldWidth(strings.TrimSpace(name))
	if len(folded) >= len("session:") && strings.EqualFold(folded[:len("session:")], "session:") {
		folded = folded[len("session:"):]
	}
	for _, n := range reservedNames {
		if strings.EqualFold(strings.TrimSpace(folded), n) {
			return fmt.Errorf("the name %q is reserved: the trail files the person at the browser as %q and the extension as %q", name, "user", "extension")
		}
	}
	return nil
}

// invisibleRune reports whether r prints as nothing, or as something else,
// where a name is shown.
func invisibleRune(r rune) bool {
	switch {
	case r == ' ':
		return false
	case unsafeRune(r), unicode.IsSpace(r),
		unicode.Is(unicode.Cf, r),
		unicode.Is(unicode.Variation_Selector, r),
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		return true
	}
	return false
}

// foldWidth maps the full-width forms of ASCII (U+FF01–FF5E) to ASCII, the
// part of Unicode compatibility folding that makes "ｕｓｅｒ" read "user".
func foldWidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xFF01 && r <= 0xFF5E {
			return r - 0xFEE0
		}
		return r
	}, s)
}

// quoteName quotes name with every non-ASCII rune escaped, so that the
// character being refused is visible in the message.
func quoteName(name string) string { return strconv.QuoteToASCII(name) }
