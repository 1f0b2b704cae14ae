// Package secret owns the per-install secret: 32 random bytes, hex encoded,
// in a file of mode 0600 inside the private state folder. The native host
// presents it to the daemon, and so do the CLI and the MCP server; the
// daemon drops any connection that does not.
package secret

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Load reads the secret at path. It does not judge the file's mode or
// owner: hosts and clients call it to present the secret, and refusing to
// would protect nothing (whoever read a loose secret can present it
// themselves). The daemon is the guard: it Prepares the secret at start,
// which replaces one others may know.
func Load(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("no secret at %s yet: start the daemon (any browser-bridge command does) or run browser-bridge install: %w", path, err)
		}
		return "", fmt.Errorf("reading secret: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if len(s) != 64 {
		return "", fmt.Errorf("secret file %s is malformed; delete it and restart the daemon", path)
	}
	return s, nil
}

// Ensure returns the secret at path, creating it first if there is none.
// Creation uses O_EXCL, so two racing processes end up with one secret.
func Ensure(path string) (string, error) {
	if s, err := Load(path); err == nil {
		return s, nil
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	s := hex.EncodeToString(raw[:])
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return Load(path) // someone else won the race
	}
	if err != nil {
		return "", fmt.Errorf("creating secret: %w", err)
	}
	if _, err := f.WriteString(s + "\n"); err != nil {
		f.Close()
		return "", err
	}
	return s, f.Close()
}

// Equal compares two secrets in constant time.
func Equal(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
