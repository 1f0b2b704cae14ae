// Package shots owns the screenshot files: it writes them (mode 0600, in a
// 0700 folder, unique names) and prunes old ones by age and total size.
package shots

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// Limits of the folder; the environment may change them.
const (
	DefaultMaxAge   = 24 * time.Hour
	DefaultMaxBytes = 500 << 20
	EnvMaxAge       = "BROWSER_BRIDGE_SCREENSHOT_MAX_AGE" // a Go duration, e.g. 2h
	EnvMaxMB        = "BROWSER_BRIDGE_SCREENSHOT_MAX_MB"  // whole megabytes
	prefix          = "shot-"
)

// Dir is a folder of screenshots.
type Dir struct {
	Path     string
	MaxAge   time.Duration
	MaxBytes int64
	now      func() time.Time

	// What Write knows of the folder: its files, oldest first, as the
	// last look at it (list) found them plus those written since, and
	// their total size. Listing a folder near its cap (~10,000 files)
	// costs ~40 ms, as much as a screenshot itself, so Write looks again
	// only every rescanEvery and prunes from what it knows meanwhile. A
	// file added behind its back (by hand) counts only from the next look,
	// so the folder may run over its cap until then; one removed behind
	// its back (`browser-bridge clean`) still counts until then, so an
	// older one may go a little early.
	mu      sync.Mutex
	known   []entry
	total   int64
	scanned time.Time // zero: never
	looks   int       // how many times Write listed the folder
}

// rescanEvery is how old what Write knows of the folder may get.
const rescanEvery = time.Minute

// New returns the folder at path with limits from the environment.
func New(path string) *Dir {
	d := &Dir{Path: path, MaxAge: DefaultMaxAge, MaxBytes: DefaultMaxBytes, now: time.Now}
	if v, err := time.ParseDuration(os.Getenv(EnvMaxAge)); err == nil && v > 0 {
		d.MaxAge = v
	}
	if v, err := strconv.ParseInt(os.Getenv(EnvMaxMB), 10, 64); err == nil && v > 0 {
		d.MaxBytes = v << 20
	}
	return d
}

// Write stores one image (ext like ".jpg") and returns its path. It prunes
// the folder first, so the new file always survives.
func (d *Dir) Write(data []byte, ext string) (string, error) {
	if err := paths.EnsurePrivateDir(d.Path); err != nil {
		return "", err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	if d.scanned.IsZero() || now.Sub(d.scanned) >= rescanEvery || now.Before(d.scanned) {
		d.known, d.scanned = d.list(), now
		d.total = size(d.known)
		d.looks++
	}
	d.known, d.total = d.pruned(d.known, d.total, int64(len(data)))
	var b [6]byte
	rand.Read(b[:])
	name := fmt.Sprintf("%s%s-%s%s", prefix, now.UTC().Format("20060102-150405.000"), hex.EncodeToString(b[:]), ext)
	p := filepath.Join(d.Path, name)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("writing screenshot: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(p)
		return "", fmt.Errorf("writing screenshot: %w", err)
	}
	d.known = append(d.known, entry{p, int64(len(data)), now})
	d.total += int64(len(data))
	return p, f.Close()
}

type entry struct {
	path string
	size int64
	mod  time.Time
}

func (d *Dir) list() []entry {
	ents, _ := os.ReadDir(d.Path)
	var out []entry
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, entry{filepath.Join(d.Path, e.Name()), fi.Size(), fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].mod.Before(out[j].mod) }) // oldest first
	return out
}

// size is the files' total size.
func size(list []entry) (n int64) {
	for _, e := range list {
		n += e.size
	}
	return n
}

// pruned removes from the folder the oldest files of list (oldest first,
// total bytes in all) while they are older than MaxAge or the files do
// not leave room under MaxBytes for reserve more bytes. It returns the
// files kept and their total size (a file already gone, removed behind
// Write's back, leaves the list all the same).
func (d *Dir) pruned(list []entry, total, reserve int64) ([]entry, int64) {
	cut := d.now().Add(-d.MaxAge)
	for len(list) > 0 && (list[0].mod.Before(cut) || total+reserve > d.MaxBytes) {
		os.Remove(list[0].path)
		total -= list[0].size
		list = list[1:]
	}
	return list, total
}

// Clean removes every screenshot and returns how many and how many bytes.
func (d *Dir) Clean() (n int, bytes int64) {
	for _, e := range d.list() {
		if os.Remove(e.path) == nil {
			n++
			bytes += e.size
		}
	}
	return n, bytes
}
