package nmhost

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// EnvOrigins lists extra extension origins (or bare IDs), comma separated.
const EnvOrigins = "BROWSER_BRIDGE_EXTENSION_ORIGINS"

// OriginsFile is read from the host binary's folder: a host started by
// Chrome does not see the user's shell environment, so install writes the
// extra origins there too.
const OriginsFile = "browser-bridge-origins.txt"

// PublishedExtensionID is the Chrome Web Store ID, once there is one.
const PublishedExtensionID = ""

// AllowedOrigins returns the extension origins the host accepts: the fixed
// development ID, the published ID if any, and the extra ones from the
// environment and from OriginsFile beside exe.
func AllowedOrigins(exe string) []string {
	out := []string{origin(protocol.DevExtensionID)}
	if PublishedExtensionID != "" {
		out = append(out, origin(PublishedExtensionID))
	}
	extra := os.Getenv(EnvOrigins)
	if exe != "" {
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(exe), OriginsFile)); err == nil {
			extra += "," + strings.ReplaceAll(string(b), "\n", ",")
		}
	}
	for _, s := range strings.Split(extra, ",") {
		if o := NormalizeOrigin(s); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// NormalizeOrigin turns "id", "chrome-extension://id" or
// "chrome-extension://id/" into "chrome-extension://id/"; anything that is
// not a plausible extension ID gives "".
func NormalizeOrigin(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "chrome-extension://")
	s = strings.TrimSuffix(s, "/")
	if len(s) != 32 {
		return ""
	}
	for _, c := range s {
		if c < 'a' || c > 'p' {
			return ""
		}
	}
	return origin(s)
}

func origin(id string) string { return "chrome-extension://" + id + "/" }

// OriginAllowed reports whether the caller origin Chrome passed is allowed.
func OriginAllowed(caller string, allowed []string) bool {
	c := NormalizeOrigin(caller)
	if c == "" {
		return false
	}
	for _, a := range allowed {
		if a == c {
			return true
		}
	}
	return false
}

// IDOf returns the extension ID of an origin.
func IDOf(origin string) string {
	return strings.TrimSuffix(strings.TrimPrefix(origin, "chrome-extension://"), "/")
}
