// The hand-offs: the tabs in the user's hands (a handoff, or a question
// asked before an irreversible step), which every other action on them is
// refused while they are.

package actions

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// handoffProgressEvery is how often a waiting hand-off tells the caller
// it is still waiting (MCP clients reset their timeouts on progress).
const handoffProgressEvery = 5 * time.Second

// keepTelling sends msg as progress now and every interval until stop.
func (r reach) keepTelling(msg string, every time.Duration) (stop func()) {
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

// Handoffs is the set of tabs handed to the user by this Env's actions.
func (e *Env) Handoffs() *Handoffs { return &e.handoffs }

// handoffAsk is the Kind of a Handoffs entry that is a question.
const handoffAsk = "ask"
