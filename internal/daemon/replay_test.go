package daemon

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/replay"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// A step's target names what the action worked on in a few words, and
// never what was typed.
func TestReplayTarget(t *testing.T) {
	// want "" checks only that never is left out.
	for _, c := range []struct{ in, want, never string }{
		{`{"action":"type","tabId":3,"label":"Password","value":"hunter2"}`, `label "Password"`, "hunter2"},
		{`{"action":"open","url":"https://example.com/cb?access_token=abc123"}`, "", "abc123"},
		{`{"action":"click","tabId":3,"role":"button","name":"Send"}`, `role button name "Send"`, ""},
		{`{"action":"press","tabId":3,"keys":"Enter"}`, `keys "Enter"`, ""},
		{`{"action":"scroll","tabId":3,"to":"bottom"}`, `to bottom`, ""},
		{`{"action":"search","query":"` + strings.Repeat("x", 100) + `"}`, `query "` + strings.Repeat("x", 57) + `..."`, ""},
	} {
		in, _, err := tool.Parse(json.RawMessage(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		got := target(in)
		if c.want != "" && got != c.want {
			t.Errorf("%s: target %s, want %s", c.in, got, c.want)
		}
		if c.never != "" && strings.Contains(got, c.never) {
			t.Errorf("%s: the target keeps %q: %s", c.in, c.never, got)
		}
	}
}

// A full queue drops the step at once: the caller, whose reply is
// already out, never waits for the recorder.
func TestNoteStepDropsRatherThanBlocks(t *testing.T) {
	d := &Daemon{log: slog.New(slog.DiscardHandler), replays: newRecorder(replay.NewIn(t.TempDir()))}
	call := protocol.Call{ID: "1", Input: json.RawMessage(`{"action":"open","url":"about:blank"}`)}
	done := make(chan struct{})
	go func() {
		for i := 0; i < replayQueue+5; i++ {
			d.noteStep("session:t", call, protocol.Reply{ID: "1"}, time.Now())
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("noteStep blocked on a full queue")
	}
	if n := d.replays.dropped.Load(); n != 5 {
		t.Errorf("dropped %d steps, want 5", n)
	}
}

// The pause a picture waits for is its own workspace's: another
// workspace's calls, running or queued, do not hold it up, its own do.
func TestQuietIsPerWorkspace(t *testing.T) {
	r := newRecorder(replay.NewIn(t.TempDir()))
	ctx := context.Background()
	done := r.started(quietKey("session:b", json.RawMessage(`{"action":"click","browserWorkspaceId":"b"}`)))
	r.add(r.queued, "run:c", 1)
	if !r.quiet(ctx, "a", 20*time.Millisecond, time.Second) {
		t.Error("workspace a waited for b's running call or c's queued step")
	}
	if r.quiet(ctx, "b", 20*time.Millisecond, 200*time.Millisecond) {
		t.Error("workspace b was quiet while its own call ran")
	}
	if r.quiet(ctx, quietKey("session:x", json.RawMessage(`{"action":"open","runId":"c"}`)), 20*time.Millisecond, time.Second) {
		t.Error("run c was quiet with a step of its own queued")
	}
	done()
	if !r.quiet(ctx, "b", 20*time.Millisecond, time.Second) {
		t.Error("workspace b did not become quiet once its call ended")
	}
}

// A page can make its URL and title as long as it likes
// (history.replaceState): the step is recorded, cut, and the recorder
// goes on. It used to write an index line over 1 MiB that read back as
// no entry, and bounding that index panicked, which took the daemon down.
func TestRecordStepOfAHugeURL(t *testing.T) {
	store := replay.NewIn(t.TempDir())
	d := &Daemon{log: slog.New(slog.DiscardHandler), replays: newRecorder(store)}
	huge := "https://example.com/?" + strings.Repeat("a", 1_100_000)
	s := replayStep{key: "w", session: "session:t", at: time.Now(),
		input: json.RawMessage(`{"action":"extract","browserWorkspaceId":"w"}`),
		reply: protocol.Reply{ID: "1", Result: map[string]any{"url": huge, "title": huge[20:]}}}
	if err := d.recordStep(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	tl, err := store.Read("w")
	if err != nil || len(tl.Entries) != 1 {
		t.Fatalf("timeline %+v, %v; want the one step", tl.Entries, err)
	}
	if e := tl.Entries[0]; len(e.URL) > replay.MaxField || len(e.Title) > replay.MaxField || !strings.HasSuffix(e.URL, "…") {
		t.Errorf("url of %d bytes, title of %d: want at most %d, cut with …", len(e.URL), len(e.Title), replay.MaxField)
	}
}

// panicky is a reply result whose encoding panics: a bug in recording a
// step, whatever it is, must not end the daemon.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("a bug in recording") }

// The recorder survives a panic in recording a step, logs it, and records
// the next step.
func TestRecordStepsSurvivesAPanic(t *testing.T) {
	store := replay.NewIn(t.TempDir())
	var logged strings.Builder
	var mu sync.Mutex
	d := &Daemon{log: slog.New(slog.NewTextHandler(lockedWriter{&mu, &logged}, nil)), replays: newRecorder(store)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.recordSteps(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	in := json.RawMessage(`{"action":"extract","browserWorkspaceId":"w"}`)
	d.replays.steps <- replayStep{key: "w", input: in, reply: protocol.Reply{Result: panicky{}}, at: time.Now()}
	d.replays.steps <- replayStep{key: "w", input: in, reply: protocol.Reply{Result: map[string]any{"url": "https://example.com/"}}, at: time.Now()}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if tl, err := store.Read("w"); err == nil && len(tl.Entries) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the step after the panic was not recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logged.String(), "a bug in recording") {
		t.Errorf("the panic was not logged: %s", logged.String())
	}
}

// lockedWriter is a writer for a log read by the test.
type lockedWriter struct {
	mu *sync.Mutex
	w  *strings.Builder
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// The timelines no step was added to for MaxAge are dropped when the
// daemon starts (its recorder does it first), not only at the next step.
func TestRecorderPrunesAtStart(t *testing.T) {
	dir := t.TempDir()
	old := replay.NewIn(dir)
	old.Append(replay.Entry{Workspace: "stale", Action: "open"}, nil)
	old.Append(replay.Entry{Workspace: "fresh", Action: "open"}, nil)
	then := time.Now().Add(-replay.MaxAge - time.Hour)
	os.Chtimes(filepath.Join(dir, hex.EncodeToString([]byte("stale")), "index.jsonl"), then, then)

	store := replay.NewIn(dir)
	d := &Daemon{log: slog.New(slog.DiscardHandler), replays: newRecorder(store)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.recordSteps(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := store.Read("stale"); errors.Is(err, replay.ErrNoTimeline) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a timeline unused for 14 days was kept after the daemon started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := store.Read("fresh"); err != nil {
		t.Errorf("the fresh timeline: %v", err)
	}
}
