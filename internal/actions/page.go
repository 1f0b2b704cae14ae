package actions

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

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
func (r reach) runPage(tabID int, where frames, s pageScript, args any) ([]protocol.PageFrameResult, error) {
	p := protocol.PageRunParams{TabID: tabID, Files: s.files, Fn: s.fn, Args: args}
	if where.all {
		p.AllFrames = true
	} else {
		p.FrameID = where.frameID
	}
	var res []protocol.PageFrameResult
	err := r.answers().unheld(tabID, func() (err error) {
		res, err = r.b.PageRun(r.ctx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.refuseFrames(tabID, res)
}

// refuseFrames keeps what the bridge may not read out of every page
// script's answers, for every action: a top frame the bridge may not
// touch fails the action; a child frame it may not touch answers only an
// error naming why, so no locate, wait or read ever carries its text and
// no action finds an element there to act on. Not to be touched: a
// refused file: URL (a file: page framing ~/.ssh/id_rsa) and a site the
// user's rules deny (an allowed page framing it).
func (r reach) refuseFrames(tabID int, res []protocol.PageFrameResult) ([]protocol.PageFrameResult, error) {
	for i, f := range res {
		why := r.frameRefused(f.URL)
		if why == "" {
			continue
		}
		if f.FrameID == 0 {
			return nil, r.refuseTop(tabID, f.URL)
		}
		res[i] = protocol.PageFrameResult{FrameID: f.FrameID, DocumentID: f.DocumentID, URL: f.URL, Code: protocol.CodeBlockedByPolicy, Error: why}
	}
	return res, nil
}

// runPageTop runs s in one frame (the top one unless frameID is set) and
// decodes its value into out.
func (r reach) runPageTop(tabID int, frameID *int, s pageScript, args, out any) error {
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
// carry their url: a top frame the bridge may not touch (it may have got
// there after the tab was claimed: a redirect, a slow load) fails the
// action; a child frame it may not touch (a file: page framing a secret
// file, an allowed page framing a denied site) is left out, and why is
// returned by frame ID.
func (r reach) dropRefusedFrames(tabID int, res []protocol.PageFrameResult) ([]protocol.PageFrameResult, map[int]string, error) {
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
		if why := r.frameRefused(v.URL); why != "" {
			if f.FrameID == 0 {
				return nil, nil, r.refuseTop(tabID, v.URL)
			}
			dropped[f.FrameID] = why
			continue
		}
		kept = append(kept, f)
	}
	return kept, dropped, nil
}

// frameRefused says why the bridge may not read or act in a frame at u,
// as a sentence for the frame's entry, or "" when it may.
func (r reach) frameRefused(u string) string {
	if why := fileURLRefused(u); why != "" {
		return fmt.Sprintf("not read: %s shows a file the bridge may not read (%s)", u, why)
	}
	if why := r.siteRefused(u); why != "" {
		// The URL is the page's choice: quoted.
		return fmt.Sprintf("not read: the frame shows %q, which the bridge may not touch: %s", u, why)
	}
	return ""
}

// refuseTop refuses a tab whose top frame is at u, a URL the bridge may
// not read or drive (nil when it may).
func (r reach) refuseTop(tabID int, u string) error {
	if err := refuseFileURL(tabID, u); err != nil {
		return err
	}
	if why := r.siteRefused(u); why != "" {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "tab %d shows %q, which the bridge may not read or drive: %s", protocol.Tab(tabID), u, why)
	}
	return nil
}

// siteRefused says why the user's site rules refuse a page or frame at u,
// or "". Only web pages are judged here: file: URLs have the file rules,
// and the browser's own pages, the extension's and about:blank or srcdoc
// frames are Chrome's to refuse (as Guard leaves them). A blob: URL is
// judged by the page that made it, whose origin it carries.
func (r reach) siteRefused(u string) string {
	rules := r.siteRules()
	if rules == nil {
		return ""
	}
	if inner, ok := strings.CutPrefix(u, "blob:"); ok {
		u = inner
	}
	scheme, _, _ := strings.Cut(strings.ToLower(u), ":")
	if scheme != "http" && scheme != "https" {
		return ""
	}
	if dec := rules.Check(u); !dec.Allowed {
		return dec.Why
	}
	return ""
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

// domTarget locates the element of an injected DOM action (no debugger,
// so no debugging bar), once it is enabled: the locator holds it.
func (r *run) domTarget() (*locator, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	if loc.IsPoint() {
		return nil, invalid("%s needs an element locator, not a point", r.in.Action)
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	l := r.locator()
	return l, l.locateEnabled(t, loc)
}
