package browser_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// connected returns a link with fake connected to it.
func connected(t *testing.T, fake *fakebrowser.Browser) *browser.Link {
	t.Helper()
	l := browser.NewLink()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	return l
}

// echoTab answers tab.get with the tab asked for.
func echoTab(ctx context.Context, p protocol.TabGetParams) (any, error) {
	return browser.TabInfo{TabID: p.TabID, Title: fmt.Sprintf("tab %d", p.TabID)}, nil
}

// waitCtx bounds a test's waits for the fake.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := protocol.CodeOf(err); got != code {
		t.Fatalf("error %v (code %q), want code %q", err, got, code)
	}
}

func TestCallIsRoutedAndAnswered(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Typed(echoTab))
	l := connected(t, fake)
	var got browser.TabInfo
	if err := l.Call(context.Background(), "tab.get", protocol.TabGetParams{TabID: 7}, &got); err != nil {
		t.Fatal(err)
	}
	if got.TabID != 7 || got.Title != "tab 7" {
		t.Errorf("result %+v, want tab 7", got)
	}
	calls := fake.Calls("tab.get")
	if len(calls) != 1 {
		t.Fatalf("the fake got %d tab.get calls, want 1", len(calls))
	}
	var frame map[string]any
	json.Unmarshal(calls[0].Frame, &frame)
	if frame["tabId"] != 7.0 || frame["type"] != "tab.get" || !strings.HasSuffix(calls[0].ID, "-1") {
		t.Errorf("command %s: want {id: <prefix>-1, type: tab.get, tabId: 7}", calls[0].Frame)
	}
}

func TestConcurrentCallsGetTheirOwnReplies(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	// Answer in an order unlike the calls': later tabs first.
	fake.Handle("tab.get", fakebrowser.Typed(func(ctx context.Context, p protocol.TabGetParams) (any, error) {
		time.Sleep(time.Duration(50-p.TabID) * 100 * time.Microsecond)
		return echoTab(ctx, p)
	}))
	l := connected(t, fake)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			tab, err := l.Verbs().TabGet(context.Background(), protocol.TabGetParams{TabID: i})
			if err == nil && tab.TabID != i {
				err = fmt.Errorf("call for tab %d got tab %d", i, tab.TabID)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCallWaitsForAConnection(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	fake := fakebrowser.New()
	t.Cleanup(fake.Drop)
	progress := make(chan string, 1)
	ctx := browser.WithProgress(context.Background(), func(s string) { progress <- s })
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- l.Verbs().BridgePing(ctx) }()
	select {
	case msg := <-progress:
		if want := "waiting up to 3s for the browser extension to connect"; msg != want {
			t.Errorf("progress %q, want %q", msg, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress while waiting for the extension")
	}
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the call did not go through once the extension connected: %v", err)
	}
}

func TestCallWithoutConnection(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		err := l.Verbs().BridgePing(ctx)
		wantCode(t, err, protocol.CodeExtensionNotConnected)
		if !strings.Contains(err.Error(), "browser-bridge install") {
			t.Errorf("the error does not say what to do: %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		if err := l.Verbs().BridgePing(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
	if info := l.Info(); info.Connected {
		t.Errorf("Info = %+v with nothing connected", info)
	}
}

func TestDropMidCallFailsTheCallOnce(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Typed(echoTab))
	fake.DropNth("tab.get", 1)
	l := connected(t, fake)
	got := browser.TabInfo{Title: "untouched"}
	err := l.Call(context.Background(), "tab.get", protocol.TabGetParams{TabID: 3}, &got)
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	if !strings.Contains(err.Error(), "disconnected while running tab.get") {
		t.Errorf("error %q does not say the command may not have finished", err)
	}
	if got.Title != "untouched" {
		t.Errorf("a failed call wrote its result: %+v", got)
	}
	if l.WaitConnected(context.Background(), 0) {
		t.Error("the dropped connection is still counted")
	}
}

func TestReplyJustBeforeADropStillCounts(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	l := connected(t, fake)
	// The reply is on its way when the connection drops: the call gets
	// the reply, and no error besides.
	fake.Handle("tab.get", func(ctx context.Context, c fakebrowser.Call) (any, error) {
		fake.Send(protocol.Reply{ID: c.ID, Result: browser.TabInfo{TabID: 5}})
		fake.Drop()
		return nil, nil
	})
	tab, err := l.Verbs().TabGet(context.Background(), protocol.TabGetParams{TabID: 5})
	if err != nil || tab.TabID != 5 {
		t.Fatalf("TabGet = %+v, %v; want the reply sent before the drop", tab, err)
	}
}

func TestCancelIsSentToTheExtension(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		verb     string
		deadline bool
		want     string // in the error; "" for context.Canceled
	}{
		{"caller cancels", "tab.waitLoad", false, ""},
		{"deadline of a tab verb", "tab.waitLoad", true, "opening, loading or looking at the tab"},
		{"deadline of a page script", "page.run", true, "the page did not answer before the deadline"},
		{"deadline of input", "cdp.batch", true, "sending input or a debugger command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakebrowser.New()
			stopped := make(chan struct{})
			fake.Handle(tt.verb, func(ctx context.Context, c fakebrowser.Call) (any, error) {
				<-ctx.Done() // as waitLoad does: until the load, or a cancel
				close(stopped)
				return nil, ctx.Err()
			})
			l := connected(t, fake)
			ctx, cancel := context.WithCancel(context.Background())
			if tt.deadline {
				ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
			}
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- l.Call(ctx, tt.verb, protocol.TabWaitLoadParams{TabID: 1, WaitMs: 60000}, nil) }()
			calls, err := fake.WaitCalls(waitCtx(t), tt.verb, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.deadline {
				cancel()
			}
			err = <-done
			if tt.want == "" {
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v, want context.Canceled", err)
				}
			} else {
				wantCode(t, err, protocol.CodeTimeout)
				if !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %q, want one with %q", err, tt.want)
				}
			}
			cancels, err := fake.WaitCalls(waitCtx(t), "command.cancel", 1)
			if err != nil {
				t.Fatal(err)
			}
			var p protocol.CommandCancelParams
			cancels[0].Decode(&p)
			if p.CommandID != calls[0].ID || cancels[0].ID != calls[0].ID+"-cancel" {
				t.Errorf("cancel %s for command %q", cancels[0].Frame, calls[0].ID)
			}
			select {
			case <-stopped:
			case <-time.After(5 * time.Second):
				t.Error("the command kept running in the extension")
			}
		})
	}
}

