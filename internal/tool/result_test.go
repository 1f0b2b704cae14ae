package tool

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Every action has a result type, a struct.
func TestEverySpecHasAResult(t *testing.T) {
	for _, s := range Specs() {
		if rt := reflect.TypeOf(s.Result); rt == nil || rt.Kind() != reflect.Struct {
			t.Errorf("%s: Result is %v, want a struct value", s.Name, rt)
		}
	}
}

// A field that holds tab IDs (its JSON name says tab) is tagged, so the
// daemon gives it the browser's slot; windowId and groupId are not tabs.
func TestEveryTabIDIsTagged(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type, path string)
	walk = func(rt reflect.Type, path string) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		for i := range rt.NumField() {
			f := rt.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			elem := f.Type
			if elem.Kind() == reflect.Slice {
				elem = elem.Elem()
			}
			isTab := strings.HasSuffix(name, "tabId") || strings.HasSuffix(name, "TabId") ||
				(strings.HasSuffix(strings.ToLower(name), "tabs") && elem.Kind() == reflect.Int)
			if tagged := f.Tag.Get("tab") == "id"; isTab != tagged && elem.Kind() == reflect.Int {
				t.Errorf("%s.%s (json %q): tagged %v, holds tab IDs %v", path, f.Name, name, tagged, isTab)
			}
			walk(f.Type, path+"."+f.Name)
		}
	}
	for _, s := range Specs() {
		walk(reflect.TypeOf(s.Result), s.Name)
	}
}

// QualifyTabs rewrites the tagged fields, in lists and behind pointers,
// and nothing else.
func TestQualifyTabs(t *testing.T) {
	res := &ActResult{Page: Page{TabID: 5}, Element: &Element{FrameID: 4}, Outcome: Outcome{
		OpenedTabs: []Tab{{TabID: 7, OpenerTabID: 5, GroupID: 3, WindowID: 5}},
		Downloads:  []Download{{TabID: 5, Bytes: 12}, {Bytes: 1}},
	}}
	QualifyTabs(res, func(id int) int { return id + 100 })
	if res.TabID != 105 || res.Element.FrameID != 4 || res.OpenedTabs[0] != (Tab{TabID: 107, OpenerTabID: 105, GroupID: 3, WindowID: 5}) ||
		res.Downloads[0].TabID != 105 || res.Downloads[1].TabID != 0 || res.Downloads[0].Bytes != 12 {
		t.Errorf("qualified %+v", res)
	}
	c := &CloseResult{TabID: 8, ClosedTabs: []int{8, 9}, ClosedWindows: []int{8}}
	QualifyTabs(c, func(id int) int { return -id })
	if c.TabID != -8 || c.ClosedTabs[1] != -9 || c.ClosedWindows[0] != 8 {
		t.Errorf("qualified %+v", c)
	}
}

// An element on the wire leaves out its defaults and rounds its rect, and
// reads back as the same value.
func TestElementLeavesOutItsDefaults(t *testing.T) {
	e := Element{Ref: "e1", Tag: "button", Name: "Send", Visible: true, Matches: 1, Rect: &Rect{X: 20.4, Y: 280.875, Width: 81.953125, Height: 21}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ref":"e1","tag":"button","name":"Send","rect":{"x":20,"y":281,"width":82,"height":21}}`; string(b) != want {
		t.Errorf("wire form %s, want %s", b, want)
	}
	var back Element
	if err := json.Unmarshal(b, &back); err != nil || !back.Visible || back.Matches != 1 || back.FrameID != 0 || back.Rect.Width != 82 {
		t.Errorf("read back as %+v (%v)", back, err)
	}
	other := Element{FrameID: 7, Visible: false, Matches: 3}
	b, _ = json.Marshal(other)
	var back2 Element
	if json.Unmarshal(b, &back2); back2 != other {
		t.Errorf("%s read back as %+v, want %+v", b, back2, other)
	}
}
