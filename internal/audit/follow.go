package audit

import (
	"bufio"
	"context"
	"io"
	"os"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// pollEvery is how often Follow looks for new lines: a person watching
// the trail sees a command within a fraction of a second.
const pollEvery = 200 * time.Millisecond

// Follow calls fn with each entry written to the trail from now on, until
// ctx ends. It survives rotation: when the file is replaced it reads the
// new one from its start.
func Follow(ctx context.Context, l paths.Layout, f Filter, fn func(Entry)) error {
	name := File(l)
	var (
		fh   *os.File
		r    *bufio.Reader
		info os.FileInfo
		part []byte
	)
	open := func(fromEnd bool) {
		if fh != nil {
			fh.Close()
			fh = nil
		}
		g, err := os.Open(name)
		if err != nil {
			return
		}
		if fromEnd {
			g.Seek(0, io.SeekEnd)
		}
		fh, r, part = g, bufio.NewReader(g), nil
		info, _ = g.Stat()
	}
	open(true)
	defer func() {
		if fh != nil {
			fh.Close()
		}
	}()
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		if fh != nil {
			for {
				line, err := r.ReadBytes('\n')
				part = append(part, line...)
				if err != nil {
					break // a line still being written stays in part
				}
				if e, ok := Decode(part[:len(part)-1]); ok && f.keep(e) {
					fn(e)
				}
				part = nil
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		// Rotated or created since: read the new file from its start.
		if cur, err := os.Stat(name); err == nil && (fh == nil || info == nil || !os.SameFile(cur, info)) {
			open(false)
		}
	}
}
