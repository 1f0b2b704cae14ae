package daemon

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Every field of a result that holds tab IDs gets the browser's slot; no
// other number does, and the first browser's results are left as they are.
func TestQualifyResult(t *testing.T) {
	res := map[string]any{
		"tabId":        5,
		"windowId":     5,
		"openedTabs":   []any{map[string]any{"tabId": 7, "openerTabId": 5, "groupId": 3}},
		"debuggedTabs": []int{5, 7},
		"closedTabs":   []int{8},
		"downloads":    []any{map[string]any{"tabId": 5, "bytes": 12}},
		"windows":      []any{map[string]any{"windowId": 1, "tabs": []any{map[string]any{"tabId": 2, "groupId": -1}}}},
		"workspaces":   []any{map[string]any{"id": "w", "tabs": []int{2, 3}}},
		"frames":       []any{map[string]any{"frameId": 4}},
		"noTab":        map[string]any{"tabId": 0},
	}
	want := `{"closedTabs":[10000000008],"debuggedTabs":[10000000005,10000000007],"downloads":[{"bytes":12,"tabId":10000000005}],` +
		`"frames":[{"frameId":4}],"noTab":{"tabId":0},"openedTabs":[{"groupId":3,"openerTabId":10000000005,"tabId":10000000007}],` +
		`"tabId":10000000005,"windowId":5,"windows":[{"tabs":[{"groupId":-1,"tabId":10000000002}],"windowId":1}],` +
		`"workspaces":[{"id":"w","tabs":[10000000002,10000000003]}]}`
	got, err := route{slot: 1}.qualify(res)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("qualified result (-want +got):\n%s", diff)
	}
	if same, _ := (route{slot: 0}).qualify(res); !cmp.Equal(same, res) {
		t.Errorf("slot 0 changed the result: %v", same)
	}
}

func TestQualifyError(t *testing.T) {
	err := protocol.Errorf(protocol.CodeNotOwned, "tab 5 was not opened by the bridge (tab 55 was)")
	got := route{slot: 2, raw: 5}.qualifyError(err)
	var e *protocol.Error
	if !errors.As(got, &e) || e.Code != protocol.CodeNotOwned || e.Message != "tab 20000000005 was not opened by the bridge (tab 55 was)" {
		t.Errorf("qualifyError = %v", got)
	}
}
