package browsertest

import (
	"encoding/binary"
	"testing"
)

// Entries as Chromium 156 stored them (e2e, a workspace "zz-320346" with
// one page): a group and one of its tabs.
var (
	savedGroup = []byte("\b\x01\x12K\n$b2c4fa65-77e6-4d27-9b5d-7b087cbcfec9\x10\x97\x81\xbe\xb2\x93\x86\xf0\x17\x18\xbc\xa3\xd6\xb2\x93\x86\xf0\x17\"\x0f\x12\tzz-320346\x18\b \x008\x01\x1a\r\x10\x01 \xc4\xa3\xd6\xb2\x93\x86\xf0\x178\x00")
	savedTab   = []byte("\b\x01\x12\x87\x01\n$e34a1487-9c9d-4878-8f90-1ec94ae852c4\x10\xa5\x81\xbe\xb2\x93\x86\xf0\x17\x18\xa7\x81\xbe\xb2\x93\x86\xf0\x17*K\n$b2c4fa65-77e6-4d27-9b5d-7b087cbcfec9\x10\x00\x1a\x1fhttp://127.0.0.1:43561/page/One\"\x008\x01")
)

func TestSavedTabGroupEntries(t *testing.T) {
	s := SavedTabGroups{Groups: map[string]string{}, Tabs: map[string]SavedTab{}}
	s.add(savedTab)
	if o := s.Orphans(); len(o) != 1 {
		t.Errorf("a tab without its group: orphans %v, want the tab", o)
	}
	s.add(savedGroup)
	if got := s.Groups["b2c4fa65-77e6-4d27-9b5d-7b087cbcfec9"]; got != "zz-320346" {
		t.Errorf("group title %q, want zz-320346 (%v)", got, s.Groups)
	}
	tab := s.Tabs["e34a1487-9c9d-4878-8f90-1ec94ae852c4"]
	if tab.Group != "b2c4fa65-77e6-4d27-9b5d-7b087cbcfec9" || tab.URL != "http://127.0.0.1:43561/page/One" {
		t.Errorf("tab %+v", tab)
	}
	if n := s.TabsAt("http://127.0.0.1:43561/"); n != 1 {
		t.Errorf("TabsAt = %d, want 1", n)
	}
	if o := s.Orphans(); len(o) != 0 {
		t.Errorf("orphans %v, want none", o)
	}
}

// batch is a LevelDB write batch of puts (value != nil) and deletes.
func batch(ops ...[2][]byte) []byte {
	b := make([]byte, 12)
	binary.LittleEndian.PutUint32(b[8:], uint32(len(ops)))
	for _, op := range ops {
		if op[1] == nil {
			b = append(b, 0)
			b = binary.AppendUvarint(b, uint64(len(op[0])))
			b = append(b, op[0]...)
			continue
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(op[0])))
		b = append(b, op[0]...)
		b = binary.AppendUvarint(b, uint64(len(op[1])))
		b = append(b, op[1]...)
	}
	return b
}

// The saved tab groups are read from files Chromium writes: no bytes make
// the reader panic.
func FuzzSavedTabGroups(f *testing.F) {
	f.Add(savedGroup)
	f.Add(savedTab)
	f.Add(batch([2][]byte{[]byte("saved_tab_group-dt-x"), savedTab}, [2][]byte{[]byte("k"), nil}))
	f.Add(table(map[string][]byte{"k": []byte("v")}, 1))
	f.Add([]byte{0x0a, 0x0c, 'a', 'b', 'c', 0x0a, 0x03, 0x00})
	f.Add([]byte{0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		s := SavedTabGroups{Groups: map[string]string{}, Tabs: map[string]SavedTab{}}
		s.add(b)
		st := store{}
		applyBatch(b, st)
		for _, r := range logRecords(b) {
			applyBatch(r, st)
		}
		readTable(b, st)
		snappyDecode(b)
		for _, r := range st {
			s.add(r.val)
		}
		s.Orphans()
	})
}

