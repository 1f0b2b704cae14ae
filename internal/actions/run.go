package actions

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/shots"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Browser is the extension as the engine needs it: Call, which
// browser.Verbs turns into one typed method per verb, what is connected,
// and a wait for a connection. *browser.Link is the one the daemon plugs
// in; unit tests plug in a Link with the fake browser connected
// (internal/browser/fakebrowser).
type Browser interface {
	browser.Caller
	// Info describes the connected extension (zero when none is).
	Info() browser.Info
	// WaitConnected waits up to d for an extension to connect.
	WaitConnected(ctx context.Context, d time.Duration) bool
}

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
	// Browsers, if set, lists every connected browser for status; shown
	// is the one the rest of status describes (browser.Info.Browser).
	Browsers func(shown string) []tool.Browser
	// Started is when the daemon started.
	Started time.Time
	// Screenshots is where screenshot files go.
	Screenshots *shots.Dir
	// Off says why the bridge is turned off (nil: it is on). Every action
	// but status then fails with it; status reports it.
	Off func() *protocol.Error
	// Paused says, while the user has paused the bridge, what every action
	// but status fails with (nil: not paused); status reports it.
	Paused func() *protocol.Error
	// EvaluateOff says, until the user has turned evaluate on, what the
	// evaluate action fails with (nil: it is on). Nil: always off.
	EvaluateOff func() *protocol.Error
	// Guard, if set, is asked before an action works on a tab that is
	// already open, once the bridge's own guards have let it through (see
	// guard in steps.go): action is the action's name and tab the tab as
	// it is once the action has its turn on it. An error fails the action
	// as it is, before anything is done to the page; give it a code the
	// caller can branch on (blocked_by_policy, bridge_disabled). Actions
	// that open a new tab (open without tabId or target "current") have
	// no tab to show it; for a navigation of a tab and for search's new
	// tab, tab.URL is where it goes. b is the browser the action works
	// in (several may be connected). Nil: no further guard.
	Guard func(ctx context.Context, b browser.Caller, action string, tab browser.TabInfo) error
	// SiteRules, if set, gives the user's site rules as they are now. Guard
	// judges the page an action works on; a frame inside that page (a
	// user's tab that frames a denied site) is only seen by
	// the engine, which judges every frame a page script reads or acts in,
	// and every frame a screenshot would show, by these rules: such a frame
	// is left out and named, as a frame showing a refused file: is. Read
	// once per action. Nil: frames are judged by the file rules only.
	SiteRules func() policy.Rules

	// DownloadsFolder is where the bridge moves the files its actions
	// downloaded (downloads.go); empty: they stay where the browser saved
	// them.
	DownloadsFolder string
	// DownloadCap is the largest download the bridge takes, asked at each
	// download (the settings may change); nil: the default cap.
	DownloadCap func() int64

	tabs       tabLocks       // one page action at a time per tab
	cameras    tabLocks       // one capture at a time per tab (holdCamera, camera.go)
	seen       tabsSeen       // each tab as the last action saw it
	downloads  downloadBook   // the downloads the bridge's actions started
	reads      readCache      // the latest full reads of tabs, for continued reads (reads.go)
	workspaces workspaceLocks // one open at a time per workspace (workspacelock.go)
	handoffs   Handoffs       // the tabs in the user's hands (handoffs.go)
	// reportMarks is where each tab's record stood at its last report of
	// what an action set off (report.go), per reportKey.
	reportMarks sync.Map
	// lastReads are each session's last read of each tab, for extract's
	// changes: true (changes.go).
	lastReads keptReads
	// askSwitch is the user's switch to be asked before an irreversible
	// step (SetAskBeforeIrreversible, ask.go); it may be set while
	// actions run.
	askSwitch atomic.Pointer[func() bool]
}

