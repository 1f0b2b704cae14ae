package actions

import (
	"time"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("wait", wait) }

// waitMargin is kept from the call's deadline so that a wait that runs
// out answers with its own timeout error, naming the condition, rather
// than the generic deadline error: the spec's wrap-up, which the call's
// deadline has beyond timeoutMs.
const waitMargin = tool.WaitWrapup

// wait waits for one condition: load, a locator, or urlContains,
// until timeoutMs (or the default deadline) runs out.
func wait(r *run) (*tool.WaitResult, error) {
	loc, hasLoc := r.in.Locator, r.in.Locator.Present()
	n := 0
	var c condition
	if r.in.Load {
		n++
		c.load = true
	}
	if r.in.URLContains != "" {
		n++
		c.urlContains = r.in.URLContains
	}
	if hasLoc {
		n++
		c.loc = &loc
	}
	if n != 1 {
		return nil, invalid("wait takes exactly one condition: load: true, a locator (selector, text, role + name, label, placeholder, ref), or urlContains")
	}
	if loc.X != nil {
		return nil, invalid("wait cannot wait for a point; use selector, text, role, label, placeholder or ref")
	}
	tab, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	w, err := r.settling().waitFor(tab.TabID, c, r.until(waitMargin))
	if err != nil {
		return nil, err
	}
	return &tool.WaitResult{Page: pageOf(w.Tab), Waited: c.describe(),
		WaitedMs: time.Since(start).Milliseconds(), Element: resultElement(w.Element)}, nil
}
