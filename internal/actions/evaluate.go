package actions

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("evaluate", evaluate) }

// maxExpression bounds an expression (extension/handlers/evaluate.js
// refuses longer ones too): a debugging probe, not a program.
const maxExpression = 100_000

// evaluate runs the agent's expression in the page's own context
// (docs/controls.md), once the user has turned it on: off, it fails with
// evaluate_disabled before it looks at any tab. The tab goes through the
// same guards as any page action (its turn, the site rules, a hand-off);
// the daemon's audit trail records the expression as the call's
// parameter. A throw, a rejection or a syntax error is
// evaluation_failed with the engine's message.
func evaluate(r *run) (*tool.EvaluateResult, error) {
	if r.env.EvaluateOff == nil {
		return nil, protocol.Errorf(protocol.CodeEvaluateDisabled, "evaluate is not available in this bridge")
	}
	if off := r.env.EvaluateOff(); off != nil {
		return nil, off
	}
	expr := r.in.Expression
	if strings.TrimSpace(expr) == "" {
		return nil, invalid("expression is empty; give the JavaScript to evaluate, e.g. document.title")
	}
	if n := utf8.RuneCountInString(expr); n > maxExpression {
		return nil, invalid("expression has %d characters; at most %d", n, maxExpression)
	}
	maxChars, _, err := r.in.Budget()
	if err != nil {
		return nil, err
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	frames, err := r.tabFrames(t.TabID)
	if err != nil {
		return nil, err
	}
	reach := frameTree{siteRefused: r.siteRefused, byID: map[int]protocol.Frame{}}
	if err := reach.evaluable(t.TabID, frames, r.in.FrameID, r.siteRules()); err != nil {
		return nil, err
	}
	var out protocol.PageEvaluateResult
	err = r.answerer().unheld(t.TabID, func() (err error) {
		out, err = r.b.PageEvaluate(r.ctx, protocol.PageEvaluateParams{TabID: t.TabID, FrameID: r.in.FrameID, Expression: expr, MaxChars: maxChars})
		return err
	})
	if err != nil {
		return nil, err
	}
	// The page the expression ran in, judged again: a frame may have
	// navigated since evaluable looked.
	if out.FrameID == 0 {
		err = r.refuseTop(t.TabID, out.URL)
	} else if why := r.frameRefused(out.URL); why != "" {
		err = protocol.Errorf(protocol.CodeBlockedByPolicy, "frame %d: %s", out.FrameID, why)
	}
	if err != nil {
		return nil, err
	}
	if out.Error != "" {
		return nil, protocol.Errorf(protocol.CodeEvaluationFailed, "the expression failed in the page: %s", out.Error)
	}
	res, err := r.observer().observe(t, nil, inputWait{})
	if err != nil {
		return nil, err
	}
	ev := &tool.EvaluateResult{Page: res.Page, FrameID: out.FrameID, Type: out.Type, TotalChars: out.Total, Outcome: res.Outcome}
	switch value := cutRunes(out.JSON, maxChars); {
	case out.Type == "undefined":
	case out.Total <= maxChars && json.Valid([]byte(out.JSON)):
		ev.Value = json.RawMessage(out.JSON)
	default:
		// Cut (in the page, and here again: the page's own code ran),
		// it is no JSON any more: it comes back as text.
		ev.ValueCut = value
	}
	return ev, nil
}

// cutRunes is s cut to at most n characters.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// evaluable refuses evaluate where its expression could read what the
// rules keep from the bridge. extract and find leave a refused frame out
// of what they read; an expression is the page's own script and reaches
// further, so it is refused, before it runs:
//   - in a frame the bridge may not touch, or in any frame inside one (an
//     about:blank or srcdoc frame it filled holds its content);
//   - in a frame of the same origin as a refused frame of the tab, whose
//     document it can open through window.frames;
//   - in a frame whose origin the rules refuse in part (a path rule such
//     as example.com/admin/*, or an allow list of some of its paths): a
//     script of that origin fetches the refused part with the user's
//     cookies, and no rule of the bridge's stands between them.
func (fs frameTree) evaluable(tabID int, list []protocol.Frame, frameID *int, rules *policy.Rules) error {
	id := 0
	if frameID != nil {
		id = *frameID
	}
	for _, f := range list {
		fs.byID[f.FrameID] = f
	}
	if _, ok := fs.byID[id]; !ok {
		return nil // gone or never there: the extension says which
	}
	if why := fs.refused(id, 0); why != "" {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "frame %d of tab %d may not be touched: %s; evaluate runs nothing there (extract reads the rest of the page)", id, protocol.Tab(tabID), why)
	}
	origin := fs.origin(id, 0)
	if origin == "" {
		return nil
	}
	for other := range fs.byID {
		if why := fs.refused(other, 0); why != "" && fs.origin(other, 0) == origin {
			return protocol.Errorf(protocol.CodeBlockedByPolicy, "frame %d of tab %d is of the same origin (%s) as frame %d, which the bridge may not touch (%s), and a script of one opens the other's document; evaluate runs nothing there (extract reads the rest of the page)", id, protocol.Tab(tabID), origin, other, why)
		}
	}
	if why := partlyRefused(rules, origin); why != "" {
		return protocol.Errorf(protocol.CodeBlockedByPolicy, "part of %s is off limits (%s), and a script of that origin can fetch it with the user's cookies; evaluate runs nothing in its pages (extract, find and the other actions still work there)", origin, why)
	}
	return nil
}

