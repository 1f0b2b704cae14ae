package audit

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// tailBytes is how much of the end of a file Tail reads: far more than
// the lines a page shows (an entry is a few hundred bytes), far less than
// a whole trail (MaxBytes per file), so a page that asks every second
// costs next to nothing.
const tailBytes = 64 << 10

// Tail returns the last n entries of the trail, oldest first: from the
// end of the current file, then of the rotated ones before it while it
// has fewer.
func Tail(l paths.Layout, n int) ([]Entry, error) {
	var out []Entry
	for i := 0; i <= Keep && len(out) < n; i++ {
		name := File(l)
		if i > 0 {
			name = fmt.Sprintf("%s.%d", name, i)
		}
		older, err := tailOf(name, n-len(out))
		if err != nil {
			return out, err
		}
		out = append(older, out...)
	}
	return out, nil
}

// tailOf reads the last n entries of one file (none when it is missing).
func tailOf(name string, n int) ([]Entry, error) {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	start := max(fi.Size()-tailBytes, 0)
	b := make([]byte, fi.Size()-start)
	if _, err := f.ReadAt(b, start); err != nil && err != io.EOF {
		return nil, err
	}
	if start > 0 {
		// The first line is cut: start at the next one.
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	var out []Entry
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if e, ok := Decode(line); ok {
			out = append(out, e)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}
