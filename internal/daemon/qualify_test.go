package daemon

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Every field of a result that holds tab IDs gets the browser's slot; no
// other number does, and the first browser's results are left as they are.
func TestQualifyResult(t *testing.T) {
	res := func() *tool.StatusResult {
		return &tool.StatusResult{
			Connected:    true,
			DebuggedTabs: []int{5, 7},
			ActiveTab:    &tool.ActiveTab{TabID: 5, WindowID: 5},
			Windows:      []tool.Window{{WindowID: 1, Tabs: []tool.StatusTab{{TabID: 2, GroupID: -1}}}},
			Workspaces:   []tool.Workspace{{ID: "w", Tabs: []int{2, 3}}},
		}
	}
	want := `{"connected":true,"paused":false,"evaluate":false,"windows":[{"windowId":1,"incognito":false,"focused":false,"tabs":[{"tabId":10000000002,"url":"","title":"","active":false,"owned":false,"groupId":-1}]}],` +
		`"debuggedTabs":[10000000005,10000000007],"activeTab":{"tabId":10000000005,"windowId":5,"url":"","title":""},` +
		`"workspaces":[{"id":"w","windowId":0,"incognito":false,"groupId":0,"title":"","color":"","tabs":[10000000002,10000000003]}]}`
	b, _ := json.Marshal(route{slot: 1}.qualify(res()))
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("qualified status (-want +got):\n%s", diff)
	}
	if same := (route{slot: 0}).qualify(res()); !cmp.Equal(same, res()) {
		t.Errorf("slot 0 changed the result: %v", same)
	}

	closed := &tool.CloseResult{TabID: 8, ClosedTabs: []int{8}, ClosedWindows: []int{8}}
	route{slot: 1}.qualify(closed)
	if closed.TabID != 10000000008 || closed.ClosedTabs[0] != 10000000008 || closed.ClosedWindows[0] != 8 {
		t.Errorf("qualified close result %+v", closed)
	}
}

// An error names the tabs it was made with (protocol.Tab) as the caller
// knows them; other numbers in the sentence, and an error of the first
// browser, stay as they are.
func TestQualifyError(t *testing.T) {
	err := protocol.Errorf(protocol.CodeNotOwned, "tab %d was not opened by the bridge (tab 55 was, 5 times)", protocol.Tab(5))
	got := route{slot: 2}.qualifyError(err)
	var e *protocol.Error
	if !errors.As(got, &e) || e.Code != protocol.CodeNotOwned || e.Message != "tab 20000000005 was not opened by the bridge (tab 55 was, 5 times)" {
		t.Errorf("qualifyError = %v", got)
	}
	if same := (route{slot: 0}).qualifyError(err); same != error(err) {
		t.Errorf("slot 0 changed the error: %v", same)
	}
	plain := protocol.Errorf(protocol.CodeTimeout, "tab 5 did not answer")
	if got := (route{slot: 2}).qualifyError(plain); got.Error() != "tab 5 did not answer" {
		t.Errorf("an error with no tab value changed: %v", got)
	}
}
