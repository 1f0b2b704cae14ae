package actions

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/shots"
)

// Browser sends one primitive to the extension and decodes its result;
// *browser.Link is the one the daemon plugs in.
type Browser interface {
	Call(ctx context.Context, verb string, params, out any) error
	// Info describes the connected extension (zero when none is).
	Info() ExtensionInfo
	// WaitConnected waits up to d for an extension to connect.
	WaitConnected(ctx context.Context, d time.Duration) bool
}

// ExtensionInfo describes the extension on the other end.
type ExtensionInfo = browser.Info

// Env is what actions run against; the daemon builds one.
type Env struct {
	Browser Browser
	// Registries holds what the bridge opened, per extension instance.
	Registries *registry.Set
	// Diagnostics describes the chain for status when no extension is
	// connected.
	Diagnostics func() any
	// Daemon describes the daemon itself (pid, version, uptime).
	Daemon func() any
	// Started is when the daemon started.
	Started time.Time
	// Screenshots is where screenshot files go.
	Screenshots *shots.Dir
	// Off says why the bridge is turned off (nil: it is on). Every action
	// but status then fails with it; status reports it.
	Off func() *protocol.Error

	tabs tabLocks // one page action at a time per tab
}

// run is one action being carried out.
type run struct {
	ctx      context.Context
	env      *Env
	in       *Input
	session  string
	progress func(string)
	// dialogs are the dialogs the bridge answered during the action, and
	// dialogsReported how many of them the result already reports; both
	// under dialogMu (a dialog probe runs beside the call it watches).
	dialogMu        sync.Mutex
	dialogs         []Dialog
	dialogsReported int
	// answering serialises the answering of dialogs within the call.
	answering sync.Mutex
	// unlockTab releases the tab the action holds (see pageTarget).
	unlockTab func()
}

// Run carries out in for the caller's session ("session:<id>"). progress,
// if not nil, receives a sentence whenever the action waits on something
// (a load, a condition, the extension); callers show it to people or pass
// it on as MCP progress.
func Run(ctx context.Context, env *Env, session string, in *Input, progress func(string)) (any, error) {
	if progress == nil {
		progress = func(string) {}
	}
	r := &run{ctx: ctx, env: env, in: in, session: session, progress: progress}
	defer func() {
		if r.unlockTab != nil {
			r.unlockTab()
		}
	}()
	res, err := handlers[in.Action](r)
	if err != nil {
		return res, err
	}
	if w := r.dialogWarnings(); len(w) > 0 {
		return withWarnings(res, w)
	}
	return res, nil
}

// withWarnings adds warnings to a result that has not said them (a dialog
// answered while reading a page, say): the result becomes its JSON object
// with the warnings appended.
func withWarnings(res any, warnings []string) (any, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return res, nil // not an object: leave it
	}
	old, _ := m["warnings"].([]any)
	for _, w := range warnings {
		old = append(old, w)
	}
	m["warnings"] = old
	return m, nil
}

// reg is the registry of the extension instance this call talks to.
func (r *run) reg() *registry.Registry {
	return r.env.Registries.For(r.env.Browser.Info().Instance)
}

// call is a shorthand for a primitive on the extension.
func (r *run) call(verb string, params, out any) error {
	return r.env.Browser.Call(r.ctx, verb, params, out)
}

// workspaceID resolves the workspace of the call (SPEC §3): an explicit
// browserWorkspaceId, else run:<runId>, else the caller's session.
func (r *run) workspaceID() string {
	switch {
	case r.in.BrowserWorkspaceID != "":
		return r.in.BrowserWorkspaceID
	case r.in.RunID != "":
		return "run:" + r.in.RunID
	}
	return r.session
}

// loadWait is how long to wait for a page load within the call's deadline,
// leaving a moment to answer.
func (r *run) loadWait() int {
	d := 30 * time.Second
	if dl, ok := r.ctx.Deadline(); ok {
		d = min(d, time.Until(dl)-500*time.Millisecond)
	}
	return max(int(d/time.Millisecond), 1)
}
