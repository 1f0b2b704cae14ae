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
}

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
	d.prune(int64(len(data)))
	var b [6]byte
	rand.Read(b[:])
	name := fmt.Sprintf("%s%s-%s%s", prefix, d.now().UTC().Format("20060102-150405.000"), hex.EncodeToString(b[:]), ext)
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
	sort.Slice(out, func(i, j int) bool { return out[i].mod.After(out[j].mod) }) // newest first
	return out
}

// Prune removes screenshots older than MaxAge, then the oldest ones until
// the folder is under MaxBytes. It returns how many it removed.
func (d *Dir) Prune() int { return d.prune(0) }

// prune is Prune leaving room for reserve more bytes.
func (d *Dir) prune(reserve int64) int {
	removed := 0
	total := reserve
	cut := d.now().Add(-d.MaxAge)
	for _, e := range d.list() {
		if e.mod.Before(cut) || total+e.size > d.MaxBytes {
			if os.Remove(e.path) == nil {
				removed++
			}
			continue
		}
		total += e.size
	}
	return removed
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
