// Package logfile is the daemon's log file: a Writer that appends to it
// and rotates it by size, so that a log nobody reads cannot fill the disk,
// and Every, which bounds a log line that a peer can cause at will.
package logfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Rotation of the daemon log: at most MaxSize bytes in the file written
// to, and Keep older files beside it (daemon.log.1, daemon.log.2).
const (
	MaxSize = 10 << 20
	Keep    = 2
)

// Writer appends to the file at Path and rotates it once a write would take
// it past MaxSize: Path.1 becomes Path.2 and so on up to Path.<Keep>
// (older ones are overwritten), Path becomes Path.1, and a new Path is
// started. The size is taken from the file itself before each write, so
// what other processes append (a starter's messages, a panic on stderr)
// counts too. A write is never split; one larger than MaxSize goes whole
// into a fresh file. If rotating fails the writer keeps writing to the
// file it has, since losing the log would be worse than a big one.
type Writer struct {
	path     string
	max      int64
	keep     int
	onRotate func(*os.File)

	mu sync.Mutex
	f  *os.File
}

// Options change how a Writer rotates; zero values mean MaxSize and Keep.
type Options struct {
	MaxSize int64
	Keep    int
	// OnRotate, if set, is called with each new file once it is open. The
	// daemon points its stdout and stderr at it (RedirectStdio), so that
	// what the runtime writes there (a panic) lands in the current log.
	OnRotate func(*os.File)
}

// Open opens (creating, mode 0600) the log file at path for appending.
func Open(path string, o Options) (*Writer, error) {
	if o.MaxSize <= 0 {
		o.MaxSize = MaxSize
	}
	if o.Keep <= 0 {
		o.Keep = Keep
	}
	f, err := openLog(path)
	if err != nil {
		return nil, err
	}
	return &Writer{path: path, max: o.MaxSize, keep: o.Keep, onRotate: o.OnRotate, f: f}, nil
}

func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the log: %w", err)
	}
	return f, nil
}

// Write appends p, rotating first if p would take the file past the size.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if fi, err := w.f.Stat(); err == nil && fi.Size() > 0 && fi.Size()+int64(len(p)) > w.max {
		w.rotate()
	}
	return w.f.Write(p)
}

// rotate shifts the old files up by one and starts a new one.
func (w *Writer) rotate() {
	os.Remove(w.old(w.keep))
	for i := w.keep - 1; i >= 1; i-- {
		os.Rename(w.old(i), w.old(i+1))
	}
	// Path removed by hand: nothing to move, just start it again.
	if err := os.Rename(w.path, w.old(1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	f, err := openLog(w.path)
	if err != nil {
		// Path is gone and cannot be made again: go on in Path.1.
		return
	}
	w.f.Close()
	w.f = f
	if w.onRotate != nil {
		w.onRotate(f)
	}
}

func (w *Writer) old(i int) string { return fmt.Sprintf("%s.%d", w.path, i) }

// Close closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.f.Close()
}

// Every lets through one event per Interval and counts the others, for a
// log line that whoever can reach the socket can cause as often as they
// like (a connection dropped before the handshake): at most one line per
// interval, which says how many like it were left out since the last.
// Safe for concurrent use; the zero value lets every event through.
type Every struct {
	Interval time.Duration

	mu   sync.Mutex
	last time.Time
	held int
	now  func() time.Time // tests set it
}

// Allow reports whether to log this event, and if so how many events were
// held back since the last one allowed.
func (e *Every) Allow() (ok bool, suppressed int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	if e.now != nil {
		now = e.now()
	}
	if !e.last.IsZero() && now.Sub(e.last) < e.Interval {
		e.held++
		return false, 0
	}
	e.last, suppressed, e.held = now, e.held, 0
	return true, suppressed
}
