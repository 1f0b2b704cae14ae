package actions

import (
	"context"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"sort"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// handoff hands a tab to the user and takes it back (SPEC §2): for a
// sign-in, a CAPTCHA, a second factor — what the agent must not or
// cannot do. The extension brings the tab's window forward (the one
// action that takes the user's focus), shows the message in an overlay
// on the page — an extension frame the page cannot read or click — and on
// the extension's own page, and answers when the user presses Done or
// Cancel, or the wait runs out. The result is the outcome and the tab as
// it is then; nothing the user typed meanwhile is recorded or returned.
//
// While the tab is handed off, every other action on it fails with
// handoff_in_progress: Handoffs is that set, and Env.Guard asks it
// (Handoffs.Guard). The extension refuses the bridge's input and page
// scripts on the tab too, so that no door — the daemon's actions nor a
// program's cdp — can press Done for the user: only a trusted click in the
// extension's frame counts.
func init() { register("handoff", handoff) }

// handoffProgressEvery is how often a waiting hand-off tells the caller
// it is still waiting (MCP clients reset their timeouts on progress).
const handoffProgressEvery = 5 * time.Second

func handoff(r *run) (*tool.HandoffResult, error) {
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	end, err := r.env.Handoffs().begin(Handoff{TabID: t.TabID, Message: r.in.Message, Session: r.session, Instance: r.instance})
	if err != nil {
		return nil, err
	}
	defer end()
	// The user gets all of timeoutMs: the call's deadline has
	// tool.HandoffWrapup beyond it for the answer to come back, of which
	// the steps so far (guards, the turn) may have used a little. Should
	// the context end sooner than that, the answer's time (half the
	// wrap-up) comes out of what is left.
	spec, _ := tool.Lookup("handoff")
	wait := spec.TimeFor(r.in.TimeoutMs)
	if dl, ok := r.ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl)-spec.Wrapup/2)
	}
	if wait < time.Second {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "timeoutMs leaves the user no time to act; give the hand-off at least a few seconds (up to 600000)")
	}
	stop := r.keepTelling("waiting for the user: "+r.in.Message, handoffProgressEvery)
	defer stop()
	out, err := browser.Verbs{Caller: r.browser}.HandoffShow(r.ctx, protocol.HandoffShowParams{
		TabID: t.TabID, Message: r.in.Message, TimeoutMs: int(wait / time.Millisecond),
	})
	if err != nil {
		return nil, err
	}
	return &tool.HandoffResult{Outcome: out.Outcome, Page: tool.Page{TabID: out.TabID, URL: out.URL, Title: out.Title}}, nil
}

// keepTelling sends msg as progress now and every interval until stop.
func (r *run) keepTelling(msg string, every time.Duration) (stop func()) {
	r.progress(msg)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-r.ctx.Done():
				return
			case <-tick.C:
				r.progress(msg)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait() // no progress after the result
	}
}

// Handoffs is the set of tabs handed to the user. It is safe for
// concurrent use; the zero value is ready.
//
// Tabs are named by their browser's extension instance and Chrome's ID:
// tab IDs are only unique within one browser, and several may be
// connected.
type Handoffs struct {
	mu   sync.Mutex
	tabs map[tabKey]Handoff
}

// Handoff is one tab in the user's hands.
type Handoff struct {
	TabID   int       `json:"tabId"`
	Message string    `json:"message"`
	Session string    `json:"session"`
	Since   time.Time `json:"since"`
	// Kind is "" for a hand-off, "ask" for a question the user is asked
	// before an irreversible step (ask.go).
	Kind string `json:"kind,omitempty"`
	// Instance is the extension instance of the tab's browser.
	Instance string `json:"-"`
}

// Begin marks tabID as handed off; end() takes it back. A tab already
// handed off is handoff_in_progress.
func (h *Handoffs) Begin(tabID int, message, session string) (end func(), err error) {
	return h.BeginIn("", tabID, message, session)
}

// BeginIn is Begin for tabID of the browser of extension instance inst.
func (h *Handoffs) BeginIn(inst string, tabID int, message, session string) (end func(), err error) {
	return h.begin(Handoff{TabID: tabID, Message: message, Session: session, Instance: inst})
}

func (h *Handoffs) begin(o Handoff) (end func(), err error) {
	k := tabKey{o.Instance, o.TabID}
	h.mu.Lock()
	defer h.mu.Unlock()
	if o, ok := h.tabs[k]; ok {
		return nil, o.busy("handoff")
	}
	if h.tabs == nil {
		h.tabs = map[tabKey]Handoff{}
	}
	o.Since = time.Now()
	h.tabs[k] = o
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.tabs, k)
			h.mu.Unlock()
		})
	}, nil
}

// CheckIn fails with handoff_in_progress while tabID of the browser of
// extension instance inst is handed off.
func (h *Handoffs) CheckIn(inst, action string, tabID int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if o, ok := h.tabs[tabKey{inst, tabID}]; ok {
		return o.busy(action)
	}
	return nil
}

// Guard is CheckIn in the shape of Env.Guard: env.Guard =
// env.Handoffs().Guard (or called from the daemon's own guard).
func (h *Handoffs) Guard(_ context.Context, b browser.Caller, action string, tab browser.TabInfo) error {
	return h.CheckIn(instanceOf(b), action, tab.TabID)
}

// instanceOf is the extension instance of the browser b talks to ("" when
// b does not say).
func instanceOf(b browser.Caller) string {
	if i, ok := b.(interface{ Info() browser.Info }); ok {
		return i.Info().Instance
	}
	return ""
}

// List returns the tabs handed off now, oldest first.
func (h *Handoffs) List() []Handoff {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Handoff, 0, len(h.tabs))
	for _, o := range h.tabs {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

func (o Handoff) busy(action string) error {
	if o.Kind == handoffAsk {
		return protocol.Errorf(protocol.CodeHandoffInProgress,
			"%s of tab %d is refused: the user is being asked (%s ago): %q; wait for the call that asked to return — only the user answers — then try again",
			action, protocol.Tab(o.TabID), time.Since(o.Since).Round(time.Second), o.Message)
	}
	return protocol.Errorf(protocol.CodeHandoffInProgress,
		"%s of tab %d is refused: the tab is in the user's hands (handoff %q, %s ago); wait for that handoff call to return — only the user presses Done or Cancel — then try again",
		action, protocol.Tab(o.TabID), o.Message, time.Since(o.Since).Round(time.Second))
}

// handoffSets holds each Env's Handoffs. Env's fields are run.go's; this
// side table keeps the hand-off's state in this file until Env has a
// field for it.
var handoffSets sync.Map // *Env → *Handoffs

// Handoffs is the set of tabs handed to the user by this Env's actions.
func (e *Env) Handoffs() *Handoffs {
	v, _ := handoffSets.LoadOrStore(e, &Handoffs{})
	return v.(*Handoffs)
}
