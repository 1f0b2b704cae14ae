// Package pathcheck decides which local files the bridge may hand to a
// page: the files an agent asks to upload (docs/design.md#actions), and the files behind
// the file: URLs that open and extract read.
//
// An upload path must be absolute and, as written, free of any component
// that names secrets (rules.go) and outside the bridge's own folders and
// the pseudo-filesystems — all checked on the text before anything touches
// the filesystem, so a refusal says nothing about which secret files
// exist. It must not itself be a symlink and must be a regular file; its
// canonical form (parents resolved) is checked against the same rules.
// Then the file is opened at that canonical path without following any
// symlink on the way, and the open file decides the rest: a regular file,
// with a single link, in a folder other users cannot write (see
// folderRefusal). Open hands back that open file, so whoever reads the
// bytes (internal/staging copies them for Chrome) reads the file that was
// checked, not whatever sits at the path by then.
package pathcheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// MaxPaths is the most files one upload may set.
const MaxPaths = 20

// File is a file that passed the upload rules, open for reading.
type File struct {
	*os.File
	// Path is the path as the caller gave it; Canonical the path the
	// file was opened at, with symlinks resolved.
	Path, Canonical string
	// Info is the stat of the open file (not of whatever is at the path).
	Info fs.FileInfo
}

// OpenAll checks and opens paths, in order; the caller closes the files.
// Every failure is an upload_path_rejected *protocol.Error naming the path
// and the rule it broke, and then no file is left open.
func OpenAll(paths []string) ([]*File, error) {
	if len(paths) == 0 {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "upload needs paths: absolute paths of local files")
	}
	if len(paths) > MaxPaths {
		return nil, reject("", fmt.Sprintf("at most %d files per upload, got %d", MaxPaths, len(paths)))
	}
	out := make([]*File, 0, len(paths))
	for _, p := range paths {
		f, err := Open(p)
		if err != nil {
			for _, f := range out {
				f.Close()
			}
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Check checks paths as OpenAll does and returns their canonical forms.
// A path is only a name, and what it names may change once Check returns:
// what hands a file on reads it from OpenAll's open files instead.
func Check(paths []string) ([]string, error) {
	files, err := OpenAll(paths)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Canonical
		f.Close()
	}
	return out, nil
}

// testHookOpen, if set, runs between the checks of the path and the open:
// where the tests swap the file.
var testHookOpen func(canon string)

// Open checks one path against the upload rules and opens it.
func Open(p string) (*File, error) { return open(p, true) }

// OpenDownload opens a file the browser saved for one of the bridge's
// actions, for the daemon to move into its own folder, by every upload
// rule but the one of the bridge's own folders: the browser's download
// folder may sit inside them (the tests' does), and moving a file from
// there takes nothing out of the bridge's reach that is not already in
// it. A path that names secrets (the secret itself among them) is still
// refused.
func OpenDownload(p string) (*File, error) { return open(p, false) }

// open is Open, with the bridge's folders refused when ownFolders is set.
func open(p string, ownFolders bool) (*File, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return nil, reject(p, "the path is empty or contains a NUL byte")
	}
	if !filepath.IsAbs(p) {
		return nil, reject(p, "the path must be absolute")
	}
	if why := osPathRefusal(p); why != "" {
		return nil, reject(p, why)
	}
	// The text first: nothing below runs for a path that names secrets,
	// so the answer is the same whether such a file exists or not.
	if why := ruleRefusal(p, false, ownFolders); why != "" {
		return nil, reject(p, why+"; the bridge never uploads such files — upload another file")
	}
	if r := pseudoRoot(filepath.Clean(p)); r != "" {
		return nil, reject(p, pseudoRefusal("the path", "under "+r))
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, reject(p, "the file cannot be read: "+reason(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, reject(p, "the path is a symlink; give the path of the file itself")
	}
	if !fi.Mode().IsRegular() {
		return nil, reject(p, "not a regular file ("+kind(fi.Mode())+")")
	}
	canon, err := filepath.EvalSymlinks(p)
	if err == nil {
		canon, err = filepath.Abs(canon)
	}
	if err != nil {
		return nil, reject(p, "the path cannot be resolved: "+reason(err))
	}
	if why := ruleRefusal(canon, true, ownFolders); why != "" {
		return nil, reject(p, fmt.Sprintf("the resolved path %q is refused: %s; the bridge never uploads such files — upload another file", canon, why))
	}
	where, err := pseudoFS(canon)
	if err != nil {
		return nil, reject(p, "the filesystem of the resolved path cannot be checked: "+reason(err))
	}
	if where != "" {
		return nil, reject(p, pseudoRefusal(fmt.Sprintf("the resolved path %q", canon), where))
	}
	if testHookOpen != nil {
		testHookOpen(canon)
	}
	return openChecked(p, canon)
}

// openChecked opens the canonical path canon of p and checks the open file.
func openChecked(p, canon string) (*File, error) {
	f, dir, err := openNoSymlinks(canon)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR) {
			return nil, reject(p, fmt.Sprintf("the resolved path %q changed while it was checked: a part of it is now a symlink or not a folder; give the path of the file itself", canon))
		}
		return nil, reject(p, "the file cannot be read: "+reason(err))
	}
	why, err := fileRefusal(f, dir)
	if err != nil {
		why = "the open file cannot be checked: " + reason(err)
	}
	if why != "" {
		f.Close()
		return nil, reject(p, why)
	}
	fi, _ := f.Stat()
	return &File{File: f, Path: p, Canonical: canon, Info: fi}, nil
}

