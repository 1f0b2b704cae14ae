package audit_test

import (
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/audit"
)

func TestCheckName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"session:cli":         true,
		"my workspace":        true,
		"projet-été":          true,
		"username":            true,
		"user":                false,
		"USER":                false,
		" User ":              false,
		"session:user":        false,
		"Session:Extension":   false,
		"ｕｓｅｒ":                false,
		"us\u200ber":          false,
		"user\u200d":          false,
		"\u202euser":          false,
		"user\ufe0f":          false,
		"us\u00ader":          false, // soft hyphen
		"user\u2060":          false, // word joiner
		"a\u00a0b":            false,
		"a\nb":                false,
		"a\x1bb":              false,
		"us\u034fer":          false,
		"\xffuser":            false,
		"\u3164":              false, // Hangul filler
		"session:claude-1a2b": true,
	} {
		if err := audit.CheckName(name); (err == nil) != want {
			t.Errorf("CheckName(%q) = %v, want allowed %v", name, err, want)
		}
	}
}
