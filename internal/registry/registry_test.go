package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPersistsAcrossOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "reg.json")
	set, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	r := set.For("chrome-1")
	r.AddTab(5, 1, "session:a")
	r.SetWorkspace(Workspace{ID: "session:a", WindowID: 1, GroupID: 9, Title: "a", Color: "blue"})
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("registry mode %v, want 0600", fi.Mode().Perm())
	}
	set2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	r2 := set2.For("chrome-1")
	if set2.For("chromium-2").IsOwned(5) {
		t.Fatal("a tab owned in one browser counts as owned in another")
	}
	if !r2.IsOwned(5) {
		t.Fatal("owned tab lost across reopen")
	}
	if w, ok := r2.Workspace("session:a"); !ok || w.GroupID != 9 {
		t.Fatalf("workspace lost: %+v", w)
	}
}

func TestSweepHonoursRenewal(t *testing.T) {
	now := time.Unix(1000, 0)
	set, _ := Open("")
	set.SetClock(func() time.Time { return now })
	r := set.For("a")
	r.AddTab(1, 1, "w")
	r.AddTab(2, 1, "w")
	now = now.Add(TTL - time.Minute)
	r.Owned(2) // renews 2 only
	now = now.Add(2 * time.Minute)
	if gone := set.Sweep(); len(gone) != 1 || gone[0] != 1 {
		t.Fatalf("swept %v, want [1]", gone)
	}
	if !r.IsOwned(2) {
		t.Fatal("renewed tab was swept")
	}
}

// A named or run workspace expires whole, when neither an open in it nor
// one of its tabs was used for TTL: its tabs are not swept on their own
// (the daemon closes them with the workspace). A session's own
// workspace (not Named) never expires; its tabs are swept as before.
func TestWorkspacesExpireWhole(t *testing.T) {
	now := time.Unix(1000, 0)
	set, _ := Open("")
	set.SetClock(func() time.Time { return now })
	r := set.For("a")
	for i, id := range []string{"named", "run:r", "used", "session:s", "empty"} {
		r.SetWorkspace(Workspace{ID: id, WindowID: 10 + i, Named: id != "session:s"})
		if id != "empty" {
			r.AddTab(i+1, 10+i, id)
		}
	}
	now = now.Add(TTL - time.Minute)
	r.Owned(3) // a tab of "used"
	now = now.Add(2 * time.Minute)
	var got []string
	for _, w := range r.Expired() {
		got = append(got, w.ID)
	}
	if strings.Join(got, " ") != "empty named run:r" {
		t.Errorf("expired %v, want [empty named run:r]", got)
	}
	if gone := set.Sweep(); len(gone) != 1 || gone[0] != 4 {
		t.Errorf("swept %v, want only the session workspace's tab [4]", gone)
	}
	set.SetTTL(time.Minute)
	now = now.Add(2 * time.Minute)
	if n := len(r.Expired()); n != 4 {
		t.Errorf("with a TTL of a minute, %d workspaces expired, want 4", n)
	}
}

func TestReconcileDropsClosedTabsAndWindows(t *testing.T) {
	set, _ := Open("")
	r := set.For("a")
	other := set.For("b")
	other.AddTab(1, 10, "w")
	r.AddTab(1, 10, "w")
	r.AddTab(2, 10, "w")
	r.SetWorkspace(Workspace{ID: "w", WindowID: 10})
	r.SetWorkspace(Workspace{ID: "gone", WindowID: 11})
	r.Reconcile(map[int]int{2: 12, 3: 10}, time.Now())
	if r.IsOwned(1) || !r.IsOwned(2) {
		t.Fatal("reconcile kept a closed tab or lost a live one")
	}
	if tabs := r.Tabs(""); tabs[0].WindowID != 12 {
		t.Fatalf("moved tab keeps old window: %+v", tabs)
	}
	if _, ok := r.Workspace("gone"); ok {
		t.Fatal("workspace of a closed window kept")
	}
	if _, ok := r.Workspace("w"); !ok {
		t.Fatal("workspace of a live window dropped")
	}
	if !other.IsOwned(1) {
		t.Fatal("reconciling one browser dropped another browser's tab")
	}
}

func TestCorruptFileIsSetAside(t *testing.T) {
	p := filepath.Join(t.TempDir(), "reg.json")
	os.WriteFile(p, []byte("{not json"), 0o600)
	set, err := Open(p)
	if err != nil || len(set.For("a").Tabs("")) != 0 {
		t.Fatalf("Open on corrupt file: %v", err)
	}
	if _, err := os.Stat(p + ".corrupt"); err != nil {
		t.Fatal("corrupt file not set aside")
	}
}