func TestExtensionErrorsKeepTheirCode(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Typed(echoTab))
	fake.FailNth("tab.get", 2, protocol.CodeTabNotFound, "No tab with id: 9. The tab is gone")
	l := connected(t, fake)
	v := l.Verbs()
	for i, want := range []string{"", protocol.CodeTabNotFound, ""} {
		_, err := v.TabGet(context.Background(), protocol.TabGetParams{TabID: 9})
		if got := protocol.CodeOf(err); got != want {
			t.Errorf("call %d: error %v, want code %q", i+1, err, want)
		}
	}
	_, err := v.TabCreate(context.Background(), protocol.TabCreateParams{})
	wantCode(t, err, protocol.CodeUnknownVerb) // the fake has no handler
}

func TestUndecodableResultIsAnError(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Reply("not a tab"))
	l := connected(t, fake)
	_, err := l.Verbs().TabGet(context.Background(), protocol.TabGetParams{TabID: 1})
	if err == nil || !strings.Contains(err.Error(), "decoding the result of tab.get") {
		t.Errorf("error %v, want a decoding error", err)
	}
}

func TestHelloReplayOnAConnectionIsIgnored(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	hellos := make(chan browser.Info, 4)
	l.OnHello = func(info browser.Info) { hellos <- info }
	fake := fakebrowser.New()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	first := l.Info()
	replay := fake.Hello
	replay.InstanceID = "someone-else"
	fake.Send(replay)
	// A command after the replay is read after it too: once it has its
	// answer, the replay has been seen.
	if err := l.Verbs().BridgePing(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := l.Info(); got.Instance != first.Instance || !got.ConnectedAt.Equal(first.ConnectedAt) {
		t.Errorf("after a replayed hello Info = %+v, want %+v", got, first)
	}
	if got := <-hellos; got.Instance != fake.Hello.InstanceID || !got.Connected {
		t.Errorf("OnHello got %+v", got)
	}
	select {
	case got := <-hellos:
		t.Errorf("OnHello ran again for the replay: %+v", got)
	case <-time.After(20 * time.Millisecond):
	}
}

func TestNewestHostWins(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	older, newer := fakebrowser.New(), fakebrowser.New()
	for _, f := range []*fakebrowser.Browser{older, newer} {
		f.Handle("tab.get", fakebrowser.Typed(echoTab))
		if err := f.Connect(l); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.Drop)
	}
	v := l.Verbs()
	if _, err := v.TabGet(context.Background(), protocol.TabGetParams{TabID: 1}); err != nil {
		t.Fatal(err)
	}
	if len(older.Calls("tab.get")) != 0 || len(newer.Calls("tab.get")) != 1 {
		t.Fatalf("calls went to the older host (%d) instead of the newer (%d)", len(older.Calls("tab.get")), len(newer.Calls("tab.get")))
	}
	if got := l.Info().Instance; got != newer.Hello.InstanceID {
		t.Errorf("Info names %q, want the newer host's %q", got, newer.Hello.InstanceID)
	}
	// When the newer one goes, the older one serves again.
	newer.Drop()
	deadline := time.Now().Add(5 * time.Second)
	for l.Info().Instance != older.Hello.InstanceID {
		if time.Now().After(deadline) {
			t.Fatalf("after the newer host dropped, Info names %q", l.Info().Instance)
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := v.TabGet(context.Background(), protocol.TabGetParams{TabID: 2}); err != nil {
		t.Fatal(err)
	}
	if len(older.Calls("tab.get")) != 1 {
		t.Errorf("the older host got %d calls after the newer one dropped, want 1", len(older.Calls("tab.get")))
	}
}

func TestVersionMismatchIsReported(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	hellos := make(chan browser.Info, 1)
	l.OnHello = func(info browser.Info) { hellos <- info }
	fake := fakebrowser.New()
	fake.Hello.Protocol = protocol.Version - 1
	fake.Hello.Version = "0.9.0"
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	err := l.Verbs().BridgePing(context.Background())
	wantCode(t, err, protocol.CodeVersionMismatch)
	if want := fmt.Sprintf("speaks protocol %d (version 0.9.0)", protocol.Version-1); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if len(fake.Calls("bridge.ping")) != 0 {
		t.Error("a command was sent to an extension of another protocol")
	}
	if info := l.Info(); info.Mismatch != err.Error() || !info.Connected || info.Protocol != protocol.Version-1 {
		t.Errorf("Info = %+v, want the mismatch", info)
	}
	if info := <-hellos; info.Mismatch == "" {
		t.Errorf("OnHello got %+v without the mismatch", info)
	}
}

func TestLateReplyOfAnEarlierDaemonLifeIsIgnored(t *testing.T) {
	t.Parallel()
	fake := fakebrowser.New()
	answer := make(chan struct{})
	fake.Handle("tab.get", fakebrowser.Typed(func(ctx context.Context, p protocol.TabGetParams) (any, error) {
		if p.TabID == 1 {
			<-answer // the old daemon's call: answered only after it is gone
		}
		return echoTab(ctx, p)
	}))
	// The old daemon sends tab.get and dies; the host keeps Chrome's port
	// and redials the new daemon, replaying the hello.
	old := browser.NewLink()
	if err := fake.Connect(old); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go old.Verbs().TabGet(ctx, protocol.TabGetParams{TabID: 1})
	oldCalls, err := fake.WaitCalls(waitCtx(t), "tab.get", 1)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	fake.Drop()
	l := browser.NewLink()
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Drop)
	// The new daemon's first call has the same number as the old one's,
	// and the old reply arrives while it waits.
	fake.Handle("tab.get", fakebrowser.Typed(func(ctx context.Context, p protocol.TabGetParams) (any, error) {
		fake.Send(protocol.Reply{ID: oldCalls[0].ID, Result: browser.TabInfo{TabID: 1, Title: "the old daemon's"}})
		return echoTab(ctx, p)
	}))
	tab, err := l.Verbs().TabGet(context.Background(), protocol.TabGetParams{TabID: 2})
	if err != nil {
		t.Fatal(err)
	}
	if tab.TabID != 2 {
		t.Errorf("the new daemon's call got %+v", tab)
	}
	calls := fake.Calls("tab.get")
	oldNum := oldCalls[0].ID[strings.LastIndex(oldCalls[0].ID, "-"):]
	if newID := calls[len(calls)-1].ID; newID == oldCalls[0].ID || !strings.HasSuffix(newID, oldNum) {
		t.Errorf("IDs %q and %q: want the same number with another prefix", oldCalls[0].ID, newID)
	}
	close(answer)
}

// failingConn is a connection whose writes fail.
type failingConn struct{ browser.Conn }

func (failingConn) Send([]byte) error { return errors.New("broken pipe") }

// unwritable connects to l a connection whose writes fail, as a host's
// that has died before the link read its end; it returns the other end.
func unwritable(t *testing.T, l *browser.Link) browser.Conn {
	t.Helper()
	return connectVia(t, l, func(c browser.Conn) browser.Conn { return failingConn{c} })
}

// connectVia connects to l the daemon's side of a pipe wrapped by wrap,
// says hello from the other side, and returns that side.
func connectVia(t *testing.T, l *browser.Link, wrap func(browser.Conn) browser.Conn) browser.Conn {
	t.Helper()
	daemonSide, extSide := browser.Pipe()
	go l.Serve(wrap(daemonSide))
	hello, _ := json.Marshal(fakebrowser.New().Hello)
	extSide.Send(hello)
	if !l.WaitConnected(context.Background(), 5*time.Second) {
		t.Fatal("the hello was not taken")
	}
	return extSide
}

// A connection that cannot be written to is closed, and with no
// extension coming back the call fails with extension_not_connected
// within its deadline.
func TestSendFailureIsNotConnected(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	extSide := unwritable(t, l)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err := l.Verbs().BridgePing(ctx)
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	// The link closed the connection it could not write to.
	if _, err := extSide.Recv(); err == nil {
		t.Error("the connection is still open")
	}
}

// A command written to a host that has just died (its socket closed, its
// EOF not yet read) was not delivered: it waits for the reconnect and
// goes out once on the new connection. Before, it failed at once, as the
// e2e TestExtensionReconnectsWhenTheHostDies did 1 time in 20 under
// load: "lost the connection to the extension while sending tab.create".
func TestSendFailureWaitsForTheReconnect(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	extSide := unwritable(t, l)
	fake := fakebrowser.New()
	fake.Handle("tab.get", fakebrowser.Typed(echoTab))
	t.Cleanup(fake.Drop)
	done := make(chan error, 1)
	go func() {
		_, err := l.Verbs().TabGet(waitCtx(t), protocol.TabGetParams{TabID: 3})
		done <- err
	}()
	// The link closes the dead connection on its failed write; then the
	// extension comes back.
	if _, err := extSide.Recv(); err == nil {
		t.Fatal("the connection is still open")
	}
	if err := fake.Connect(l); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the command sent as the host died: %v", err)
	}
	if n := len(fake.Calls("tab.get")); n != 1 {
		t.Errorf("the new connection got the command %d times, want once", n)
	}
}