// run is one action being carried out.
type run struct {
	reach   // ctx, b (the extension's verbs, over browser), siteRules, progress
	env     *Env
	in      *tool.Input
	browser Browser // the browser the call works in (env.Browser unless pinned)
	session string
	// dialogs are the dialogs the bridge answered during the action
	// (answerer, dialogs.go).
	dialogs dialogBook
	// aside: the call is not the agent's (RunAside) and answers no dialog.
	aside bool
	// unlockTab releases the tab the action holds (see takeTurn).
	unlockTab func()
	// instance is the extension instance connected when the action
	// started (see reg).
	instance string
	// mark is the token its locates note the page under, to say what
	// the action changed (pagechange.go).
	mark *pageMark
}

// Run carries out in for the caller's session ("session:<id>"). progress,
// if not nil, receives a sentence whenever the action waits on something
// (a load, a condition, the extension); callers show it to people or pass
// it on as MCP progress.
func Run(ctx context.Context, env *Env, session string, in *tool.Input, progress func(string)) (any, error) {
	return RunOn(ctx, env, env.Browser, session, in, progress)
}

// RunOn is Run in browser b (a Link pinned to one of the connected
// browsers) rather than env.Browser: the tab IDs of in and of the result
// are b's own.
func RunOn(ctx context.Context, env *Env, b Browser, session string, in *tool.Input, progress func(string)) (any, error) {
	return runOn(newRun(ctx, env, b, session, in, progress))
}

// RunAside is RunOn for a call the agent did not make (the replay's
// picture of a step): it answers no dialog. A dialog open on the tab, or
// one that holds its page meanwhile, is left as it is — for the agent's
// next action, which answers and reports it, or for the user — and the
// call fails with blocked_by_policy.
//
// Only an action that reads the page may run aside: an input action that
// a dialog interrupts could not finish without answering it (a click
// would leave the mouse button down).
func RunAside(ctx context.Context, env *Env, b Browser, session string, in *tool.Input) (any, error) {
	r := newRun(ctx, env, b, session, in, nil)
	if r.spec().Kind != tool.KindRead {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "%s changes the page and cannot run aside from the agent's calls", in.Action)
	}
	r.aside = true
	return runOn(r)
}

// runOn carries out the run's input.
func runOn(r *run) (any, error) {
	in := r.in
	defer func() {
		if r.unlockTab != nil {
			r.unlockTab()
		}
	}()
	started := time.Now()
	rep := startReport(r) // what the action set off (report.go)
	res, err := handlers[in.Action](r)
	if err != nil {
		return nil, err
	}
	// What every page action reports goes into the result's Outcome.
	if o, ok := res.(tool.Outcomer); ok {
		out := o.Out()
		out.Events = rep.finish(res)
		if p, ok := res.(tool.Paged); ok && r.spec().StartsDownloads {
			out.Downloads = r.reportDownloads(*p.PageOf(), started) // downloads.go
		}
		out.Warnings = append(out.Warnings, r.answerer().dialogWarnings()...)
	}
	return res, nil
}

// newRun starts carrying out in; progress may be nil.
func newRun(ctx context.Context, env *Env, b Browser, session string, in *tool.Input, progress func(string)) *run {
	if progress == nil {
		progress = func(string) {}
	}
	if b == nil {
		b = env.Browser
	}
	r := &run{env: env, in: in, browser: b, session: session, instance: b.Info().Instance}
	r.mark = newPageMark(r.spec().ChangesPage)
	r.reach = reach{ctx: ctx, b: browser.Verbs{Caller: b}, progress: progress, answers: r.answerer,
		siteRules: sync.OnceValue(func() *policy.Rules {
			if env.SiteRules == nil {
				return nil
			}
			rules := env.SiteRules()
			return &rules
		})}
	return r
}

// sub is a run of another action's steps within r (fill sets each field
// through type, select or check): in is that action's input. The turn on
// the tab that r holds is handed on; the caller takes it back (Run lets
// go of it when the whole call ends).
func (r *run) sub(in *tool.Input) *run {
	s := newRun(r.ctx, r.env, r.browser, r.session, in, r.progress)
	s.instance, s.unlockTab = r.instance, r.unlockTab
	return s
}

