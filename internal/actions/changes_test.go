package actions

import (
	"fmt"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/changes"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// A changes answer larger than the budget is read in windows with offset,
// as a full read is: each change once, in order, each window within its
// budget.
func TestChangesWindowsCoverEveryChangeOnce(t *testing.T) {
	var list []tool.Change
	for i := range 25 {
		list = append(list, tool.Change{Op: changes.Added, Text: fmt.Sprintf("item %02d %s", i, "some words of the page that were added")})
	}
	var got []string
	offset, calls := 0, 0
	for ; calls < 30; calls++ {
		res := changesWindow(tool.Page{TabID: 1}, list, offset, 300, nil)
		if res.Changes == nil || len(res.Changes.List) == 0 {
			t.Fatalf("the window at %d is empty", offset)
		}
		if changesSize(res.Changes.List) > 300 {
			t.Errorf("the window at %d is over its budget", offset)
		}
		for _, c := range res.Changes.List {
			got = append(got, c.Text)
		}
		if res.NextOffset == nil {
			break
		}
		offset = *res.NextOffset
	}
	if len(got) != len(list) || calls < 2 {
		t.Fatalf("%d changes in %d windows, want %d in several", len(got), calls+1, len(list))
	}
	for i, c := range list {
		if got[i] != c.Text {
			t.Errorf("change %d is %q, want %q", i, got[i], c.Text)
		}
	}
}

// The kept reads are bounded, and a closed tab's are dropped.
func TestKeptReadsAreBounded(t *testing.T) {
	s := &keptReads{m: map[keptKey]kept{}}
	for i := range keptEntries + 10 {
		s.put(keptKey{session: "s", instance: "i", tabID: i}, "u", changes.Read{}, nil)
	}
	if len(s.m) != keptEntries {
		t.Errorf("%d reads kept, want %d", len(s.m), keptEntries)
	}
	k := keptKey{session: "t", instance: "i", tabID: 1000}
	s.put(k, "u", changes.Read{Markdown: "x"}, nil)
	if _, ok := s.get(k, "u"); !ok {
		t.Fatal("the read just kept is not there")
	}
	if _, ok := s.get(keptKey{session: "other", instance: "i", tabID: 1000}, "u"); ok {
		t.Error("another session sees the read")
	}
	if _, ok := s.get(k, "u2"); ok {
		t.Error("the read of another URL counts")
	}
	s.forgetTab("i", 1000)
	if _, ok := s.get(k, "u"); ok {
		t.Error("a closed tab's read is kept")
	}
}
