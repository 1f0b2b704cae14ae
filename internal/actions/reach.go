package actions

import (
	"context"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/policy"
)

// reach is the page as every step reaches it: the call's context (and so
// its deadline), the extension's verbs, the user's site rules that judge
// every frame a script reads, the answerer of the dialogs a verb runs
// into, and where waits say what they wait for. A run holds one; each step
// holds a copy of it instead of the whole run, and its methods (page.go,
// readiness.go, reads.go, geometry.go, locate.go, handoffs.go, run.go)
// are what a step may do to the page without knowing the action.
type reach struct {
	ctx context.Context
	b   browser.Verbs // the extension's verbs, over the call's browser
	// siteRules are the user's site rules for the whole action
	// (Env.SiteRules, read once; nil without them).
	siteRules func() *policy.Rules
	progress  func(string)
	// answers is the run's dialog answerer (dialogs.go), built when asked:
	// its choice is the input's as it is at the time.
	answers func() answerer
}
