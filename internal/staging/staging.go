// Package staging keeps the private copies of the files the bridge hands
// Chrome to upload. A path Chrome is given is only a name, read when the
// page reads the file: whatever sits there by then (a symlink to a key
// swapped in after the check) is what the page gets. So the daemon checks
// and opens each file itself (internal/pathcheck), copies the bytes from
// that open file into a folder only the user can read, and gives Chrome
// the copies: the bytes Chrome reads are the bytes that were checked.
//
// The folder is the staging folder of the layout (the cache's uploads/,
// 0700); each upload gets its own 0700 folder, each file a 0700 folder of
// its own inside it (two files may share a name) and keeps its base name,
// so the page sees the file name the user chose; files are 0600 and keep
// their modification time.
//
// Chrome reads a file input's files lazily — when the page reads them or
// submits the form, possibly minutes after the upload action — and a
// missing file then fails that read. So a successful upload's copies stay
// for Keep and are removed then (or by the first sweep after it, if the
// daemon stopped meanwhile); an upload that failed before Chrome got the
// files is removed at once by the cleanup Stage returns.
package staging

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// MaxBytes is the most the staging folder holds at once: one upload's
// files together, and the copies of recent uploads still kept for their
// pages. The design sets no byte limit on uploads; this one guards the disk
// (copies are written under the user's cache, often the system disk)
// while staying far above what web forms take — 2 GiB is the size limit
// of many upload services and more than most pages will read into memory.
const MaxBytes int64 = 2 << 30

// Keep is how long the copies of an upload stay after it, for the page to
// read them (see the package comment): as long as an unused owned-tab
// entry lives (docs/design.md#wire-protocol).
const Keep = 30 * time.Minute

// minAge is how old kept copies must be before they may be removed early
// to make room for a new upload: longer than any command's deadline
// (60 s), so no upload still being set loses its files.
const minAge = 2 * time.Minute

// Dir is one staging folder.
type Dir struct {
	root string
	keep time.Duration
	now  func() time.Time

	mu       sync.Mutex
	swept    bool
	reserved map[string]int64 // uploads being copied: their folder and size
	timers   map[string]*time.Timer
}

var (
	dirsMu sync.Mutex
	dirs   = map[string]*Dir{}
)

// For returns the staging folder of layout l (one Dir per folder in the
// process, so its uploads share one account of the disk).
func For(l paths.Layout) *Dir {
	root := pathcheck.StagingFolder(l)
	dirsMu.Lock()
	defer dirsMu.Unlock()
	if d, ok := dirs[root]; ok {
		return d
	}
	d := New(root)
	dirs[root] = d
	return d
}

// New returns the staging folder at root, created on first use.
func New(root string) *Dir {
	return &Dir{root: root, keep: Keep, now: time.Now, reserved: map[string]int64{}, timers: map[string]*time.Timer{}}
}

// Stage checks and copies sources into the staging folder of the layout of
// the environment (the one the daemon runs with); see (*Dir).Stage.
func Stage(sources []string) (staged []string, cleanup func(), err error) {
	l, err := paths.Default()
	if err != nil {
		return nil, nil, err
	}
	return For(l).Stage(sources)
}

// Root is the folder's path.
func (d *Dir) Root() string { return d.root }

// Stage checks sources with the upload rules (pathcheck.OpenAll), copies
// each from its open file into a new upload folder and returns the copies'
// paths, in order, for Chrome. cleanup removes the copies at once: call it
// when the upload failed before Chrome was given them; otherwise leave it,
// and they are removed after Keep. A refused path is upload_path_rejected
// naming the path and the rule, and then nothing is copied.
func (d *Dir) Stage(sources []string) (staged []string, cleanup func(), err error) {
	files, err := pathcheck.OpenAll(sources)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var total int64
	for _, f := range files {
		total += f.Info.Size()
	}
	if total > MaxBytes {
		return nil, nil, protocol.Errorf(protocol.CodeUploadPathRejected, "upload refused: the files hold %s together, more than the %s the bridge copies for one upload; upload fewer or smaller files", size(total), size(MaxBytes))
	}
	up, err := d.reserve(total)
	if err != nil {
		return nil, nil, err
	}
	staged, err = copyAll(up, files, total)
	d.release(up, err == nil)
	if err != nil {
		return nil, nil, err
	}
	return staged, func() { d.remove(up) }, nil
}

// reserve makes room for total bytes (sweeping expired uploads, then
// removing the oldest kept ones if need be) and creates the upload's
// folder, counted as total bytes until release.
func (d *Dir) reserve(total int64) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := paths.EnsurePrivateDir(d.root); err != nil {
		return "", fmt.Errorf("preparing the staging folder for uploads: %w", err)
	}
	d.sweepLocked()
	uploads := d.listLocked()
	var used int64
	for _, u := range uploads {
		used += u.bytes
	}
	// Oldest first; never one younger than minAge, which an upload may
	// still be setting.
	for _, u := range uploads {
		if used+total <= MaxBytes {
			break
		}
		if _, busy := d.reserved[u.path]; busy || d.now().Sub(u.mod) < minAge {
			continue
		}
		d.removeLocked(u.path)
		used -= u.bytes
	}
	if used+total > MaxBytes {
		return "", protocol.Errorf(protocol.CodeUploadPathRejected, "upload refused: the bridge's staging folder %s already holds %s of copies of uploads from the last minutes, and %s more would pass its limit of %s; try again in a few minutes", d.root, size(used), size(total), size(MaxBytes))
	}
	var b [8]byte
	rand.Read(b[:])
	up := filepath.Join(d.root, "up-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(up, 0o700); err != nil {
		return "", fmt.Errorf("creating an upload folder in %s: %w", d.root, err)
	}
	d.reserved[up] = total
	return up, nil
}

