package replay

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxLine is the longest index line read; a longer one is skipped.
const maxLine = 64 << 10

// ParseIndex reads a timeline's index file: one JSON entry per line. The
// file is the daemon's own, but it sits on disk where anything of the
// user's may have written it: a line that does not parse, is too long, or
// names an image that is not one of the timeline's own files is skipped,
// never trusted.
func ParseIndex(data []byte) []Entry {
	var out []Entry
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || len(line) > maxLine || !utf8.Valid(line) {
			continue
		}
		var e Entry
		if json.Unmarshal(line, &e) != nil || e.Action == "" || e.Workspace == "" {
			continue
		}
		if _, ok := imageSeq(e.Image); !ok {
			e.Image = ""
		}
		out = append(out, e)
	}
	return out
}

// imageSeq is the step number of a capture's file name, "00000012.jpg";
// ok is false for any other name (a path, "..", another file).
func imageSeq(name string) (int, bool) {
	digits, ok := strings.CutSuffix(name, ".jpg")
	if !ok || len(digits) != 8 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}
