// Package nmframe reads and writes length-prefixed frames: a 4-byte
// little-endian length followed by that many bytes of UTF-8 JSON.
//
// It is the framing of Chrome's native messaging (stdio between Chrome and
// the host) and, so that there is one decoder to fuzz, also of the bridge's
// own unix-socket traffic between the host, the CLI and the daemon.
// Native messaging uses the machine's native byte order; every platform
// Chrome supports is little-endian.
package nmframe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Limits of native messaging, set by Chrome.
const (
	// MaxToChrome is the largest frame Chrome accepts from a host. One byte
	// more and Chrome closes the host's pipes at once (see E2E.md), so the
	// host must refuse such a frame rather than write it.
	MaxToChrome = 1 << 20
	// MaxFromChrome is the largest frame Chrome sends to a host
	// (port.postMessage throws above 64 MiB).
	MaxFromChrome = 64 << 20
)

// TooLargeError reports a frame over the limit of its direction. It is
// returned before any byte of the frame is written, or after the header of an
// oversized incoming frame has been read (its body is skipped when possible,
// so the stream stays in step).
type TooLargeError struct {
	Size  int    // the frame's length in bytes
	Limit int    // the limit it broke
	Dir   string // which way it was going, e.g. "to Chrome"
}

// Error implements error.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("frame %s is %d bytes, over the limit of %d bytes", e.Dir, e.Size, e.Limit)
}

// ErrTooLarge matches every *TooLargeError with errors.Is.
var ErrTooLarge = errors.New("frame too large")

// Is lets errors.Is(err, ErrTooLarge) match.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Reader reads frames of at most Limit bytes from R.
type Reader struct {
	R     io.Reader
	Limit int
	Dir   string // for error messages, e.g. "from Chrome"
	// Skip makes an oversized frame be read and dropped, so the stream
	// stays in step (for Chrome's pipe, which has no other way to recover);
	// without it Read fails at the header and the caller should hang up.
	Skip bool
	// Started, if set, is called once a frame's header has arrived and
	// before its body is read: a socket server uses it to put a deadline on
	// the rest of a request without timing out idle connections.
	Started func()
	hdr     [4]byte
}

// Read returns the payload of the next frame. io.EOF means the stream ended
// cleanly between frames; io.ErrUnexpectedEOF means it ended inside one.
// A frame over the limit is reported as a *TooLargeError; with Skip set
// its body is read and dropped first, so the next Read continues with the
// next frame.
func (r *Reader) Read() ([]byte, error) {
	if _, err := io.ReadFull(r.R, r.hdr[:]); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(r.hdr[:])
	if r.Started != nil {
		r.Started()
	}
	if uint64(n) > uint64(r.Limit) {
		if !r.Skip {
			return nil, &TooLargeError{Size: int(n), Limit: r.Limit, Dir: r.Dir}
		}
		// Drop the body so the stream stays aligned on frame boundaries.
		if _, err := io.CopyN(io.Discard, r.R, int64(n)); err != nil {
			return nil, fmt.Errorf("skipping oversized frame: %w", io.ErrUnexpectedEOF)
		}
		return nil, &TooLargeError{Size: int(n), Limit: r.Limit, Dir: r.Dir}
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r.R, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// Write writes payload as one frame, or nothing at all if it is over limit.
// The header and payload go out in a single Write call so that concurrent
// writers serialised by the caller never interleave partial frames.
func Write(w io.Writer, payload []byte, limit int, dir string) error {
	if len(payload) > limit {
		return &TooLargeError{Size: len(payload), Limit: limit, Dir: dir}
	}
	buf := make([]byte, 4+len(payload))
	binary.LittleEndian.PutUint32(buf, uint32(len(payload)))
	copy(buf[4:], payload)
	_, err := w.Write(buf)
	return err
}
