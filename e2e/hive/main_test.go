//go:build unix

// Package hive holds the end-to-end tests of the extension's WebSocket
// transport and program door: the test plays Hive's bridge server
// (protocol 6) on a loopback port, and the real extension, in a real
// Chromium started by `browser-bridge launch` with the real host and
// daemon, connects to it and serves Hive's verbs on pages from httptest.
package hive

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

var (
	bridge *harness
	site   string // the fixtures: /page/<title>, /upload
)

func TestMain(m *testing.M) {
	srv := httptest.NewServer(fixtures())
	site = srv.URL
	h, err := start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: the real-browser harness could not start:", err)
		os.Exit(1)
	}
	bridge = h
	code := m.Run()
	h.Close()
	srv.Close()
	if bin, err := browsertest.Binary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

func fixtures() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/page/", func(w http.ResponseWriter, r *http.Request) {
		title := strings.TrimPrefix(r.URL.Path, "/page/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1>", html.EscapeString(title), html.EscapeString(title))
	})
	mux.HandleFunc("/editable", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>markup</title><div contenteditable id="ed" style="position:absolute;left:0;top:0;width:400px;height:200px">edit</div>`)
	})
	mux.HandleFunc("/upload", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>upload</title><input type="file" id="f">`)
	})
	return mux
}

// harness is browsertest's bridge with one thing more: Chromium's DevTools
// on a loopback port, for what only a test may do to the extension — write
// its storage past the CLI's checks, and stop its service worker. (browsertest.Start opens no such port, so this starts `launch`
// itself, the same way.)
type harness struct {
	browsertest.Env
	Launch struct {
		PID         int    `json:"pid"`
		Profile     string `json:"profile"`
		ExtensionID string `json:"extensionId"`
	}
	cmd      *exec.Cmd
	devtools string // the browser's DevTools WebSocket URL
}

func start() (*harness, error) {
	env, err := browsertest.NewEnv()
	if err != nil {
		return nil, err
	}
	for i, kv := range env.Vars {
		if strings.HasPrefix(kv, "BROWSER_BRIDGE_BROWSER_ARGS=") {
			env.Vars[i] = kv + " --remote-debugging-port=0"
		}
	}
	h := &harness{Env: env}
	logf, err := os.Create(filepath.Join(env.Home, "launch.log"))
	if err != nil {
		return nil, err
	}
	// The first tab is the user's own tab, which programs may not touch.
	cmd := env.Command(context.Background(), "launch", "--headless", "--url", "chrome://version")
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting launch: %w", err)
	}
	h.cmd = cmd
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
	}()
	select {
	case l, ok := <-line:
		if ok && json.Unmarshal([]byte(l), &h.Launch) == nil && h.Launch.PID > 0 {
			break
		}
		h.Close()
		log, _ := os.ReadFile(logf.Name())
		return nil, fmt.Errorf("launch did not report a connected extension; its log:\n%s", log)
	case <-time.After(60 * time.Second):
		h.Close()
		return nil, errors.New("launch did not report a connected extension within 60 s")
	}
	// Chromium names its DevTools port and path in this file.
	for i := 0; i < 100; i++ {
		b, err := os.ReadFile(filepath.Join(h.Launch.Profile, "DevToolsActivePort"))
		if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); err == nil && len(lines) == 2 {
			h.devtools = "ws://127.0.0.1:" + lines[0] + lines[1]
			return h, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	h.Close()
	return nil, errors.New("chromium wrote no DevToolsActivePort")
}

func (h *harness) Close() {
	if h.cmd != nil && h.cmd.Process != nil {
		h.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { h.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	h.Env.Close()
}

// devtools is a CDP client of the browser endpoint.
type devtools struct {
	c       *wsConn
	mu      sync.Mutex
	next    int
	pending map[int]chan devReply
}

type devReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (h *harness) dialDevtools(t *testing.T) *devtools {
	t.Helper()
	c, err := wsDial(h.devtools)
	if err != nil {
		t.Fatalf("dialling Chromium's DevTools: %v", err)
	}
	d := &devtools{c: c, pending: map[int]chan devReply{}}
	go func() {
		for {
			text, err := c.ReadText()
			if err != nil {
				d.mu.Lock()
				for id, ch := range d.pending {
					close(ch)
					delete(d.pending, id)
				}
				d.mu.Unlock()
				return
			}
			var m struct {
				ID int `json:"id"`
				devReply
			}
			if json.Unmarshal([]byte(text), &m) != nil || m.ID == 0 {
				continue // an event
			}
			d.mu.Lock()
			ch := d.pending[m.ID]
			delete(d.pending, m.ID)
			d.mu.Unlock()
			if ch != nil {
				ch <- m.devReply
			}
		}
	}()
	t.Cleanup(func() { c.Close(1000) })
	return d
}

func (d *devtools) call(session, method string, params, out any) error {
	d.mu.Lock()
	d.next++
	id := d.next
	ch := make(chan devReply, 1)
	d.pending[id] = ch
	d.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if params == nil {
		msg["params"] = map[string]any{}
	}
	if session != "" {
		msg["sessionId"] = session
	}
	b, _ := json.Marshal(msg)
	if err := d.c.WriteText(string(b)); err != nil {
		return err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return errors.New("DevTools closed the connection")
		}
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-time.After(20 * time.Second):
		return fmt.Errorf("%s: no answer within 20 s", method)
	}
}

// worker finds the extension's service worker target; "" when it is not
// running.
func (h *harness) worker(t *testing.T, d *devtools) string {
	t.Helper()
	var got struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
			URL      string `json:"url"`
		} `json:"targetInfos"`
	}
	if err := d.call("", "Target.getTargets", nil, &got); err != nil {
		t.Fatal(err)
	}
	for _, ti := range got.TargetInfos {
		if ti.Type == "service_worker" && strings.HasPrefix(ti.URL, "chrome-extension://"+h.Launch.ExtensionID+"/") {
			return ti.TargetID
		}
	}
	return ""
}