// fileRefusal says why the open file f, opened in a folder of stat dir,
// may not be uploaded, or returns "".
func fileRefusal(f *os.File, dir folderStat) (string, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "not a regular file (" + kind(fi.Mode()) + ")", nil
	}
	links, owner, err := openFacts(f, fi)
	if err != nil {
		return "", err
	}
	if links > 1 {
		return hardLinks(links), nil
	}
	if why := folderRefusal(dir, owner); why != "" {
		return why, nil
	}
	where, err := pseudoFSOf(f)
	if err != nil || where == "" {
		return "", err
	}
	return pseudoRefusal(fmt.Sprintf("the file at %q", f.Name()), where), nil
}

func hardLinks(n uint64) string {
	return fmt.Sprintf("the file has %d hard links: another of its names may be a file that names secrets, and which name is the original cannot be told; if it is an ordinary file, copy it to a new file and upload the copy", n)
}

func pseudoRefusal(what, where string) string {
	return fmt.Sprintf("%s is %s, a pseudo-filesystem: its files are live views of processes, devices or the kernel (a program's environment, memory, open files), not the user's files; if one really must be uploaded, copy it to an ordinary folder first and upload the copy", what, where)
}

// Denied returns the component of path — as written and, when it exists,
// with symlinks resolved — that names secrets, or "".
func Denied(path string) string {
	if c, _ := secretComponent(filepath.Clean(path)); c != "" {
		return c
	}
	if c, _ := secretComponent(path); c != "" {
		return c
	}
	if canon, err := filepath.EvalSymlinks(path); err == nil {
		c, _ := secretComponent(canon)
		return c
	}
	return ""
}

// Refused says why reading the file at path through a file: URL is
// refused — the rules of upload that apply to a path which may not exist
// or may be a folder (a folder listing): a component naming secrets, a
// folder of the bridge's, a pseudo-filesystem, a file with several links —
// or returns "" when it is not. The text of the path is checked first, as
// for uploads. What Chrome reads later cannot be pinned down here (Chrome
// opens the file itself), so symlinks are resolved and followed.
func Refused(path string) string {
	if why := osPathRefusal(path); why != "" {
		return why
	}
	if why := ruleRefusal(path, false, true); why != "" {
		return why
	}
	clean := filepath.Clean(path)
	if r := pseudoRoot(clean); r != "" {
		return "it is under " + r + ", a pseudo-filesystem of live process and kernel data"
	}
	canon := clean
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		canon = resolved
	}
	if why := ruleRefusal(canon, true, true); why != "" {
		return "its resolved path " + canon + " is refused: " + why
	}
	// A path that does not exist has no filesystem to ask: then only the
	// prefix counts (pseudoFS checks it first).
	if why, _ := pseudoFS(canon); why != "" {
		return "it is " + why + ", a pseudo-filesystem of live process and kernel data"
	}
	if fi, err := os.Stat(canon); err == nil && fi.Mode().IsRegular() {
		if n := pathLinks(canon, fi); n > 1 {
			return fmt.Sprintf("the file has %d hard links, so another of its names may name secrets", n)
		}
	}
	return ""
}

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

// Refusal is a path the rules refused and the rule it broke. It unwraps to
// the upload_path_rejected *protocol.Error that callers pass on; Rule is
// for those that say it in their own words (downloads).
type Refusal struct {
	Path, Rule string
	err        *protocol.Error
}

// Error is the refusal's sentence.
func (r *Refusal) Error() string { return r.err.Error() }

// Unwrap is the upload_path_rejected error.
func (r *Refusal) Unwrap() error { return r.err }

func reject(path, rule string) error {
	if path == "" {
		return &Refusal{Rule: rule, err: protocol.Errorf(protocol.CodeUploadPathRejected, "upload refused: %s", rule)}
	}
	return &Refusal{Path: path, Rule: rule, err: protocol.Errorf(protocol.CodeUploadPathRejected, "upload of %q refused: %s", path, rule)}
}
