package browsertest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sort"
)

// SavedGroupsTitled counts the tab groups titled title in the profile's
// saved tab groups (Chrome saves every named group, and keeps a saved
// group when its window closes). It reads the sync store's LevelDB log
// files — the records a small store keeps before any compaction — and
// applies their puts and deletes in order. It errs when the profile has
// no such store.
func SavedGroupsTitled(profile, title string) (int, error) {
	logs, _ := filepath.Glob(filepath.Join(profile, "Default", "Sync Data", "LevelDB", "*.log"))
	if len(logs) == 0 {
		return 0, errors.New("the profile has no sync store (Default/Sync Data/LevelDB/*.log)")
	}
	sort.Strings(logs)
	state := map[string][]byte{}
	for _, p := range logs {
		data, err := os.ReadFile(p)
		if err != nil {
			return 0, err
		}
		for _, batch := range logRecords(data) {
			applyBatch(batch, state)
		}
	}
	n := 0
	// A group's entry holds its title as a length-prefixed string after
	// field tag 0x12 (a tab's entry holds its URL instead).
	want := append([]byte{0x12, byte(len(title))}, title...)
	for k, v := range state {
		if bytes.HasPrefix([]byte(k), []byte("saved_tab_group-dt-")) && bytes.Contains(v, want) {
			n++
		}
	}
	return n, nil
}

// logRecords splits a LevelDB log into its records (32 KiB blocks of
// checksum, length, type and data; types 2–4 are a record's first,
// middle and last fragments).
func logRecords(data []byte) [][]byte {
	var out [][]byte
	var frag []byte
	for off := 0; off < len(data); off += 32 << 10 {
		blk := data[off:min(off+32<<10, len(data))]
		for i := 0; i+7 <= len(blk); {
			n := int(binary.LittleEndian.Uint16(blk[i+4:]))
			typ := blk[i+6]
			i += 7
			if typ == 0 || i+n > len(blk) {
				break
			}
			chunk := blk[i : i+n]
			i += n
			switch typ {
			case 1:
				out = append(out, chunk)
			case 2:
				frag = append([]byte(nil), chunk...)
			case 3:
				frag = append(frag, chunk...)
			case 4:
				out = append(out, append(frag, chunk...))
				frag = nil
			}
		}
	}
	return out
}

// applyBatch applies one write batch (sequence, count, then put or delete
// records of varint-prefixed keys and values) to state.
func applyBatch(b []byte, state map[string][]byte) {
	if len(b) < 12 {
		return
	}
	count := binary.LittleEndian.Uint32(b[8:])
	i := 12
	next := func() ([]byte, bool) {
		n, w := binary.Uvarint(b[i:])
		if w <= 0 || i+w+int(n) > len(b) {
			return nil, false
		}
		i += w
		s := b[i : i+int(n)]
		i += int(n)
		return s, true
	}
	for range count {
		if i >= len(b) {
			return
		}
		tag := b[i]
		i++
		k, ok := next()
		if !ok {
			return
		}
		if tag == 1 {
			v, ok := next()
			if !ok {
				return
			}
			state[string(k)] = append([]byte(nil), v...)
		} else {
			delete(state, string(k))
		}
	}
}
