package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/actions"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/redact"
	"github.com/browser-bridge/browser-bridge/internal/replay"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Each workspace keeps a timeline of its actions, with a small picture
// of the tab after each action that changes or loads a page (package
// replay; docs/cli.md, "replay"). The step is noted once its result has
// been sent; a goroutine of its own records it and takes the picture, so
// the agent never waits for either. The queue between them is bounded
// and drops steps rather than block.

// replayQueue is how many steps may wait to be recorded.
const replayQueue = 64

// thumbWidth is the width of a capture kept in a timeline, in px.
const thumbWidth = 480

// captureTimeout bounds one capture.
const captureTimeout = 10 * time.Second

// A picture is taken once the agent has paused in the step's workspace:
// no call of that workspace running and none waiting to be recorded for
// settleQuiet (other workspaces' calls do not hold it up: they use other
// tabs). A step followed at once by
// another is not pictured (the later one is), and the recorder gives up
// a picture after waitQuiet of calls: a capture holds the tab's camera
// (actions' holdCamera), so one taken while the agent works would make
// its next screenshot wait, and it spends the page's time.
const (
	settleQuiet = 100 * time.Millisecond
	waitQuiet   = 3 * time.Second
)

// replayStep is a step sent and not yet recorded.
type replayStep struct {
	// key is the caller's workspace as the call names it (quietKey).
	key     string
	session string
	input   json.RawMessage
	reply   protocol.Reply
	at      time.Time
}

// recorder is the daemon's side of the timelines.
type recorder struct {
	store   *replay.Store
	steps   chan replayStep
	dropped atomic.Int64

	mu sync.Mutex
	// busy counts the calls running now, and queued the steps waiting
	// to be recorded, per workspace (quietKey).
	busy, queued map[string]int
}

func newRecorder(store *replay.Store) *recorder {
	return &recorder{store: store, steps: make(chan replayStep, replayQueue), busy: map[string]int{}, queued: map[string]int{}}
}

// quietKey is the workspace a call names: browserWorkspaceId, else its
// run, else its session. A page action by tab alone counts under its
// session's: what matters is that the same agent's next call waits for
// no capture.
func quietKey(session string, input json.RawMessage) string {
	var in struct {
		Workspace string `json:"browserWorkspaceId"`
		Run       string `json:"runId"`
	}
	json.Unmarshal(input, &in)
	switch {
	case in.Workspace != "":
		return in.Workspace
	case in.Run != "":
		return "run:" + in.Run
	}
	return session
}

// started counts a call of key's as running until done is called.
func (r *recorder) started(key string) (done func()) {
	r.add(r.busy, key, 1)
	return func() { r.add(r.busy, key, -1) }
}

// add changes m[key] by n, under the lock.
func (r *recorder) add(m map[string]int, key string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m[key] += n; m[key] <= 0 {
		delete(m, key)
	}
}

// noteStep queues a call whose reply has been sent, for its timeline; a
// full queue drops it.
func (d *Daemon) noteStep(session string, call protocol.Call, reply protocol.Reply, at time.Time) {
	key := quietKey(session, call.Input)
	d.replays.add(d.replays.queued, key, 1)
	select {
	case d.replays.steps <- replayStep{key: key, session: session, input: call.Input, reply: reply, at: at}:
	default:
		d.replays.add(d.replays.queued, key, -1)
		if n := d.replays.dropped.Add(1); n == 1 || n%100 == 0 {
			d.log.Warn("replay: steps dropped, the recorder is behind", "dropped", n)
		}
	}
}

