package install

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// CheckHost judges what a browser would run as the native host: the
// binary at exe, every folder above it, and the origins file beside it.
// Chrome runs that binary with the user's rights and hands it the
// extension's port, and the binary reads the per-install secret, so anyone
// who can replace it, or move another file into its place, owns the user's
// browser. It returns an error for what it refuses and a sentence for
// each thing that is only worth a warning.
//
// Refused: a binary or folder owned by another user than you or root
// (that user may change it whenever they like); a binary writable by
// others; a folder writable by others without the sticky bit (anyone could
// rename the binary away and put theirs there — a 0777 folder). Warned:
// group-writable binaries and folders (common and often harmless: the
// admin group of a Homebrew prefix, or a group that is the user alone, yet
// every member of that group could replace the host); the binary's own
// folder with the sticky bit but writable by others (/tmp: nobody can
// replace the binary, but anyone can add files beside it); an origins
// file the host would ignore (install writes its own in its place).
func CheckHost(exe string) (warnings []string, err error) {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return nil, fmt.Errorf("the host binary %s: %w", exe, err)
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return nil, fmt.Errorf("the host binary %s: %w", real, err)
	}
	if !fi.Mode().IsRegular() || paths.Perm(real, fi)&0o111 == 0 {
		return nil, fmt.Errorf("the host binary %s is not an executable file", real)
	}
	if err := trustedOwner(real, fi); err != nil {
		return nil, err
	}
	switch perm := paths.Perm(real, fi); {
	case perm&0o002 != 0:
		return nil, fmt.Errorf("the host binary %s has mode %#o: any user could change the program your browser runs; chmod 755 %s (and check it is the one you installed)", real, perm, real)
	case perm&0o020 != 0:
		warnings = append(warnings, fmt.Sprintf("the host binary %s has mode %#o: everyone in its group could change the program your browser runs; chmod 755 %s", real, perm, real))
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		w, err := checkFolder(dir, dir == filepath.Dir(real))
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, w...)
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	if w := nmhost.CheckOriginsFile(filepath.Join(filepath.Dir(exe), nmhost.OriginsFile)); w != nil {
		warnings = append(warnings, w.Error()+" (install writes a file of its own in its place)")
	}
	return warnings, nil
}

// checkFolder judges one folder on the way from the binary up to /; own
// says it is the binary's own folder.
func checkFolder(dir string, own bool) ([]string, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("the folder of the host binary: %w", err)
	}
	if err := trustedOwner(dir, fi); err != nil {
		return nil, err
	}
	perm, sticky := paths.Perm(dir, fi), fi.Mode()&os.ModeSticky != 0
	switch {
	case perm&0o002 != 0 && !sticky:
		return nil, fmt.Errorf("%s has mode %#o: any user could replace the host binary below it with their own program, which your browser would run; move browser-bridge to a folder only you can write (e.g. ~/.local/bin) and run install from there, or chmod 755 %s", dir, perm, dir)
	case perm&0o002 != 0 && own:
		return []string{fmt.Sprintf("%s has mode %#o: other users cannot replace the host binary (sticky bit) but can add files beside it; a folder only you can write (e.g. ~/.local/bin) is safer", dir, fi.Mode()&(os.ModePerm|os.ModeSticky))}, nil
	case perm&0o020 != 0 && !sticky:
		return []string{fmt.Sprintf("%s has mode %#o: everyone in its group could replace the host binary below it; chmod g-w %s if that is not what you want", dir, perm, dir)}, nil
	}
	return nil, nil
}

// trustedOwner refuses a file or folder owned by someone other than you
// or root: its owner may change it at any time, whatever its mode.
func trustedOwner(p string, fi os.FileInfo) error {
	uid, ok := paths.Owner(fi)
	if !ok || uid == os.Getuid() || uid == 0 {
		return nil
	}
	return fmt.Errorf("%s belongs to uid %d, neither you (uid %d) nor root: that user could change the program your browser runs as the host; install browser-bridge in a folder of your own (e.g. ~/.local/bin)", p, uid, os.Getuid())
}
