package bridge_test

import (
	"context"
	"errors"
	"testing"

	"github.com/browser-bridge/browser-bridge/bridge"
)

// The program door against the real extension: a program works in the
// tabs it created, and nowhere else.
func TestVerbsWorkOnlyInTheProgramsOwnTabs(t *testing.T) {
	ctx := context.Background()
	c := dial(t, bridge.WithSession("program:verbs-test"))
	info, err := c.ContextCreate(ctx, "verbs-test", &bridge.ContextOptions{DisplayName: "verbs test"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.ContextDestroy(ctx, info.GroupID)

	groups, err := c.TabGroupList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range groups {
		found = found || (g.ID == info.GroupID && g.Title == "verbs test" && g.WindowID == info.WindowID)
	}
	if !found {
		t.Errorf("TabGroupList %+v lacks the context's group %+v", groups, info)
	}
	second, err := c.TabCreate(ctx, info.GroupID, site+"/done")
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := c.TabList(ctx, info.GroupID)
	if err != nil || len(tabs) != 2 {
		t.Fatalf("TabList of the group: %+v %v, want its 2 tabs", tabs, err)
	}
	if err := c.TabActivate(ctx, second); err != nil {
		t.Error(err)
	}
	if err := c.CDPAttach(ctx, second); err != nil {
		t.Error(err)
	}
	tab, err := c.TabGet(ctx, second)
	if err != nil || tab.TabID != second || tab.GroupID != info.GroupID || !tab.Active {
		t.Errorf("TabGet: %+v %v", tab, err)
	}
	if err := c.CDP(ctx, second, "Network.getAllCookies", nil, nil); !errors.Is(err, bridge.ErrMethodNotAllowed) {
		t.Errorf("CDP Network.getAllCookies: %v, want method_not_allowed", err)
	}
	if err := c.CDPDetach(ctx, second); err != nil {
		t.Error(err)
	}
	if err := c.TabClose(ctx, second); err != nil {
		t.Error(err)
	}

	// A tab the actions opened is not the program door's.
	opened, err := c.Open(ctx, bridge.OpenParams{URL: site + "/done"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseTabs(ctx, bridge.CloseParams{Target: bridge.Target{TabID: opened.TabID}})
	if err := c.CDP(ctx, opened.TabID, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); !errors.Is(err, bridge.ErrNotOwned) {
		t.Errorf("CDP in a tab the program did not create: %v, want not_owned", err)
	}
	if err := c.TabClose(ctx, opened.TabID); !errors.Is(err, bridge.ErrNotOwned) {
		t.Errorf("TabClose of a tab the program did not create: %v, want not_owned", err)
	}

	ws, err := c.WebSocketStatus(ctx)
	if err != nil || ws.Enabled {
		t.Errorf("WebSocketStatus: %+v %v, want off", ws, err)
	}
}