// reg is the registry of the extension instance this call talks to.
// While the extension reconnects (the host died, say) no instance is
// connected for a moment: the call keeps to the one it started with
// rather than book its tabs under no browser at all.
func (r *run) reg() *registry.Registry {
	inst := r.browser.Info().Instance
	if inst == "" {
		inst = r.instance
	}
	return r.env.Registries.For(inst)
}

// workspaceID resolves the workspace of the call
// (docs/design.md#workspaces): an explicit
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
func (r reach) loadWait() int {
	d := 30 * time.Second
	if dl, ok := r.ctx.Deadline(); ok {
		d = min(d, time.Until(dl)-500*time.Millisecond)
	}
	return max(int(d/time.Millisecond), 1)
}

// browserInstance is the extension instance the call talks to (see reg).
func (r *run) browserInstance() string {
	if inst := r.browser.Info().Instance; inst != "" {
		return inst
	}
	return r.instance
}

// The steps of a run, one concern each. Each is a type that holds what it
// needs and no more: the page as every step reaches it (reach.go), the
// input's fields it reads, the books of Env it writes, and, where it
// composes another step, that step's constructor. The run builds a step
// when a handler asks for it, from the call as it is then; the guards
// return the tab they let through, and a locator keeps the element it
// found for the act and the observe (a turn on the tab is taken by the
// guards and let go of by Run). A handler reads as the chain of steps:
//
//	t, err := r.guards().pageTarget()
//	l := r.locator()
//	err = l.locateForInput(t, loc)
//	err = l.click("left", 1)
//	return r.observer().observeLocated(l)

// answerer answers the dialogs of the run's tabs (dialogs.go).
func (r *run) answerer() answerer {
	return answerer{ctx: r.ctx, b: r.b, choice: r.in.Dialog, book: &r.dialogs, leave: r.aside,
		owned: func(tabID int) bool { return r.reg().IsOwned(tabID) }}
}

// observer reads the tab after an act: the result of a page action, and
// the tab as the last action saw it (steps.go, seen.go).
type observer struct {
	reach
	// opensTabs is the action's spec's OpensTabs: the tabs its page
	// opened are adopted and reported.
	opensTabs bool
	reg       func() *registry.Registry // the registry that adopts them
	seen      *tabsSeen                 // Env's, where saw notes the tab
	instance  func() string             // the connected extension's, keying seen
	mark      *pageMark                 // the run's: what its locates noted the page under
}

func (r *run) observer() observer {
	return observer{reach: r.reach, opensTabs: r.spec().OpensTabs, reg: r.reg, seen: &r.env.seen,
		instance: func() string { return r.browser.Info().Instance }, mark: r.mark}
}

// locator finds the element of a locator, waits until input would reach
// it, and measures where (locate.go, actionable.go, geometry.go). A
// locate step keeps what it found, for the act and the observe after it
// (steps.go): each locate is a locator of its own.
type locator struct {
	reach
	timeoutMs int    // the input's: 0 bounds the wait by actionWait
	action    string // the action's name: some prefer a clickable match
	// actor moves onto what was found, checked in one batch.
	actor func() actor
	mark  *pageMark // the run's: the page is noted under it (pagechange.go)
	found
}

func (r *run) locator() *locator {
	return &locator{reach: r.reach, timeoutMs: r.in.TimeoutMs, action: r.in.Action, actor: r.actor, mark: r.mark}
}

// found is what a locate step found, which the locator keeps for the
// steps after it: the act on the element and the observe.
type found struct {
	tab browser.TabInfo // the tab the element was looked for in
	// el is the element, with what the waits for it took (el.waited);
	// after an act through trusted input, as that act left it.
	el Element
	// named says that the result names el: not when the locator was a
	// point, for a click or a hover, since nothing was located then.
	named    bool
	warnings []string // so far: the locator matched several elements
}

// actor acts on what the locator found: a page script on the element
// (act.js), or trusted input in one batch, checked just before the press
// (input_actions.go, click.go, press.go).
type actor struct {
	reach
	// locator measures again before a press, or finds what keys go to.
	locator func() *locator
}

func (r *run) actor() actor { return actor{reach: r.reach, locator: r.locator} }

