package protocol

import (
	"encoding/json"
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

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"type":"hello","version":"0.1.0","protocol":1}`))
	f.Add([]byte(`{"id":"1","result":{"tabId":3}}`))
	f.Add([]byte(`{"id":"1","error":{"code":"x","message":"y"}}`))
	f.Add([]byte(`{"id":"1","error":null}`))
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
	})
}
