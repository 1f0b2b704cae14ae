package read

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// What every action sends is its result type in internal/tool, field for
// field: the real result decodes into the type with no field left over
// (a field the engine sends and the type lacks fails), and each field the
// type always sends (no omitempty) is there. Every action of the contract
// runs once here; an action added without a call below fails the test.
func TestEveryResultIsItsType(t *testing.T) {
	ws := workspace(t)
	tab := openPage(t, "/actions")
	file := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(file, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	on := func(in map[string]any) map[string]any {
		in["tabId"] = tab
		return in
	}
	calls := []map[string]any{
		{"action": "status"},
		{"action": "open", "url": site + "/actions", "browserWorkspaceId": ws},
		on(map[string]any{"action": "extract"}),
		on(map[string]any{"action": "inspect"}),
		on(map[string]any{"action": "wait", "selector": "#go"}),
		on(map[string]any{"action": "screenshot", "mode": "viewport"}),
		on(map[string]any{"action": "console"}),
		on(map[string]any{"action": "network"}),
		on(map[string]any{"action": "hover", "selector": "#go"}),
		on(map[string]any{"action": "click", "selector": "#alert"}), // a dialog, in the outcome
		on(map[string]any{"action": "type", "selector": "#name", "value": "Ada"}),
		on(map[string]any{"action": "press", "keys": "Tab"}),
		on(map[string]any{"action": "select", "selector": "#fruit", "option": "b"}),
		on(map[string]any{"action": "check", "selector": "#agree"}),
		on(map[string]any{"action": "fill", "fields": []any{map[string]any{"selector": "#name", "value": "Ada"}, map[string]any{"selector": "#fruit", "option": "b"}}}),
		on(map[string]any{"action": "find", "query": "a"}),
		on(map[string]any{"action": "evaluate", "expression": "({title: document.title, n: 1})"}),
		on(map[string]any{"action": "scroll", "to": "bottom"}),
		on(map[string]any{"action": "scroll", "to": "top"}),
		on(map[string]any{"action": "drag", "from": map[string]any{"selector": "#src"}, "to": map[string]any{"selector": "#dst"}}),
		on(map[string]any{"action": "upload", "selector": "#file", "paths": []string{file}}),
		{"action": "downloads", "browserWorkspaceId": ws},
		on(map[string]any{"action": "handoff", "message": "Nothing to do: this test lets the hand-off time out", "timeoutMs": 4000}),
		on(map[string]any{"action": "open", "url": site + "/actions?again"}), // a page to go back from
		on(map[string]any{"action": "reload"}),
		on(map[string]any{"action": "back"}),
		on(map[string]any{"action": "forward"}),
		on(map[string]any{"action": "activate"}),
		on(map[string]any{"action": "viewport", "width": 800, "height": 600}),
		on(map[string]any{"action": "viewport", "reset": true}),
		on(map[string]any{"action": "emulate", "device": "pixel-8", "network": "fast-3g", "colorScheme": "dark"}),
		on(map[string]any{"action": "emulate", "reset": true}),
		on(map[string]any{"action": "performance", "durationMs": 500}),
		on(map[string]any{"action": "pdf"}),
		{"action": "search", "query": "results", "browserWorkspaceId": ws},
		{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws},
	}
	// evaluate is the user's choice (off by default).
	bridge.Run(t, "policy", "evaluate", "on")
	t.Cleanup(func() { bridge.Run(t, "policy", "evaluate", "off") })
	var ran []string
	for _, in := range calls {
		name := in["action"].(string)
		spec, ok := tool.Lookup(name)
		if !ok {
			t.Fatalf("action %q is not in the contract", name)
		}
		_, out := call(t, in)
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		v := reflect.New(reflect.TypeOf(spec.Result))
		if err := dec.Decode(v.Interface()); err != nil {
			t.Errorf("%s: the result does not decode into tool.%s: %v\n%s", name, v.Elem().Type().Name(), err, out)
			continue
		}
		var sent map[string]json.RawMessage
		json.Unmarshal([]byte(out), &sent)
		for _, key := range alwaysSent(v.Elem().Type()) {
			if _, ok := sent[key]; !ok {
				t.Errorf("%s: the result lacks %q, which tool.%s always sends:\n%s", name, key, v.Elem().Type().Name(), out)
			}
		}
		ran = append(ran, name)
	}
	for _, name := range tool.Names() {
		if !slices.Contains(ran, name) {
			t.Errorf("action %s has no call in this test: add one", name)
		}
	}
}

// alwaysSent lists the json names of rt's fields, embedded ones included,
// that are sent whatever their value (no omitempty or omitzero).
func alwaysSent(rt reflect.Type) []string {
	var out []string
	for i := range rt.NumField() {
		f := rt.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			out = append(out, alwaysSent(f.Type)...)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" || strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
			continue
		}
		out = append(out, name)
	}
	return out
}
