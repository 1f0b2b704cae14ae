package browser

import (
	"reflect"
	"testing"
)

func TestStateHelpers(t *testing.T) {
	t.Parallel()
	s := State{
		LastFocusedWindowID: 2,
		Windows: []WindowInfo{
			{WindowID: 1, Tabs: []TabInfo{{TabID: 10, Active: true}, {TabID: 11}}},
			{WindowID: 2, Tabs: []TabInfo{{TabID: 20}, {TabID: 21, Active: true}}},
			{WindowID: 3, Tabs: []TabInfo{{TabID: 30}}},
		},
	}
	if got, want := s.Live(), map[int]int{10: 1, 11: 1, 20: 2, 21: 2, 30: 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("Live = %v, want %v", got, want)
	}
	g := State{Windows: []WindowInfo{
		{WindowID: 1, Tabs: []TabInfo{{TabID: 10, GroupID: 5, WorkspacePage: true}, {TabID: 11, GroupID: 5}}},
		{WindowID: 2, Tabs: []TabInfo{{TabID: 20, GroupID: -1, WorkspacePage: true}, {TabID: 21, GroupID: 6}}},
	}}
	tabs, pages := g.Groups()
	if want := map[int]int{10: 5, 11: 5, 20: -1, 21: 6}; !reflect.DeepEqual(tabs, want) {
		t.Errorf("Groups gave tabs %v, want %v", tabs, want)
	}
	if want := map[int]int{1: 5}; !reflect.DeepEqual(pages, want) {
		t.Errorf("Groups gave workspace pages %v, want %v (an ungrouped one is left out)", pages, want)
	}
	var ids, wins []int
	for _, tab := range s.Tabs() {
		ids, wins = append(ids, tab.TabID), append(wins, tab.WindowID)
	}
	if !reflect.DeepEqual(ids, []int{10, 11, 20, 21, 30}) || !reflect.DeepEqual(wins, []int{1, 1, 2, 2, 3}) {
		t.Errorf("Tabs gave tabs %v in windows %v", ids, wins)
	}
	tests := []struct {
		window int
		want   int // 0: none
	}{{1, 10}, {2, 21}, {3, 0}, {9, 0}}
	for _, tt := range tests {
		tab, ok := s.ActiveTabIn(tt.window)
		if ok != (tt.want != 0) || tab.TabID != tt.want {
			t.Errorf("ActiveTabIn(%d) = %d, %v; want %d", tt.window, tab.TabID, ok, tt.want)
		}
	}
	if tab, ok := s.ActiveTab(); !ok || tab.TabID != 21 {
		t.Errorf("ActiveTab = %d, %v; want 21 (window 2 has the focus)", tab.TabID, ok)
	}
}
