package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCommandFlattensParams(t *testing.T) {
	tests := []struct {
		cmd  Command
		want string
	}{
		{Command{ID: "1", Type: "tab.list"}, `{"id":"1","type":"tab.list"}`},
		{Command{ID: "2", Type: "tab.close", Params: map[string]int{"tabId": 7}}, `{"id":"2","type":"tab.close","tabId":7}`},
		{Command{ID: "3", Type: "x", Params: struct{}{}}, `{"id":"3","type":"x"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("got %s, want %s", b, tt.want)
		}
	}
	if _, err := json.Marshal(Command{ID: "4", Type: "x", Params: []int{1}}); err == nil {
		t.Error("params that are not an object must be refused")
	}
}

func TestDecodeErrorShapes(t *testing.T) {
	e, err := Decode([]byte(`{"id":"9","error":"No tab with id: 5"}`))
	if err != nil || e.Error == nil || e.Error.Message != "No tab with id: 5" || e.Error.Code != CodeInternal {
		t.Fatalf("string error: %+v %v", e.Error, err)
	}
	e, err = Decode([]byte(`{"id":"9","error":{"code":"tab_not_found","message":"gone"}}`))
	if err != nil || e.Error.Code != CodeTabNotFound {
		t.Fatalf("object error: %+v %v", e.Error, err)
	}
	for _, bad := range []string{``, `[]`, `"x"`, `{"id":5}`, `{`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) should fail", bad)
		}
	}
}

// TestExtensionErrorNamesItsTabs decodes an error as the extension sends
// it, with the tabs its message names, and shows them as a second
// browser's tabs are shown (slot 1 in front).
func TestExtensionErrorNamesItsTabs(t *testing.T) {
	show := func(id int) int { return 10_000_000_000 + id }
	for _, c := range []struct{ wire, want string }{
		{`{"code":"x","message":"tab 5 has no page to go back; open a URL instead","tabs":[5]}`,
			"tab 10000000005 has no page to go back; open a URL instead"},
		// Only the listed tabs, only as whole numbers, % kept.
		{`{"code":"x","message":"frame 2 of tab 51 (tab 5, tab 7, 100%) tab 5","tabs":[5,51]}`,
			"frame 2 of tab 10000000051 (tab 10000000005, tab 7, 100%) tab 10000000005"},
		{`{"code":"x","message":"tab 55 is gone","tabs":[5]}`, "tab 55 is gone"},
		{`{"code":"x","message":"tab 5 is gone"}`, "tab 5 is gone"},
	} {
		var e Error
		if err := json.Unmarshal([]byte(c.wire), &e); err != nil {
			t.Fatal(err)
		}
		if got := e.ShowTabs(show).Message; got != c.want {
			t.Errorf("%s shown as %q, want %q", c.wire, got, c.want)
		}
		if b, _ := json.Marshal(&e); strings.Contains(string(b), "tabs") {
			t.Errorf("the tabs list is sent on: %s", b)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"type":"hello","version":"0.1.0","protocol":1}`))
	f.Add([]byte(`{"id":"1","result":{"tabId":3}}`))
	f.Add([]byte(`{"id":"1","error":{"code":"x","message":"y"}}`))
	f.Add([]byte(`{"id":"1","error":null}`))
	f.Add([]byte(`{"id":"1","error":{"code":"x","message":"tab 5 of tab 51 at 100% (tab 5)","tabs":[5,51]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := Decode(b)
		if err != nil {
			return
		}
		// Whatever decodes must re-encode.
		if _, err := json.Marshal(e); err != nil {
			t.Fatalf("re-encoding %q: %v", b, err)
		}
		if e.Error != nil && e.Error.Code == "" {
			t.Fatalf("decoded error without a code from %q", b)
		}
		// The tabs an error names give its message back unchanged.
		if e.Error != nil {
			if got := e.Error.ShowTabs(func(id int) int { return id }).Message; got != e.Error.Message {
				t.Fatalf("ShowTabs of %q gave %q", e.Error.Message, got)
			}
		}
	})
}
