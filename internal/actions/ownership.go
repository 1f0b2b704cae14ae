package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// mayTouch refuses, with not_owned, an action of this call on tab tabID
// when the tab belongs to another session's workspace
// (docs/design.md#workspaces): a tab
// belongs to the workspace that opened it, so that one agent cannot close
// or drive the tabs another agent is working in.
//
// What may touch a tab:
//   - the session that opened it, whatever workspace it named then (the
//     CLI opens in a named workspace and clicks by tabId afterwards);
//   - any call whose workspace is the tab's: it names that workspace
//     (browserWorkspaceId, or the runId of a run workspace), which is
//     how agents share one on purpose;
//   - everyone, for a tab the bridge did not open (the user's own tabs
//     stay usable by every session, as always) or whose opener is not
//     known (an entry from before sessions were recorded).
func (r guards) mayTouch(tabID int) error {
	t, ok := r.reg().Get(tabID)
	if !ok {
		return nil
	}
	opener := t.Opener()
	if opener == "" || opener == r.session || t.Workspace == r.workspace {
		return nil
	}
	// Most often the agent forgot the tabId its own open returned (the
	// call then went to the active tab): that comes first; taking over
	// another session's workspace is the exception.
	how := "pass the tabId that your open returned (status lists your own tabs)"
	if r.tabID == nil {
		how = "the call named no tabId, so it went to the active tab: " + how
	}
	return protocol.Errorf(protocol.CodeNotOwned,
		"tab %d belongs to workspace %q, which another session opened; %s. Only to %s that tab on purpose, name its workspace (browserWorkspaceId: %q)",
		protocol.Tab(tabID), t.Workspace, how, r.action, t.Workspace)
}
