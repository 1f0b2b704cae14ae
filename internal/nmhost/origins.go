package nmhost

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/paths"
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

// Stderr receives the reason an origins file is ignored. For the host it is
// the stderr Chrome gave it (Chrome's own log); tests capture it.
var Stderr io.Writer = os.Stderr

// AllowedOrigins returns the extension origins the host accepts: the fixed
// development ID, the published ID if any, and the extra ones from the
// environment and from OriginsFile beside exe. An origins file that fails
// CheckOriginsFile is ignored, and why is written to Stderr: a file planted
// there must not make the host accept a foreign extension.
func AllowedOrigins(exe string) []string {
	out := []string{origin(protocol.DevExtensionID)}
	if PublishedExtensionID != "" {
		out = append(out, origin(PublishedExtensionID))
	}
	extra := os.Getenv(EnvOrigins)
	if exe != "" {
		b, err := readOriginsFile(filepath.Join(filepath.Dir(exe), OriginsFile))
		if err != nil {
			fmt.Fprintf(Stderr, "browser-bridge: ignoring the extra extension origins: %v\n", err)
		}
		extra += "," + strings.ReplaceAll(string(b), "\n", ",")
	}
	for _, s := range strings.Split(extra, ",") {
		if o := NormalizeOrigin(s); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// CheckOriginsFile says why the host would ignore the origins file at p,
// or nil when it would read it (or there is none). The file must be a
// regular file (not a symlink) owned by this user or root and writable by
// nobody else: whoever can write it chooses which extensions may drive the
// user's browser.
func CheckOriginsFile(p string) error {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return judgeOriginsFile(p, fi)
}

func judgeOriginsFile(p string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v); run `browser-bridge install` again", p, fi.Mode().Type())
	}
	if uid, ok := paths.Owner(fi); ok && uid != os.Getuid() && uid != 0 {
		return fmt.Errorf("%s belongs to uid %d, neither you (uid %d) nor root; remove it and run `browser-bridge install` again", p, uid, os.Getuid())
	}
	if perm := paths.Perm(p, fi); perm&0o022 != 0 {
		return fmt.Errorf("%s has mode %#o: others could add extensions to it; check it, then chmod 644 %s (or run `browser-bridge install` again)", p, perm, p)
	}
	return nil
}

// readOriginsFile reads the origins file at p if it passes the checks of
// CheckOriginsFile; none there is no error. The checks are made on the
// file opened, and that must be the file at p, not one a symlink leads to.
func readOriginsFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if lfi, err := os.Lstat(p); err != nil || !os.SameFile(fi, lfi) {
		return nil, fmt.Errorf("%s is a symlink or was just replaced; run `browser-bridge install` again", p)
	}
	if err := judgeOriginsFile(p, fi); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, 64<<10))
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