// tooLargeConn refuses every frame as over the native-messaging limit,
// as nmframe.Write does before it writes anything.
type tooLargeConn struct{ browser.Conn }

func (tooLargeConn) Send(b []byte) error {
	return &nmframe.TooLargeError{Size: len(b), Limit: 1, Dir: "to the extension"}
}

// A command too large to send fails alone, with invalid_argument: nothing
// was written, so the connection stays (a drop would fail every call in
// flight on it).
func TestTooLargeCommandKeepsTheConnection(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	connectVia(t, l, func(c browser.Conn) browser.Conn { return tooLargeConn{c} })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	wantCode(t, l.Verbs().BridgePing(ctx), protocol.CodeInvalidArgument)
	if len(l.Browsers()) != 1 {
		t.Error("the link dropped a sound connection over one command too large")
	}
}

// FuzzServeFrames sends the link whatever the extension side might (frames
// come from Chrome, and a page has its influence on the extension): the
// link must neither panic nor lose its way, and a call after the frame is
// answered.
func FuzzServeFrames(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","protocol":1,"instanceId":"other"}`,
		`{"id":"1","result":{"x":1}}`,
		`{"id":"","error":"plain"}`,
		`{"id":5}`, `{"type":["hello"]}`, `[]`, `null`, `{`, "",
		`{"id":"x","result":null,"error":{"code":7}}`,
	} {
		f.Add([]byte(s))
	}
	hello, _ := json.Marshal(fakebrowser.New().Hello)
	f.Fuzz(func(t *testing.T, frame []byte) {
		l := browser.NewLink()
		daemonSide, ext := browser.Pipe()
		defer ext.Close()
		go l.Serve(daemonSide)
		ext.Send(hello)
		ext.Send(frame)
		go func() {
			for {
				cmd, err := ext.Recv()
				if err != nil {
					return
				}
				var c struct{ ID string }
				json.Unmarshal(cmd, &c)
				reply, _ := json.Marshal(protocol.Reply{ID: c.ID, Result: protocol.BridgePingResult{Pong: true}})
				ext.Send(reply)
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := l.Verbs().BridgePing(ctx); err != nil {
			t.Fatalf("after frame %q: %v", frame, err)
		}
	})
}

// The extension may ask the daemon something of its own ({id, type, …}):
// OnRequest answers it on the same connection, and a reply to a command
// of the daemon's is still a reply. The pipe's far end stands in for the
// extension's native port.
func TestExtensionRequestsAreAnswered(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	l.OnRequest = func(_ browser.Info, typ string, frame []byte) (any, error) {
		var req protocol.PathsCheck
		json.Unmarshal(frame, &req)
		if len(req.Paths) == 0 {
			return nil, protocol.Errorf(protocol.CodeUploadPathRejected, "no paths")
		}
		return protocol.PathsChecked{Paths: append(req.Paths, typ)}, nil
	}
	ours, ext := browser.Pipe()
	go l.Serve(ours)
	t.Cleanup(func() { ext.Close() })
	ext.Send([]byte(`{"type":"hello","protocol":2,"extensionId":"x"}`))
	ext.Send([]byte(`{"id":"ext-1","type":"paths.check","paths":["/tmp/a"]}`))
	ext.Send([]byte(`{"id":"ext-2","type":"paths.check","paths":[]}`))
	got := map[string]string{}
	for range 2 {
		frame, err := ext.Recv()
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			ID     string
			Result json.RawMessage
			Error  *protocol.Error
		}
		json.Unmarshal(frame, &r)
		if r.Error != nil {
			got[r.ID] = r.Error.Code
		} else {
			got[r.ID] = string(r.Result)
		}
	}
	if got["ext-1"] != `{"paths":["/tmp/a","paths.check"]}` || got["ext-2"] != protocol.CodeUploadPathRejected {
		t.Errorf("answers %v", got)
	}
}