// A snapshot taken before a tab was opened must not drop that tab.
func TestReconcileKeepsEntriesYoungerThanTheSnapshot(t *testing.T) {
	now := time.Unix(1000, 0)
	set, _ := Open("")
	set.SetClock(func() time.Time { return now })
	r := set.For("a")
	seen := now
	now = now.Add(time.Second)
	r.AddTab(7, 70, "w")
	r.SetWorkspace(Workspace{ID: "w", WindowID: 70})
	r.Reconcile(map[int]int{}, seen)
	if !r.IsOwned(7) {
		t.Fatal("a tab opened after the snapshot was dropped")
	}
	if _, ok := r.Workspace("w"); !ok {
		t.Fatal("a workspace made after the snapshot was dropped")
	}
	r.Reconcile(map[int]int{}, now.Add(time.Second))
	if r.IsOwned(7) {
		t.Fatal("a newer snapshot without the tab kept it")
	}
}

// After a browser restart the extension says hello with a new browser
// session: the earlier run's tabs (whose IDs the new run reuses for the
// user's own tabs) are not the bridge's any more.
func TestEarlierRunsAreForgotten(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	s.For("inst").AddTab(1, 1, "old-format")
	s.For("inst@run1").AddTab(12, 3, "session:a")
	s.For("other@run1").AddTab(12, 3, "session:b")
	if n := s.DropEarlierRuns("inst@run2"); n != 2 {
		t.Errorf("forgot %d tabs, want 2 (the old-format entry and run1)", n)
	}
	if s.For("inst@run2").IsOwned(12) || s.For("inst@run1").IsOwned(12) || s.For("inst").IsOwned(1) {
		t.Error("a tab of an earlier run is still owned")
	}
	if !s.For("other@run1").IsOwned(12) {
		t.Error("another installation's tabs were dropped")
	}
	if s.DropEarlierRuns("inst") != 0 {
		t.Error("an instance without a browser session dropped something")
	}
}

// FuzzOpen: the registry file is the daemon's, but anything may have
// written it (an older version, a crash mid-edit, a user): whatever it
// holds, Open and the calls the daemon makes right after never panic,
// and what Open kept is saved and read back the same.
func FuzzOpen(f *testing.F) {
	f.Add([]byte(`{"instances":{"chrome-1":{"tabs":[{"tabId":5,"windowId":1,"workspace":"session:a"}],"workspaces":[{"id":"session:a","windowId":1,"groupId":9}]}}}`))
	f.Add([]byte(`{"instances":{"x":null}}`))
	f.Add([]byte(`{"instances":{"x":{"tabs":[null],"workspaces":[null]}}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"instances":{"x":{"tabs":[{"tabId":-1,"lastUsed":"not a time"}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "reg.json")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		set, err := Open(p)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		set.Sweep()
		var workspaces int
		for _, inst := range []string{"x", "chrome-1"} {
			r := set.For(inst)
			for _, w := range r.Workspaces() {
				workspaces++
				r.Tabs(w.ID)
			}
			r.Expired()
			r.Reconcile(map[int]int{5: 1}, time.Now())
		}
		r := set.For("chrome-1")
		r.AddTab(7, 2, "session:f")
		again, err := Open(p)
		if err != nil {
			t.Fatalf("Open of what was saved: %v", err)
		}
		if _, ok := again.For("chrome-1").Get(7); !ok {
			t.Fatalf("the saved registry lost tab 7 (%d workspaces read before)", workspaces)
		}
	})
}

// The user closed a workspace's page and the extension put its tabs into
// a new group: the workspace follows them, to its workspace page's group
// or else its tabs' one group; with neither, it has none. One with no
// group takes its workspace page's. A workspace whose group is still
// there, or changed after the snapshot, is left.
func TestFollowGroups(t *testing.T) {
	now := time.Unix(1000, 0)
	set, _ := Open("")
	set.SetClock(func() time.Time { return now })
	r := set.For("a")
	r.AddTab(1, 10, "paged")
	r.AddTab(2, 20, "tabs")
	r.AddTab(3, 30, "split")
	r.AddTab(4, 30, "split")
	r.AddTab(5, 40, "kept")
	r.AddTab(7, 60, "none")
	r.AddTab(8, 70, "none-paged")
	for _, w := range []Workspace{{ID: "paged", WindowID: 10, GroupID: 100}, {ID: "tabs", WindowID: 20, GroupID: 200}, {ID: "split", WindowID: 30, GroupID: 300}, {ID: "kept", WindowID: 40, GroupID: 400},
		{ID: "none", WindowID: 60, GroupID: -1}, {ID: "none-paged", WindowID: 70, GroupID: -1}} {
		r.SetWorkspace(w)
	}
	seen := now.Add(time.Second)
	now = seen.Add(time.Second)
	r.SetWorkspace(Workspace{ID: "young", WindowID: 50, GroupID: 500})
	tabs := map[int]int{1: 101, 2: 201, 3: 301, 4: 302, 5: 400, 6: 101, 7: 600, 8: 700, 9: 700}
	r.FollowGroups(tabs, map[int]int{10: 101, 70: 700}, seen)
	for id, want := range map[string]int{"paged": 101, "tabs": 201, "split": -1, "kept": 400, "young": 500, "none": -1, "none-paged": 700} {
		if w, _ := r.Workspace(id); w.GroupID != want {
			t.Errorf("workspace %q is in group %d, want %d", id, w.GroupID, want)
		}
	}
}
