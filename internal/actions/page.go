package actions

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

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
// result. A frame whose script threw keeps its error in its result.
func (r *run) runPage(tabID int, where frames, s pageScript, args any) ([]protocol.PageFrameResult, error) {
	p := protocol.PageRunParams{TabID: tabID, Files: s.files, Fn: s.fn, Args: args}
	if where.all {
		p.AllFrames = true
	} else {
		p.FrameID = where.frameID
	}
	var res []protocol.PageFrameResult
	err := r.answerer().unheld(tabID, func() (err error) {
		res, err = r.b.PageRun(r.ctx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return refuseFrames(tabID, res)
}

// refuseFrames keeps what the bridge may not read out of every page
// script's answers, for every action (issue 11, finding 1): a top frame at
// a refused file: URL fails the action; a child frame at one (a file:
// page framing ~/.ssh/id_rsa) answers only an error naming why, so no
// locate, wait or read ever carries its text.
func refuseFrames(tabID int, res []protocol.PageFrameResult) ([]protocol.PageFrameResult, error) {
	for i, f := range res {
		why := fileURLRefused(f.URL)
		if why == "" {
			continue
		}
		if f.FrameID == 0 {
			return nil, refuseFileURL(tabID, f.URL)
		}
		res[i] = protocol.PageFrameResult{FrameID: f.FrameID, DocumentID: f.DocumentID, URL: f.URL, Code: protocol.CodeBlockedByPolicy,
			Error: fmt.Sprintf("not read: %s shows a file the bridge may not read (%s)", f.URL, why)}
	}
	return res, nil
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

// dropRefusedFrames checks the pages a page script read, whose answers
// carry their url: a top frame at a refused file: URL (it may have got
// there after the tab was claimed: a redirect, a slow load) fails the
// action; a child frame at one (a file: page framing a secret file) is
// left out, and why is returned by frame ID.
func dropRefusedFrames(tabID int, res []protocol.PageFrameResult) ([]protocol.PageFrameResult, map[int]string, error) {
	var kept []protocol.PageFrameResult
	dropped := map[int]string{}
	for _, f := range res {
		if f.Code == protocol.CodeBlockedByPolicy && f.Value == nil {
			dropped[f.FrameID] = f.Error // refused by refuseFrames already
			continue
		}
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
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d shows %s, which the bridge may not read or drive: %s (the same rules as for uploads); open another page in it first", protocol.Tab(tabID), u, why)
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

// randomToken is a one-time token for the frame handshake.
func randomToken() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