// settling waits for a page to load, to be quiet, to react to input, or
// for a condition (readiness.go, react.go).
type settling struct {
	reach
	info    func() browser.Info // the connected extension's, to register quiet.js once per connection
	locator func() *locator     // finds the element a condition waits for
}

func (r *run) settling() settling {
	return settling{reach: r.reach, info: r.browser.Info, locator: r.locator}
}

// opening opens pages: a tab of the workspace, or a navigation (open.go,
// navigation.go).
type opening struct {
	reach
	// What the input asks for: the URL, a window of which kind, whether
	// the workspace is one the caller named, a reload that skips the
	// cache.
	url         string
	incognito   *bool
	named       bool
	bypassCache bool
	workspace   string // the call's (run.workspaceID)
	session     string // the caller's, who opened the tab
	reg         func() *registry.Registry
	workspaces  *workspaceLocks // Env's: one open at a time per workspace
	asks        func() bool     // whether the user asks before irreversible steps
	guards      func() guards
	observer    func() observer
}

func (r *run) opening() opening {
	return opening{reach: r.reach, url: r.in.URL, incognito: r.in.Incognito,
		named: r.in.BrowserWorkspaceID != "" || r.in.RunID != "", bypassCache: r.in.BypassCache,
		workspace: r.workspaceID(), session: r.session, reg: r.reg, workspaces: &r.env.workspaces,
		asks: r.env.asksBeforeIrreversible, guards: r.guards, observer: r.observer}
}

// typing is type's way into a field: at once, in one trip, or focused,
// then inserted (type.go). It holds the input's text and how to type it,
// and the steps it composes.
type typing struct {
	value     string
	clear     bool   // replace the field's content
	inputMode string // cdp, dom or paste; "" chooses
	guards    func() guards
	locator   func() *locator
	actor     func() actor
	settling  func() settling
	observer  func() observer
}

func (r *run) typing() typing {
	return typing{value: r.in.Value, clear: r.in.Clear, inputMode: r.in.InputMode,
		guards: r.guards, locator: r.locator, actor: r.actor, settling: r.settling, observer: r.observer}
}

// guards pick the tab an action works on and let it through, or not: the
// turn on the tab, whose it is, the page it shows, the site rules, and
// asking the user before what cannot be undone (steps.go, ownership.go,
// ask.go).
type guards struct {
	reach
	// What the input names: the action, its tab, the URL it goes to, the
	// keys it presses, the button and input mode of a click, the
	// workspace it named.
	action         string
	tabID          *int
	url            string
	keys           string
	button         string
	inputMode      string
	namedWorkspace string
	workspace      string // the call's (run.workspaceID)
	session        string // the caller's
	instance       string // the extension instance the call started with
	changesPage    bool   // the action's spec's ChangesPage: it takes a turn on the tab
	browser        Browser
	reg            func() *registry.Registry
	browserState   func() (*browser.State, error)
	tabs           *tabLocks // Env's: one page action at a time per tab
	// unlockTab is the run's: takeTurn sets it, Run lets go of the turn.
	unlockTab *func()
	handoffs  *Handoffs   // Env's: the question shows as the tab's hand-off
	asks      func() bool // whether the user asks before irreversible steps
	// envGuard is Env.Guard.
	envGuard func(ctx context.Context, b browser.Caller, action string, tab browser.TabInfo) error
	locator  func() *locator
	observer func() observer
}

func (r *run) guards() guards {
	return guards{reach: r.reach, action: r.in.Action, tabID: r.in.TabID, url: r.in.URL, keys: r.in.Keys,
		button: r.in.Button, inputMode: r.in.InputMode, namedWorkspace: r.in.BrowserWorkspaceID,
		workspace: r.workspaceID(), session: r.session, instance: r.instance, changesPage: r.spec().ChangesPage,
		browser: r.browser, reg: r.reg, browserState: r.browserState, tabs: &r.env.tabs, unlockTab: &r.unlockTab,
		handoffs: r.env.Handoffs(), asks: r.env.asksBeforeIrreversible, envGuard: r.env.Guard,
		locator: r.locator, observer: r.observer}
}
