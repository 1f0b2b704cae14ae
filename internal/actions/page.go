package actions

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/browser-bridge/browser-bridge/internal/tool"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// FrameResult is one frame's answer to a page script.
type FrameResult struct {
	FrameID    int             `json:"frameId"`
	DocumentID string          `json:"documentId"`
	Value      json.RawMessage `json:"value"`
	Error      string          `json:"error"`
	Code       string          `json:"code"`
}

// pageScript names page script files (extension/page/*.js) and a function
// they define on globalThis.__bb.
type pageScript struct {
	files []string
	fn    string
}

// script builds a pageScript; page/dom.js always goes first since every
// page script builds on it.
func script(fn string, files ...string) pageScript {
	return pageScript{files: append([]string{"page/dom.js"}, files...), fn: fn}
}

// frames says where a page script runs: one frame (frameId), or every
// frame of the tab (all).
type frames struct {
	frameID *int
	all     bool
}

// runPage runs s with args in the tab's frames and returns each frame's
// result. A frame whose script threw keeps its error in FrameResult.
func (r *run) runPage(tabID int, where frames, s pageScript, args any) ([]FrameResult, error) {
	params := map[string]any{"tabId": tabID, "files": s.files, "fn": s.fn, "args": args}
	if where.all {
		params["allFrames"] = true
	} else if where.frameID != nil {
		params["frameId"] = *where.frameID
	}
	var out struct {
		Frames []FrameResult `json:"frames"`
	}
	if err := r.callPage(tabID, "page.run", params, &out); err != nil {
		return nil, err
	}
	return out.Frames, nil
}

// runPageTop runs s in one frame (the top one unless frameID is set) and
// decodes its value into out.
func (r *run) runPageTop(tabID int, frameID *int, s pageScript, args, out any) error {
	if frameID == nil {
		zero := 0
		frameID = &zero
	}
	res, err := r.runPage(tabID, frames{frameID: frameID}, s, args)
	if err != nil {
		return err
	}
	if len(res) == 0 {
		return fmt.Errorf("the page script %s ran in no frame", s.fn)
	}
	if res[0].Error != "" {
		if res[0].Code != "" {
			return protocol.Errorf(res[0].Code, "%s", res[0].Error)
		}
		return fmt.Errorf("page script %s: %s", s.fn, res[0].Error)
	}
	if out != nil && len(res[0].Value) > 0 {
		return json.Unmarshal(res[0].Value, out)
	}
	return nil
}

// spec is the contract's declaration of the call's action.
func (r *run) spec() *tool.Spec {
	s, _ := tool.Lookup(r.in.Action)
	if s == nil {
		return &tool.Spec{Name: r.in.Action}
	}
	return s
}

// pageTarget is the tab a page action works on (SPEC §3): tabId, else the
// active tab of an explicit workspace, else of Chrome's current window.
// Run and session IDs do not steer page actions.
func (r *run) pageTarget() (TabInfo, error) {
	var t TabInfo
	if r.in.TabID != nil {
		if err := r.call("tab.get", map[string]any{"tabId": *r.in.TabID}, &t); err != nil {
			return TabInfo{}, err
		}
	} else {
		var err error
		if t, err = r.pageTab(); err != nil {
			return TabInfo{}, err
		}
	}
	return r.claimTab(t, true)
}