// maxFrameDepth bounds the walks up a tab's frame tree (a tree the
// extension reported, so a cycle in it is a bug, not a hang).
const maxFrameDepth = 64

// frameTree is a tab's frames by ID, judged with the run's rules
// (siteRefused is run's).
type frameTree struct {
	siteRefused func(u string) string
	byID        map[int]protocol.Frame
}

// refused says why the bridge may not touch frame id — its own page, or a
// frame it is inside — or "".
func (fs frameTree) refused(id, depth int) string {
	f, ok := fs.byID[id]
	if !ok || depth > maxFrameDepth {
		return ""
	}
	if why := fileURLRefused(f.URL); why != "" {
		return fmt.Sprintf("it shows %s, a file the bridge may not read (%s)", f.URL, why)
	}
	if why := fs.siteRefused(f.URL); why != "" {
		return fmt.Sprintf("it shows %q, %s", f.URL, why) // the URL is the page's choice: quoted
	}
	if id == 0 || f.ParentFrameID == id {
		return ""
	}
	if why := fs.refused(f.ParentFrameID, depth+1); why != "" {
		return fmt.Sprintf("it is inside frame %d: %s", f.ParentFrameID, why)
	}
	return ""
}

// origin is the origin of frame id's document as scripts see it
// (scheme://host:port), "" for an opaque one. An about:blank or srcdoc
// frame has its parent's.
func (fs frameTree) origin(id, depth int) string {
	f, ok := fs.byID[id]
	if !ok || depth > maxFrameDepth {
		return ""
	}
	u := strings.TrimPrefix(f.URL, "blob:")
	if u == "" || strings.HasPrefix(u, "about:") {
		if id == 0 || f.ParentFrameID == id {
			return ""
		}
		return fs.origin(f.ParentFrameID, depth+1)
	}
	return originOf(u)
}

// originOf is the origin of an http(s) URL, "" for any other.
func originOf(raw string) string {
	p, err := url.Parse(raw)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return strings.ToLower(p.Scheme + "://" + p.Host)
}

// partlyRefused says why the rules refuse some address of origin, one of
// whose pages they allow (a deny rule for a path of the site, an allow
// list that names only some of its paths), or "". It tries the origin's
// root, another path, and the path of each deny rule, its wildcards
// filled in.
func partlyRefused(rules *policy.Rules, origin string) string {
	if rules == nil {
		return ""
	}
	tries := []string{origin + "/", origin + "/x"}
	for _, p := range rules.Deny {
		rest := p
		if _, after, ok := strings.Cut(rest, "://"); ok {
			rest = after
		}
		if _, path, ok := strings.Cut(rest, "/"); ok {
			tries = append(tries, origin+"/"+strings.ReplaceAll(path, "*", "x"))
		}
	}
	for _, u := range tries {
		if d := rules.Check(u); !d.Allowed {
			return d.Why
		}
	}
	return ""
}
