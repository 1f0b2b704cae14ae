package actions

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("evaluate", evaluate) }

// maxExpression bounds an expression (extension/handlers/evaluate.js
// refuses longer ones too): a debugging probe, not a program.
const maxExpression = 100_000

// evaluate runs the agent's expression in the page's own context
// (SPEC §2b), once the user has turned it on: off, it fails with
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
	var out protocol.PageEvaluateResult
	err = r.answerer().unheld(t.TabID, func() (err error) {
		out, err = r.b.PageEvaluate(r.ctx, protocol.PageEvaluateParams{TabID: t.TabID, FrameID: r.in.FrameID, Expression: expr, MaxChars: maxChars})
		return err
	})
	if err != nil {
		return nil, err
	}
	if out.FrameID == 0 {
		err = refuseFileURL(t.TabID, out.URL)
	} else if why := fileURLRefused(out.URL); why != "" {
		err = protocol.Errorf(protocol.CodeBlockedByPolicy, "frame %d shows %s, which the bridge may not read: %s", out.FrameID, out.URL, why)
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