// claimTab takes tab t for this action: it waits its turn when the action
// changes the page, refuses the user's own incognito tabs, and — when
// the action reads the page (not when it navigates away) — pages the
// bridge may not read.
func (r *run) claimTab(t TabInfo, reading bool) (TabInfo, error) {
	if r.unlockTab == nil && r.spec().ChangesPage {
		unlock, waited, err := r.env.tabs.lock(r.ctx, tabKey{r.env.Browser.Info().Instance, t.TabID}, r.progress)
		if err != nil {
			return TabInfo{}, err
		}
		r.unlockTab = unlock
		if waited { // the tab may have changed meanwhile
			if err := r.call("tab.get", map[string]any{"tabId": t.TabID}, &t); err != nil {
				return TabInfo{}, err
			}
		}
	}
	_, owned := r.reg().Owned(t.TabID) // renews the entry if it is ours
	// The user's own incognito browsing stays private: status redacts it,
	// and page actions may not read or drive it.
	if t.Incognito && !owned {
		return TabInfo{}, protocol.Errorf(protocol.CodeIncognitoNotAllowed, "tab %d is one of your own incognito tabs; the bridge only works in incognito tabs it opened (search, or open with incognito: true)", t.TabID)
	}
	if !reading {
		return t, nil
	}
	if t.LoadError != "" {
		return TabInfo{}, protocol.Errorf(protocol.CodeProtectedPage, "tab %d shows the browser's error page: %s could not be loaded (%s); check the URL or try again when the site is reachable (open it again)", t.TabID, t.URL, t.LoadError)
	}
	if err := refuseFileURL(t.TabID, t.URL); err != nil {
		return TabInfo{}, err
	}
	return t, nil
}

// dropRefusedFrames checks the pages a page script read, whose answers
// carry their url: a top frame at a refused file: URL (it may have got
// there after the tab was claimed: a redirect, a slow load) fails the
// action; a child frame at one (a file: page framing a secret file) is
// left out, and why is returned by frame ID.
func dropRefusedFrames(tabID int, res []FrameResult) ([]FrameResult, map[int]string, error) {
	var kept []FrameResult
	dropped := map[int]string{}
	for _, f := range res {
		var v struct {
			URL string `json:"url"`
		}
		json.Unmarshal(f.Value, &v)
		if why := fileURLRefused(v.URL); why != "" {
			if f.FrameID == 0 {
				return nil, nil, refuseFileURL(tabID, v.URL)
			}
			dropped[f.FrameID] = fmt.Sprintf("not read: %s shows a file the bridge may not read (%s)", v.URL, why)
			continue
		}
		kept = append(kept, f)
	}
	return kept, dropped, nil
}

// refuseFileURL refuses a tab (or frame) showing a file: URL that breaks
// the rules of upload: open refuses such URLs, and this is a page that got
// there another way (a click through a folder listing, a redirect, the
// user).
func refuseFileURL(tabID int, u string) error {
	if why := fileURLRefused(u); why != "" {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d shows %s, which the bridge may not read or drive: %s (the same rules as for uploads); open another page in it first", tabID, u, why)
	}
	return nil
}

// fileURLRefused says why the bridge may not touch a page at the file:
// URL s, or returns "" (also for any other URL). s is read as Chrome
// reads it (pathcheck.FileURLPath); a file: URL whose path cannot be told
// is not read.
func fileURLRefused(s string) string {
	if !pathcheck.IsFileURL(s) {
		return ""
	}
	p, err := pathcheck.FileURLPath(s)
	if err != nil {
		return "its URL cannot be checked: " + err.Error()
	}
	return pathcheck.Refused(p)
}

// pageTab is the tab a page action targets when no tabId is given: the
// active tab of an explicit workspace, else of Chrome's current window.
func (r *run) pageTab() (TabInfo, error) {
	s, err := r.browserState()
	if err != nil {
		return TabInfo{}, err
	}
	if id := r.in.BrowserWorkspaceID; id != "" {
		ws, ok := r.reg().Workspace(id)
		if !ok {
			return TabInfo{}, protocol.Errorf(protocol.CodeTabNotFound, "workspace %q has no window; open a page in it first", id)
		}
		t, ok := s.activeTabIn(ws.WindowID)
		if !ok {
			return TabInfo{}, protocol.Errorf(protocol.CodeTabNotFound, "workspace %q has no active tab; open a page in it or pass tabId", id)
		}
		return t, nil
	}
	if t, ok := s.activeTab(); ok {
		return t, nil
	}
	return TabInfo{}, protocol.Errorf(protocol.CodeTabNotFound, "Chrome has no active tab in its current window; pass tabId (see status)")
}

// randomToken is a one-time token for the frame handshake.
func randomToken() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
