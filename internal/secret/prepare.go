package secret

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// Check looks at the secret file at path as it is, changing nothing: it
// must be a regular file (not a symlink) of this user, readable by nobody
// else, holding a well-formed secret. A missing file gives an error that
// matches fs.ErrNotExist. The message says why others may know the secret.
func Check(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v): what it points to may be anyone's", path, fi.Mode().Type())
	}
	if uid, ok := paths.Owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to you (uid %d): that user knows it", path, uid, os.Getuid())
	}
	perm, err := paths.OthersMode(path, fi)
	if err != nil {
		return err
	}
	if perm != 0 {
		how := "read"
		if perm&0o044 == 0 {
			how = "change" // write or execute bits only: still not ours alone
		}
		return fmt.Errorf("%s has mode %#o, not 0600: others could %s it", path, fi.Mode().Perm()|perm, how)
	}
	if _, err := Load(path); err != nil {
		return err
	}
	return nil
}

// Prepare makes the state folder of l private and returns the secret in
// it, creating one if there is none. It replaces the secret (a new random
// one, written to a temporary file and renamed over the old) when others
// may know the old one: the folder was found open, now or earlier by
// another process (paths.MakePrivate's note), or the file fails Check —
// readable by others, another user's, a symlink, malformed. Notes say what
// was found and done, one sentence each, for the daemon log.
//
// Only the daemon calls it, holding the daemon lock: it is the one process
// that must agree with the file, and it reads the secret from here and
// nowhere else. Replacing it is safe for the others: the native host
// (nmhost.Host.dial) and every client (client.dial) read the file again on
// each connect, and a connection already authenticated stays up, so a
// host that is connected keeps its port and one that redials presents the
// new secret. Prepare is idempotent, so the daemon may call it again while
// it runs (it then swaps in the secret returned).
func Prepare(l paths.Layout) (secret string, notes []string, err error) {
	was, err := paths.MakePrivate(l.State)
	if err != nil {
		return "", nil, err
	}
	var why []string
	if b, err := os.ReadFile(l.SecretExposed()); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				why = append(why, line)
			}
		}
	}
	if was != 0 && len(why) == 0 {
		notes = append(notes, fmt.Sprintf("made the state folder %s private: it had mode %#o (%s)", l.State, was, paths.FolderOpenness(was)))
	}
	if err := Check(l.Secret()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		why = append(why, err.Error())
	}
	if len(why) == 0 {
		s, err := Ensure(l.Secret())
		return s, notes, err
	}
	s, err := replace(l.Secret())
	if err != nil {
		return "", notes, fmt.Errorf("replacing the secret, which others may know (%s): %w", strings.Join(why, "; "), err)
	}
	if err := os.Remove(l.SecretExposed()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", notes, fmt.Errorf("removing the note %s: %w", l.SecretExposed(), err)
	}
	notes = append(notes, "replaced the secret, which others may know: "+strings.Join(why, "; ")+
		"; hosts and clients read the new one when they next connect")
	return s, notes, nil
}

// replace writes a new secret to path: a private temporary file beside it,
// renamed over whatever is at path (a symlink is replaced, not followed).
func replace(path string) (string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	s := hex.EncodeToString(raw[:])
	if err := atomicfile.Write(path, []byte(s+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("%w (if %s is a folder, remove it)", err, path)
	}
	return s, nil
}
