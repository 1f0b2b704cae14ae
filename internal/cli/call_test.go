package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func TestParseFlags(t *testing.T) {
	got, err := parseFlags("click", []string{"--text", "Save", "--tabId=12", "--exact", "--nth", "2", "--x", "1.5", "--y=2",
		"--paths", `["/a,b","/c"]`, "--clip", `{"x":1,"y":2,"width":3,"height":4}`, "--incognito=false"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `{"action":"click","clip":{"height":4,"width":3,"x":1,"y":2},"exact":true,"incognito":false,"nth":2,"paths":["/a,b","/c"],"tabId":12,"text":"Save","x":1.5,"y":2}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	// What the flags build is a tool input the daemon takes.
	shot, err := parseFlags("screenshot", []string{"--tabId", "3", "--clip", `{"x":1,"y":2,"width":3,"height":4}`})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(shot)
	if _, _, err := tool.Parse(b); err != nil {
		t.Fatalf("flags built an input that does not parse: %v", err)
	}
	// A bool flag takes a following true/false, as people write it.
	chk, err := parseFlags("check", []string{"--checked", "false", "--selector", "#a"})
	if err != nil || chk["checked"] != false || chk["selector"] != "#a" {
		t.Fatalf("--checked false: %v %v", chk, err)
	}
	for _, bad := range [][]string{{"--nope", "1"}, {"--tabId", "x"}, {"--tabId"}, {"positional"}, {"--action", "open"}, {"--clip", "[1]"}, {"--text", "a", "--text", "b"}} {
		if _, err := parseFlags("click", bad); err == nil || !strings.Contains(err.Error(), "") {
			t.Errorf("%v accepted", bad)
		}
	}
}

// Every parameter of the tool is a flag.
func TestEveryParameterIsAFlag(t *testing.T) {
	kinds := paramKinds()
	for _, name := range []string{"url", "tabId", "selector", "text", "role", "name", "label", "placeholder", "ref", "x", "y", "coordinates", "frameId", "nth", "exact", "value", "clear", "keys", "option", "options", "checked", "paths", "to", "deltaX", "deltaY", "mode", "clip", "closeWorkspace", "browserWorkspaceId", "runId", "timeoutMs", "incognito", "waitFor", "include", "maxChars", "offset", "query", "urlContains", "load", "inputMode", "button", "clickCount", "target"} {
		if _, ok := kinds[name]; !ok {
			t.Errorf("no flag --%s", name)
		}
	}
}

// The CLI resolves upload's relative paths against the working directory;
// absolute ones and other actions are sent as given.
func TestUploadPathsResolved(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	raw := json.RawMessage(`{"action":"upload","selector":"#f","paths":["a.pdf","/abs/b.pdf","sub/../c.pdf"]}`)
	in, _, err := tool.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	out, err := absolutePaths(in, raw)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Paths []string }
	json.Unmarshal(out, &got)
	want := []string{filepath.Join(dir, "a.pdf"), "/abs/b.pdf", filepath.Join(dir, "c.pdf")}
	if strings.Join(got.Paths, "|") != strings.Join(want, "|") {
		t.Errorf("paths %v, want %v", got.Paths, want)
	}
	if again, _, err := tool.Parse(out); err != nil || again.Selector != "#f" {
		t.Errorf("the rewritten input: %s %v", out, err)
	}
	same := json.RawMessage(`{"action":"upload","selector":"#f","paths":["/abs/b.pdf"]}`)
	in, _, _ = tool.Parse(same)
	if out, _ := absolutePaths(in, same); string(out) != string(same) {
		t.Errorf("absolute paths rewritten: %s", out)
	}
}

// stuckDaemon stands in for a daemon stopped with SIGSTOP (QA on main):
// it holds the daemon's lock and its socket accepts connections (the
// kernel does that for a stopped process), but nothing reads them, so no
// handshake is ever answered. The CLI's environment points at it.
func stuckDaemon(t *testing.T) {
	t.Helper()
	home := ipctest.Dir(t)
	t.Setenv(paths.EnvHome, home)
	t.Setenv(client.EnvSocket, "")
	t.Setenv(client.EnvSecretFile, "")
	layout := paths.ForHome(home)
	if _, err := secret.Ensure(layout.Secret()); err != nil {
		t.Fatal(err)
	}
	lock, err := ipc.Lock(layout.DaemonLock(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	l, err := ipc.Listen(layout.Socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, nc)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, nc := range held {
			nc.Close()
		}
	})
}

// captureStdout sends Stdout to a buffer until the test ends. Tests that
// use it are not parallel.
func captureStdout(t *testing.T) *bytes.Buffer {
	t.Helper()
	var out bytes.Buffer
	old := Stdout
	Stdout = &out
	t.Cleanup(func() { Stdout = old })
	return &out
}

// printedError decodes the {"error":…} the CLI printed.
func printedError(t *testing.T, out *bytes.Buffer) protocol.Error {
	t.Helper()
	var got struct{ Error protocol.Error }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Error.Code == "" {
		t.Fatalf("stdout %q is not a JSON error (%v)", out, err)
	}
	return got.Error
}

// A stuck daemon gets the call's own deadline (its timeoutMs, else its
// action's), not 25 s of the client's dial, start and busy retries: the
// answer is a timeout that says the daemon runs but did not answer.
func TestStuckDaemonAnswersAtTheCallsDeadline(t *testing.T) {
	stuckDaemon(t)
	out := captureStdout(t)
	began := time.Now()
	err := Run(context.Background(), []string{"status", "--timeoutMs", "1000"})
	took := time.Since(began)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 1 {
		t.Errorf("Run: %v, want exit 1", err)
	}
	e := printedError(t, out)
	if e.Code != protocol.CodeTimeout || !strings.Contains(e.Message, "did not answer") {
		t.Errorf("error %+v, want timeout saying the daemon did not answer", e)
	}
	if took < time.Second || took > time.Second+connectSlack+time.Second {
		t.Errorf("answered after %s, want about the call's 1 s deadline plus %s", took, connectSlack)
	}
}

// fakeDaemon points the CLI's environment at a fake daemon (package
// ipctest stands in for internal/daemon) that handles every call with
// answer, which may send nothing.
func fakeDaemon(t *testing.T, answer func(c *ipctest.Conn, m protocol.Call)) {
	t.Helper()
	layout := ipctest.Layout(t)
	t.Setenv(paths.EnvHome, layout.State)
	t.Setenv(client.EnvSocket, "")
	t.Setenv(client.EnvSecretFile, "")
	ipctest.Start(t, layout, ipctest.WithServe(func(c *ipctest.Conn) {
		for {
			var m protocol.Call
			if err := c.RecvJSON(&m); err != nil {
				return
			}
			if m.Type == protocol.TypeCall {
				answer(c, m)
			}
		}
	}))
}

// Ctrl-C during a call gets the code the daemon gives a cancelled call and
// a sentence, not internal_error "context canceled" (QA on main).
func TestCancelledCallSaysSo(t *testing.T) {
	fakeDaemon(t, func(*ipctest.Conn, protocol.Call) {}) // never answers
	out := captureStdout(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	err := Run(ctx, []string{"wait", "--text", "never"})
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 1 {
		t.Errorf("Run: %v, want exit 1", err)
	}
	if e := printedError(t, out); e.Code != protocol.CodeTimeout || !strings.Contains(e.Message, "cancelled") {
		t.Errorf("error %+v, want timeout saying the call was cancelled", e)
	}
}

// Bad input exits 2 whether the CLI or the daemon finds it (help says "2
// for bad input"; the daemon's invalid_argument exited 1).
func TestDaemonsInvalidArgumentExits2(t *testing.T) {
	fakeDaemon(t, func(c *ipctest.Conn, m protocol.Call) {
		c.SendJSON(protocol.Reply{ID: m.ID, Error: protocol.Errorf(protocol.CodeInvalidArgument, "maxChars must be between 1 and 10")})
	})
	out := captureStdout(t)
	err := Run(context.Background(), []string{"extract", "--tabId", "3"})
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 2 {
		t.Errorf("Run: %v, want exit 2", err)
	}
	if e := printedError(t, out); e.Code != protocol.CodeInvalidArgument {
		t.Errorf("error %+v, want the daemon's invalid_argument", e)
	}
}

// A flag's whole number too large to hold is out of range, not "not a
// whole number" (QA on main), and a long bad value is echoed cut.
func TestFlagNumberOutOfRange(t *testing.T) {
	_, err := parseFlags("status", []string{"--tabId", "99999999999999999999"})
	if err == nil || !strings.Contains(err.Error(), "out of range") || strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("--tabId 99999999999999999999: %v, want out of range", err)
	}
	_, err = parseFlags("status", []string{"--tabId", strings.Repeat("x", 3000)})
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("--tabId xxx…: %v, want it refused with the value cut", err)
	}
}