// workerEval evaluates expr (a promise is awaited) in the extension's
// service worker, the way DevTools' console would.
func (h *harness) workerEval(t *testing.T, expr string) json.RawMessage {
	t.Helper()
	d := h.dialDevtools(t)
	target := ""
	for i := 0; i < 100 && target == ""; i++ {
		if target = h.worker(t, d); target == "" {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if target == "" {
		t.Fatal("the extension's service worker is not running")
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := d.call("", "Target.attachToTarget", map[string]any{"targetId": target, "flatten": true}, &att); err != nil {
		t.Fatal(err)
	}
	defer d.call("", "Target.detachFromTarget", map[string]any{"sessionId": att.SessionID}, nil)
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	if err := d.call(att.SessionID, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r); err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluating %s in the service worker: %v", expr, r.ExceptionDetails)
	}
	return r.Result.Value
}

// stopWorker stops the extension's service worker, as Chrome does to an
// idle one, and returns the target it was.
func (h *harness) stopWorker(t *testing.T) string {
	t.Helper()
	d := h.dialDevtools(t)
	target := h.worker(t, d)
	if target == "" {
		t.Fatal("the extension's service worker is not running")
	}
	if err := d.call("", "Target.closeTarget", map[string]any{"targetId": target}, nil); err != nil {
		t.Fatalf("stopping the service worker: %v", err)
	}
	for i := 0; i < 100; i++ {
		if h.worker(t, d) != target {
			return target
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the service worker still runs after Target.closeTarget")
	return ""
}

// configured is the answer to a `browser-bridge websocket` command.
type configured struct {
	Status map[string]any
	Err    *protocol.Error
}

// configure runs `browser-bridge websocket enable --url URL [--token T]`,
// or `websocket disable` when url is "".
func configure(t *testing.T, url, token string) configured {
	t.Helper()
	args := []string{"websocket", "disable"}
	if url != "" {
		args = []string{"websocket", "enable", "--url", url}
		if token != "" {
			args = append(args, "--token", token)
		}
	}
	r := bridge.Run(t, args...)
	if r.Exit == 0 {
		return configured{Status: r.JSON}
	}
	if r.Err == nil {
		t.Fatalf("%v: exit %d, stdout %s, stderr %s", args, r.Exit, r.Stdout, r.Stderr)
	}
	return configured{Err: r.Err}
}

// enable turns the transport on and fails the test if that is refused.
func enable(t *testing.T, url, token string) {
	t.Helper()
	if c := configure(t, url, token); c.Err != nil {
		t.Fatalf("enabling the WebSocket transport for %s: %s %s", url, c.Err.Code, c.Err.Message)
	}
	t.Cleanup(func() { configure(t, "", "") })
}

// store writes a WebSocket setting straight into the extension's
// chrome.storage.local, past every check of the CLI and the daemon: the
// transport follows what is stored, and must check it again itself.
func store(t *testing.T, setting map[string]any) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"websocket": setting})
	bridge.workerEval(t, fmt.Sprintf("chrome.storage.local.set(%s).then(() => true)", b))
}

// relay asks the daemon to run one extension verb for a local program,
// as the public Go client does (a verb call over the daemon's socket): the
// Hive verbs run in the extension's program door as "daemon programs".
func relay(t *testing.T, verb string, params any) (map[string]any, *protocol.Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, paths.ForHome(bridge.Home), "hive-e2e")
	if err != nil {
		t.Fatalf("connecting to the daemon: %v", err)
	}
	defer c.Close()
	raw, err := c.Verb(ctx, verb, params, nil)
	if err != nil {
		return nil, protocol.AsError(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: the result is not an object: %s", verb, raw)
	}
	return out, nil
}