// release ends the reservation of up; a staged upload is kept for d.keep,
// a failed one removed.
func (d *Dir) release(up string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.reserved, up)
	if !ok {
		d.removeLocked(up)
		return
	}
	d.expireLocked(up, d.keep)
}

// copyAll copies files into up: file i as up/i/<its base name>.
func copyAll(up string, files []*pathcheck.File, total int64) ([]string, error) {
	out := make([]string, 0, len(files))
	left := total
	for i, f := range files {
		sub := filepath.Join(up, strconv.Itoa(i))
		if err := os.Mkdir(sub, 0o700); err != nil {
			return nil, fmt.Errorf("staging %q for upload: %w", f.Path, err)
		}
		dst := filepath.Join(sub, filepath.Base(f.Canonical))
		n, err := copyFile(dst, f, left)
		if err != nil {
			return nil, err
		}
		left -= n
		out = append(out, dst)
	}
	return out, nil
}

// copyFile copies f into a new 0600 file dst, at most limit bytes: a file
// that grew past its size since it was checked, beyond what is left of the
// upload's total, is refused rather than cut.
func copyFile(dst string, f *pathcheck.File, limit int64) (int64, error) {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // O_EXCL: never through a symlink
	if err != nil {
		return 0, fmt.Errorf("staging %q for upload: %w", f.Path, err)
	}
	// 0600 whatever the umask.
	if err := out.Chmod(0o600); err != nil {
		out.Close()
		return 0, fmt.Errorf("staging %q for upload: %w", f.Path, err)
	}
	n, err := io.Copy(out, io.LimitReader(f, limit+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("copying %q for upload: %w (is the disk of %s full?)", f.Path, err, filepath.Dir(dst))
	}
	if n > limit {
		return n, protocol.Errorf(protocol.CodeUploadPathRejected, "upload of %q refused: the file grew while it was being copied; upload it once it is complete", f.Path)
	}
	// The page sees the original's lastModified.
	os.Chtimes(dst, time.Time{}, f.Info.ModTime())
	return n, nil
}

// Sweep removes the uploads whose time is up, also those an earlier
// daemon left, and schedules the removal of the others: the daemon calls
// it when it starts (Stage does on first use, too).
func (d *Dir) Sweep() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := os.Lstat(d.root); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := paths.EnsurePrivateDir(d.root); err != nil {
		return err
	}
	d.swept = false
	d.sweepLocked()
	return nil
}

// sweepLocked removes expired uploads; the first time in the process it
// also schedules the removal of the uploads an earlier process left.
func (d *Dir) sweepLocked() {
	first := !d.swept
	d.swept = true
	for _, u := range d.listLocked() {
		if _, busy := d.reserved[u.path]; busy {
			continue
		}
		age := d.now().Sub(u.mod)
		switch {
		case age >= d.keep:
			d.removeLocked(u.path)
		case first && d.timers[u.path] == nil:
			d.expireLocked(u.path, d.keep-age)
		}
	}
}

type upload struct {
	path  string
	mod   time.Time
	bytes int64
}

// listLocked lists the upload folders, oldest first, with their sizes
// (a reserved one counts its reservation).
func (d *Dir) listLocked() []upload {
	entries, err := os.ReadDir(d.root)
	if err != nil {
		return nil
	}
	var out []upload
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		u := upload{path: filepath.Join(d.root, e.Name()), mod: info.ModTime()}
		if n, ok := d.reserved[u.path]; ok {
			u.bytes = n
		} else {
			filepath.WalkDir(u.path, func(_ string, de fs.DirEntry, err error) error {
				if err == nil && de.Type().IsRegular() {
					if fi, err := de.Info(); err == nil {
						u.bytes += fi.Size()
					}
				}
				return nil
			})
		}
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].mod.Before(out[j].mod) })
	return out
}

func (d *Dir) expireLocked(up string, after time.Duration) {
	if t := d.timers[up]; t != nil {
		t.Stop()
	}
	d.timers[up] = time.AfterFunc(after, func() { d.remove(up) })
}

func (d *Dir) remove(up string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.removeLocked(up)
}

// removeLocked removes one upload folder (RemoveAll follows no symlinks).
func (d *Dir) removeLocked(up string) {
	if t := d.timers[up]; t != nil {
		t.Stop()
		delete(d.timers, up)
	}
	os.RemoveAll(up)
}

// size says n bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
