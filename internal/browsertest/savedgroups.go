package browsertest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// SavedGroupsTitled counts the tab groups titled title in the profile's
// saved tab groups (Chrome saves every named group, and keeps a saved
// group when its window closes). It errs when the profile has no sync
// store.
func SavedGroupsTitled(profile, title string) (int, error) {
	s, err := ReadSavedTabGroups(profile)
	if err != nil {
		return 0, err
	}
	return s.Titled(title), nil
}

// WaitSaved waits up to 10 s until the saved tab groups of the bridge's
// browser profile satisfy ok, and returns them; it fails t when they
// never do, saying what it waited for.
func (b *Bridge) WaitSaved(t testing.TB, what string, ok func(SavedTabGroups) bool) SavedTabGroups {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, err := ReadSavedTabGroups(b.Launch.Profile)
		if err == nil && ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the saved tab groups never showed %s (%v): %d groups, %d tab entries, %d of them of closed groups", what, err, len(s.Groups), len(s.Tabs), len(s.Orphans()))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// SavedTabGroups is what the profile's saved tab groups hold: the groups
// (GUID → title) and the tab entries (GUID → tab). Chrome syncs both to
// the user's account.
type SavedTabGroups struct {
	Groups map[string]string
	Tabs   map[string]SavedTab
}

// SavedTab is a tab entry of the saved tab groups: the group it names
// and its page.
type SavedTab struct {
	Group string
	URL   string
}

// Titled counts the groups titled title.
func (s SavedTabGroups) Titled(title string) int {
	n := 0
	for _, g := range s.Groups {
		if g == title {
			n++
		}
	}
	return n
}

// TabsAt counts the tab entries whose URL starts with prefix.
func (s SavedTabGroups) TabsAt(prefix string) int {
	n := 0
	for _, t := range s.Tabs {
		if strings.HasPrefix(t.URL, prefix) {
			n++
		}
	}
	return n
}

// Orphans are the tab entries (by GUID) whose group is not saved: Chrome
// keeps the entry of a group's last tab when it deletes the group.
func (s SavedTabGroups) Orphans() map[string]SavedTab {
	out := map[string]SavedTab{}
	for id, t := range s.Tabs {
		if _, ok := s.Groups[t.Group]; !ok {
			out[id] = t
		}
	}
	return out
}

// ReadSavedTabGroups reads the profile's saved tab groups from its sync
// store, a LevelDB database: its tables (what compactions wrote) and its
// log files (the writes since), each key's latest record winning. It errs
// when the profile has no such store or a table cannot be read.
func ReadSavedTabGroups(profile string) (SavedTabGroups, error) {
	dir := filepath.Join(profile, "Default", "Sync Data", "LevelDB")
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	if len(logs) == 0 {
		return SavedTabGroups{}, errors.New("the profile has no sync store (Default/Sync Data/LevelDB/*.log)")
	}
	tables, _ := filepath.Glob(filepath.Join(dir, "*.ldb"))
	old, _ := filepath.Glob(filepath.Join(dir, "*.sst")) // LevelDB before 1.14
	tables = append(tables, old...)
	st := store{}
	for _, p := range tables {
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // compacted away meanwhile: its records are in a newer table
		}
		if err != nil {
			return SavedTabGroups{}, err
		}
		if err := readTable(data, st); err != nil {
			return SavedTabGroups{}, fmt.Errorf("%s: %w", p, err)
		}
	}
	sort.Strings(logs)
	for _, p := range logs {
		data, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return SavedTabGroups{}, err
		}
		for _, batch := range logRecords(data) {
			applyBatch(batch, st)
		}
	}
	out := SavedTabGroups{Groups: map[string]string{}, Tabs: map[string]SavedTab{}}
	for k, r := range st {
		if !r.del && strings.HasPrefix(k, "saved_tab_group-dt-") {
			out.add(r.val)
		}
	}
	return out, nil
}

// add reads one stored entry: a record whose field 2 is Chrome's
// SavedTabGroupSpecifics (components/sync/protocol/
// saved_tab_group_specifics.proto): guid (1), then group (4, its title
// in field 2) or tab (5: group_guid 1, url 3).
func (s SavedTabGroups) add(v []byte) {
	spec, ok := field(v, 2)
	if !ok {
		return
	}
	guid, _ := field(spec, 1)
	if g, ok := field(spec, 4); ok {
		title, _ := field(g, 2)
		s.Groups[string(guid)] = string(title)
	} else if t, ok := field(spec, 5); ok {
		group, _ := field(t, 1)
		url, _ := field(t, 3)
		s.Tabs[string(guid)] = SavedTab{Group: string(group), URL: string(url)}
	}
}

// field returns the bytes of the first length-delimited field num of the
// protocol buffer message b, skipping the others; false when there is
// none or b is cut short.
func field(b []byte, num uint64) ([]byte, bool) {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, false
		}
		b = b[n:]
		switch key & 7 {
		case 0: // varint
			_, n = binary.Uvarint(b)
			if n <= 0 {
				return nil, false
			}
			b = b[n:]
		case 1: // 64-bit
			if len(b) < 8 {
				return nil, false
			}
			b = b[8:]
		case 5: // 32-bit
			if len(b) < 4 {
				return nil, false
			}
			b = b[4:]
		case 2: // length-delimited
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return nil, false
			}
			v := b[n : n+int(l)]
			if key>>3 == num {
				return v, true
			}
			b = b[n+int(l):]
		default:
			return nil, false
		}
	}
	return nil, false
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
// records of varint-prefixed keys and values) to st; the batch's records
// take its sequence number and the ones after it.
func applyBatch(b []byte, st store) {
	if len(b) < 12 {
		return
	}
	seq := binary.LittleEndian.Uint64(b)
	count := binary.LittleEndian.Uint32(b[8:])
	i := 12
	next := func() ([]byte, bool) {
		n, w := binary.Uvarint(b[i:])
		if w <= 0 || n > uint64(len(b)-i-w) {
			return nil, false
		}
		i += w
		s := b[i : i+int(n)]
		i += int(n)
		return s, true
	}
	for n := range count {
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
			st.put(k, seq+uint64(n), v, false)
		} else {
			st.put(k, seq+uint64(n), nil, true)
		}
	}
}
