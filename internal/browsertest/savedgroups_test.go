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
	f.Add([]byte{0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		s := SavedTabGroups{Groups: map[string]string{}, Tabs: map[string]SavedTab{}}
		s.add(b)
		state := map[string][]byte{}
		applyBatch(b, state)
		for _, r := range logRecords(b) {
			applyBatch(r, state)
		}
		for _, v := range state {
			s.add(v)
		}
		s.Orphans()
	})
}