// table builds a LevelDB table of one uncompressed data block holding
// kv, each written at sequence seq.
func table(kv map[string][]byte, seq uint64) []byte {
	blockOf := func(keys [][]byte, vals [][]byte) []byte {
		var b []byte
		for i, k := range keys {
			b = binary.AppendUvarint(b, 0)
			b = binary.AppendUvarint(b, uint64(len(k)))
			b = binary.AppendUvarint(b, uint64(len(vals[i])))
			b = append(append(b, k...), vals[i]...)
		}
		b = binary.LittleEndian.AppendUint32(b, 0) // one restart, at 0
		return binary.LittleEndian.AppendUint32(b, 1)
	}
	var keys, vals [][]byte
	for k, v := range kv {
		ik := binary.LittleEndian.AppendUint64([]byte(k), seq<<8|1)
		keys, vals = append(keys, ik), append(vals, v)
	}
	data := blockOf(keys, vals)
	out := append(append([]byte(nil), data...), 0, 0, 0, 0, 0)
	h := binary.AppendUvarint(binary.AppendUvarint(nil, 0), uint64(len(data)))
	index := blockOf([][]byte{keys[len(keys)-1]}, [][]byte{h})
	indexAt := len(out)
	out = append(append(out, index...), 0, 0, 0, 0, 0)
	footer := binary.AppendUvarint(binary.AppendUvarint(nil, 0), 0) // no metaindex
	footer = binary.AppendUvarint(binary.AppendUvarint(footer, uint64(indexAt)), uint64(len(index)))
	footer = append(footer, make([]byte, 40-len(footer))...)
	return binary.LittleEndian.AppendUint64(append(out, footer...), tableMagic)
}

// A table's records count, and the newer of two writes of a key wins,
// whichever is read first.
func TestTableAndLogMerge(t *testing.T) {
	st := store{}
	if err := readTable(table(map[string][]byte{"saved_tab_group-dt-g": savedGroup, "old": []byte("table")}, 5), st); err != nil {
		t.Fatal(err)
	}
	applyBatch(batch([2][]byte{[]byte("old"), nil}), st) // sequence 0: older than the table's
	if r := st["old"]; r.del || string(r.val) != "table" {
		t.Errorf("an older log deletion won over the table: %+v", r)
	}
	b := batch([2][]byte{[]byte("old"), nil})
	binary.LittleEndian.PutUint64(b, 9)
	applyBatch(b, st)
	if !st["old"].del {
		t.Errorf("a newer log deletion lost to the table: %+v", st["old"])
	}
	if r := st["saved_tab_group-dt-g"]; string(r.val) != string(savedGroup) {
		t.Errorf("the table's group entry: %q", r.val)
	}
}

// Snappy: a literal, then a copy that overlaps what it writes.
func TestSnappyDecode(t *testing.T) {
	// length 12; literal "abc" (tag 2<<2); copy1 of length 9 at offset 3
	// (tag (9-4)<<2 | 1, offset byte 3).
	got, err := snappyDecode([]byte{12, 2 << 2, 'a', 'b', 'c', (9-4)<<2 | 1, 3})
	if err != nil || string(got) != "abcabcabcabc" {
		t.Errorf("snappyDecode = %q, %v", got, err)
	}
	// A copy with a 2-byte offset, and one with a 4-byte offset.
	got, err = snappyDecode([]byte{8, 1 << 2, 'a', 'b', (4-1)<<2 | 2, 2, 0, (2-1)<<2 | 3, 1, 0, 0, 0})
	if err != nil || string(got) != "abababbb" {
		t.Errorf("snappyDecode = %q, %v", got, err)
	}
	if _, err := snappyDecode([]byte{12, 2 << 2, 'a', 'b', 'c', (9-4)<<2 | 1, 4}); err == nil {
		t.Error("a copy from before the start was decoded")
	}
}
