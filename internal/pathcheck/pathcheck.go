// Package pathcheck validates the local paths an agent asks to upload,
// before anything reaches Chrome (SPEC §2): at most 20; each absolute, not
// itself a symlink, a readable regular file, and — once canonicalised with
// its parents resolved — free of any path component that names secrets and
// not on a pseudo-filesystem such as /proc, /sys or /dev.
package pathcheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// MaxPaths is the most files one upload may set.
const MaxPaths = 20

// denied are substrings that, found case-insensitively in any component of
// the canonical path, refuse it: key material, credentials, cookies.
var denied = []string{".ssh", ".gnupg", "keychains", "cookies", "id_rsa", ".env", ".pem", ".key", "private_key", "secret", "token"}

// Check validates paths and returns their canonical forms, in order.
// Every failure is an upload_path_rejected *protocol.Error naming the path
// and the rule it broke.
func Check(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "upload needs paths: absolute paths of local files")
	}
	if len(paths) > MaxPaths {
		return nil, reject("", fmt.Sprintf("at most %d files per upload, got %d", MaxPaths, len(paths)))
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		c, err := checkOne(p)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func checkOne(p string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", reject(p, "the path is empty or contains a NUL byte")
	}
	if !filepath.IsAbs(p) {
		return "", reject(p, "the path must be absolute")
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return "", reject(p, "the file cannot be read: "+reason(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", reject(p, "the path is a symlink; give the path of the file itself")
	}
	if !fi.Mode().IsRegular() {
		return "", reject(p, "not a regular file ("+kind(fi.Mode())+")")
	}
	canon, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", reject(p, "the path cannot be resolved: "+reason(err))
	}
	if canon, err = filepath.Abs(canon); err != nil {
		return "", reject(p, "the path cannot be resolved: "+reason(err))
	}
	if name := deniedComponent(canon); name != "" {
		return "", reject(p, fmt.Sprintf("the resolved path %q has a component %q that names secrets (denied: %s); the bridge never uploads such files — upload another file", canon, name, strings.Join(denied, ", ")))
	}
	where, err := pseudoFS(canon)
	if err != nil {
		return "", reject(p, "the filesystem of the resolved path cannot be checked: "+reason(err))
	}
	if where != "" {
		return "", reject(p, fmt.Sprintf("the resolved path %q is %s, a pseudo-filesystem: its files are live views of processes, devices or the kernel (a program's environment, memory, open files), not the user's files; if one really must be uploaded, copy it to an ordinary folder first and upload the copy", canon, where))
	}
	// The canonical path must still be a regular file (a parent swapped
	// for a symlink between the checks is caught here).
	if fi2, err := os.Stat(canon); err != nil || !fi2.Mode().IsRegular() {
		return "", reject(p, "the resolved path is not a regular file")
	}
	f, err := os.Open(canon)
	if err != nil {
		return "", reject(p, "the file cannot be read: "+reason(err))
	}
	f.Close()
	return canon, nil
}

// Denied returns the component of path — as written and, when it exists,
// with symlinks resolved — that names secrets, or "". open and extract use
// it for file: URLs, so reading a page cannot do what upload may not.
func Denied(path string) string {
	if c := deniedComponent(path); c != "" {
		return c
	}
	if canon, err := filepath.EvalSymlinks(path); err == nil {
		return deniedComponent(canon)
	}
	return ""
}

// Refused says why reading the file at path through a file: URL is
// refused — the rules of upload that apply to a path which may not exist
// (a folder listing, say): a component naming secrets, or a
// pseudo-filesystem — or returns "" when it is not.
func Refused(path string) string {
	if c := Denied(path); c != "" {
		return fmt.Sprintf("its path has a component %q that names secrets", c)
	}
	canon := filepath.Clean(path)
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		canon = resolved
	}
	// A path that does not exist has no filesystem to ask: then only the
	// prefix counts (pseudoFS checks it first).
	if why, _ := pseudoFS(canon); why != "" {
		return "it is " + why + ", a pseudo-filesystem of live process and kernel data"
	}
	return ""
}

// deniedComponent returns the first component of path that contains a
// denied name, or "".
func deniedComponent(path string) string {
	for _, c := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		lc := fold(c)
		for _, d := range denied {
			if strings.Contains(lc, d) {
				return c
			}
		}
	}
	return ""
}

// fold lower-cases through upper case, so that letters whose lower case is
// not plain ASCII but that case-insensitive file systems equate with it
// (ſ U+017F is "s", K U+212A is "k") still match the denied names.
func fold(s string) string { return strings.ToLower(strings.ToUpper(s)) }

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "it does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func reject(path, rule string) error {
	if path == "" {
		return protocol.Errorf(protocol.CodeUploadPathRejected, "upload refused: %s", rule)
	}
	return protocol.Errorf(protocol.CodeUploadPathRejected, "upload of %q refused: %s", path, rule)
}
