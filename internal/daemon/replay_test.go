package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
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
