package slots

import (
	"os"
	"path/filepath"
	"testing"
)

func TestQualifySplit(t *testing.T) {
	for _, c := range []struct{ slot, raw, id int }{
		{0, 123, 123},
		{1, 5, 10_000_000_005},
		{2, 123, 20_000_000_123},
		{0, 2147483647, 2147483647}, // Chrome's largest tab ID stays itself
		{1, 2147483647, 12147483647},
		{3, 0, 0}, // no tab stays no tab
	} {
		if got := Qualify(c.slot, c.raw); got != c.id {
			t.Errorf("Qualify(%d, %d) = %d, want %d", c.slot, c.raw, got, c.id)
		}
		if c.raw == 0 {
			continue
		}
		if s, r := Split(c.id); s != c.slot || r != c.raw {
			t.Errorf("Split(%d) = %d, %d, want %d, %d", c.id, s, r, c.slot, c.raw)
		}
	}
}

func TestAssignKeepsSlotsAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "browsers.json")
	tab, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tab.Assign("inst-a", "Chromium")
	b, _ := tab.Assign("inst-b", "Chromium")
	c, _ := tab.Assign("inst-c", "Edge")
	if a.Slot != 0 || b.Slot != 1 || c.Slot != 2 {
		t.Fatalf("slots %d %d %d, want 0 1 2", a.Slot, b.Slot, c.Slot)
	}
	if a.Label != "Chromium" || b.Label != "Chromium #1" || c.Label != "Edge" {
		t.Errorf("labels %q %q %q", a.Label, b.Label, c.Label)
	}
	if again, _ := tab.Assign("inst-b", "whatever"); again != b {
		t.Errorf("second Assign of inst-b = %+v, want %+v", again, b)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	re, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for sel, want := range map[string]int{"1": 1, "chromium #1": 1, "EDGE": 2, "inst-a": 0, "Chromium": 0} {
		got, ok := re.Find(sel)
		if !ok || got.Slot != want {
			t.Errorf("Find(%q) = %+v, %v; want slot %d", sel, got, ok, want)
		}
	}
	if _, ok := re.Find("Firefox"); ok {
		t.Error("Find of an unknown label found something")
	}
}

func TestOpenSetsCorruptAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "browsers.json")
	os.WriteFile(path, []byte(`{"browsers":[{"slot":0,"instance":"a","label":"x"},{"slot":0,"instance":"b","label":"y"}]}`), 0o600)
	tab, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := tab.Assign("c", "Chromium"); b.Slot != 0 {
		t.Errorf("a corrupt file's slots were kept: %+v", b)
	}
	if _, err := os.Stat(path + ".corrupt"); err != nil {
		t.Errorf("the corrupt file was not set aside: %v", err)
	}
}

// FuzzDecode: whatever the state file holds, Decode either refuses it or
// returns slots in range, each once, with an instance and a label.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"browsers":[{"slot":0,"instance":"a","label":"Chromium"},{"slot":2,"instance":"b","label":"Edge"}]}`))
	f.Add([]byte(`{"browsers":[{"slot":-1,"instance":"a","label":"x"}]}`))
	f.Add([]byte(`{"browsers":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := Decode(b)
		if err != nil {
			return
		}
		seen := map[int]bool{}
		for i, x := range list {
			if x.Slot < 0 || x.Slot > MaxSlot || seen[x.Slot] || x.Instance == "" || x.Label == "" {
				t.Fatalf("Decode accepted %+v", x)
			}
			if i > 0 && list[i-1].Slot >= x.Slot {
				t.Fatalf("slots out of order: %+v", list)
			}
			seen[x.Slot] = true
		}
	})
}