// The registry key names the browser's run: two runs of one installation
// are two instances.
func TestInstanceNamesTheBrowserRun(t *testing.T) {
	t.Parallel()
	for _, run := range []string{"run-1", "run-2"} {
		l := browser.NewLink()
		ours, ext := browser.Pipe()
		go l.Serve(ours)
		ext.Send([]byte(`{"type":"hello","protocol":2,"extensionId":"x","instanceId":"inst","browserSession":"` + run + `"}`))
		if !l.WaitConnected(waitCtx(t), 5*time.Second) {
			t.Fatal("no hello")
		}
		if got := l.Info().Instance; got != "inst@"+run {
			t.Errorf("instance %q, want inst@%s", got, run)
		}
		ext.Close()
	}
}

// With several browsers connected, a call goes to the one the user focused
// last (else the newest), a pinned call to its own browser, and a pinned
// browser that is not connected fails at once, naming it.
func TestFocusPicksTheDefaultAndPinPicksItsBrowser(t *testing.T) {
	t.Parallel()
	l := browser.NewLink()
	a, b := fakebrowser.New(), fakebrowser.New()
	a.Hello.Focused = true // it has the focus as it connects
	for _, f := range []*fakebrowser.Browser{a, b} {
		f.Handle("tab.get", fakebrowser.Typed(echoTab))
		if err := f.Connect(l); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.Drop)
	}
	get := func(c browser.Caller) {
		t.Helper()
		if _, err := (browser.Verbs{Caller: c}).TabGet(context.Background(), protocol.TabGetParams{TabID: 1}); err != nil {
			t.Fatal(err)
		}
	}
	calls := func() string { return fmt.Sprint(len(a.Calls("tab.get")), len(b.Calls("tab.get"))) }
	get(l)
	if calls() != "1 0" {
		t.Fatalf("the default went to %s (A, B), want A, focused at its hello", calls())
	}
	if bs := l.Browsers(); len(bs) != 2 || !bs[0].Default || bs[1].Default || bs[0].FocusedAt.IsZero() {
		t.Errorf("Browsers %+v", bs)
	}
	b.Send(map[string]any{"type": protocol.TypeFocused})
	deadline := time.Now().Add(5 * time.Second)
	for l.Info().Browser != b.Hello.InstanceID {
		if time.Now().After(deadline) {
			t.Fatal("B's focus did not make it the default")
		}
		time.Sleep(time.Millisecond)
	}
	get(l)
	get(l.Pin(a.Hello.InstanceID, "0 (A)"))
	if calls() != "2 1" {
		t.Fatalf("calls %s (A, B), want 2 1", calls())
	}
	gone := l.Pin("never-connected", "7 (Gone)")
	start := time.Now()
	err := gone.Call(context.Background(), "tab.get", protocol.TabGetParams{TabID: 1}, nil)
	if protocol.CodeOf(err) != protocol.CodeExtensionNotConnected || !strings.Contains(err.Error(), "7 (Gone)") || time.Since(start) > time.Second {
		t.Errorf("a pinned browser that never connected: %v after %s", err, time.Since(start))
	}
	if gone.Info().Connected {
		t.Error("Info of a browser that is not connected says connected")
	}
}