// quiet waits until no call of key's workspace has run for settle,
// within limit; false when a newer step of it is queued (it gets the
// picture) or its calls go on.
func (r *recorder) quiet(ctx context.Context, key string, settle, limit time.Duration) bool {
	start := time.Now()
	since := start
	for {
		r.mu.Lock()
		queued, busy := r.queued[key], r.busy[key]
		r.mu.Unlock()
		if queued > 0 {
			return false
		}
		if busy > 0 {
			since = time.Now()
		}
		if time.Since(since) >= settle {
			return true
		}
		if time.Since(start) > limit {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// recordSteps records the queued steps until ctx ends; it first drops
// the timelines unused for replay.MaxAge, as the daemon starts.
func (d *Daemon) recordSteps(ctx context.Context) {
	replaySafely(d.log, "pruning the timelines", d.replays.store.Prune)
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-d.replays.steps:
			d.replays.add(d.replays.queued, s.key, -1)
			replaySafely(d.log, "recording a step", func() error { return d.recordStep(ctx, s) })
		}
	}
}

// replaySafely runs f, logging its error, and its panic: a bug in
// recording (what it records comes from pages) loses that step, never
// the daemon. (A function, not a method: Daemon has methods enough.)
func replaySafely(log *slog.Logger, what string, f func() error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("replay: "+what+" panicked; the daemon goes on", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	if err := f(); err != nil {
		log.Warn("replay: "+what, "err", err)
	}
}

// capturing says which actions change or load a page: their steps get a
// picture.
var capturing = map[string]bool{
	"open": true, "search": true, "click": true, "type": true, "press": true, "select": true, "check": true,
	"upload": true, "scroll": true, "drag": true, "fill": true, "reload": true, "back": true, "forward": true,
	"handoff": true, "evaluate": true,
}

// recordStep adds one step to its workspace's timeline.
func (d *Daemon) recordStep(ctx context.Context, s replayStep) error {
	in, _, err := tool.Parse(s.input)
	if err != nil || in.Action == "status" {
		return nil
	}
	ws := in.BrowserWorkspaceID
	if ws == "" && in.RunID != "" {
		ws = "run:" + in.RunID
	}
	var page struct {
		TabID int    `json:"tabId"`
		URL   string `json:"url"`
		Title string `json:"title"`
	}
	if s.reply.Result != nil {
		if b, err := json.Marshal(s.reply.Result); err == nil {
			json.Unmarshal(b, &page)
		}
	}
	if page.TabID == 0 && in.TabID != nil {
		page.TabID = *in.TabID
	}
	// A tab the bridge opened belongs to the workspace that opened it.
	var tabIn *tool.Input
	var owned bool
	if page.TabID != 0 {
		tabIn, owned, ws = d.replayTab(ctx, page.TabID, ws)
	}
	if ws == "" {
		ws = s.session
	}
	if in.Action == "close" && in.CloseWorkspace && s.reply.Error == nil {
		if in.KeepReplays {
			return nil
		}
		return d.replays.store.Delete(ws)
	}
	if d.replays.store.Off() {
		return nil
	}
	e := replay.Entry{Time: s.at, Session: s.session, Workspace: ws, Action: in.Action, Target: target(in),
		TabID: page.TabID, URL: redact.URL(page.URL), Title: page.Title}
	if s.reply.Error != nil {
		e.Code = s.reply.Error.Code
	}
	var shot []byte
	if owned && (capturing[in.Action] || in.Action == "extract" && in.URL != "") && d.replays.quiet(ctx, s.key, settleQuiet, waitQuiet) {
		shot = d.capture(ctx, s.session, tabIn)
	}
	_, err = d.replays.store.Append(e, shot)
	return err
}

// replayTab looks up the tab id (as the caller numbers it): the input
// of a viewport screenshot of it, whether the bridge opened it, and the
// workspace it belongs to (ws when it is not the bridge's).
func (d *Daemon) replayTab(ctx context.Context, id int, ws string) (*tool.Input, bool, string) {
	in, _, err := tool.Parse(json.RawMessage(fmt.Sprintf(`{"action":"screenshot","mode":"viewport","tabId":%d}`, id)))
	if err != nil {
		return nil, false, ws
	}
	routed, rt, err := d.route(ctx, in)
	if err != nil || rt.b == nil || routed.TabID == nil {
		return nil, false, ws
	}
	tab, ok := d.reg.For(rt.b.Info().Instance).Get(*routed.TabID)
	if !ok {
		return nil, false, ws
	}
	return in, true, tab.Workspace
}

// capture takes the picture of a step: the screenshot action's own path
// (the site rules judged now, sensitive fields masked, frames the bridge
// may not show refused), of the viewport, made small. Nil when it cannot.
// It answers no dialog (actions.RunAside): a dialog is the agent's, who
// is told of it by its next action, or the user's, and a picture that
// answered it would hide it from both.
func (d *Daemon) capture(ctx context.Context, session string, in *tool.Input) []byte {
	// Off or paused since the step: the user has stopped the bridge, and
	// a picture is the bridge touching the page too.
	if d.env.Off() != nil || settings.Paused(d.layout) != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, captureTimeout)
	defer cancel()
	routed, rt, err := d.route(ctx, in)
	if err != nil {
		return nil
	}
	res, err := actions.RunAside(ctx, d.env, rt.b, session, routed)
	if err != nil {
		d.log.Debug("replay: no capture", "tab", *in.TabID, "err", err)
		return nil
	}
	shot, ok := res.(*tool.ScreenshotResult)
	if !ok || shot.Path == "" {
		return nil
	}
	defer os.Remove(shot.Path)
	data, err := os.ReadFile(shot.Path)
	if err != nil {
		return nil
	}
	return replay.Thumbnail(data, thumbWidth)
}

// target is the step's target in a few words: never a typed value.
func target(in *tool.Input) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" "+quote(v))
		}
	}
	add("url", redact.URL(in.URL))
	add("query", in.Query)
	l := in.Locator
	add("selector", l.Selector)
	add("text", l.Text)
	if l.Role != "" {
		parts = append(parts, "role "+l.Role)
	}
	add("name", l.Name)
	add("label", l.Label)
	add("placeholder", l.Placeholder)
	add("ref", l.Ref)
	if l.X != nil && l.Y != nil {
		parts = append(parts, fmt.Sprintf("at %.0f,%.0f", *l.X, *l.Y))
	}
	add("keys", in.Keys)
	add("option", in.Option)
	if e := in.To.Edge(); e != "" {
		parts = append(parts, "to "+e)
	}
	if len(in.Fields) > 0 {
		parts = append(parts, fmt.Sprintf("%d fields", len(in.Fields)))
	}
	return strings.Join(parts, " ")
}

// quote quotes v, cut to a few words.
func quote(v string) string {
	if r := []rune(v); len(r) > 60 {
		v = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", v)
}
