// Package browsertest is the real-browser test harness: it builds the
// browser-bridge binary once per test binary, starts `browser-bridge launch
// --headless` (a real Chromium with the real extension, whose native host is
// the real binary, talking to a real daemon over a real socket) and gives
// tests helpers to run CLI commands against it.
//
// There is no skipping: when Chromium cannot be started the test binary
// fails loudly, so CI can never pass without having driven a browser.
package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/launcher"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
)

// Bridge is one daemon + launched browser for the whole test binary.
type Bridge struct {
	Env
	// Launch is the JSON line `launch` printed.
	Launch struct {
		PID         int    `json:"pid"`
		Profile     string `json:"profile"`
		ExtensionID string `json:"extensionId"`
	}
	launch *exec.Cmd

	// CDP is the test's own debugging connection to the browser (with
	// Options.DebugPipe; nil otherwise, and while the browser is stopped).
	CDP     *CDP
	opts    Options
	browser *launcher.Browser // with Options.DebugPipe
	shared  bool              // Another's: the Env is another Bridge's

	// The shared DevTools connection (SharedDevTools).
	devOnce sync.Once
	dev     *DevTools
	devErr  error
}

// Env is a BROWSER_BRIDGE_HOME and the environment to run the binary in.
// Tests that need an install without a browser make their own with NewEnv.
type Env struct {
	Bin  string // the built browser-bridge binary
	Home string // BROWSER_BRIDGE_HOME
	Vars []string
}

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
	buildDir  string
)

// Binary builds browser-bridge once per test binary and returns its path.
func Binary() (string, error) {
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "bbbin")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "browser-bridge")
		cmd := exec.Command("go", "build", "-o", buildBin, "github.com/browser-bridge/browser-bridge/cmd/browser-bridge")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building browser-bridge: %v\n%s", err, out)
		}
	})
	return buildBin, buildErr
}

// NewEnv makes a fresh state folder with its own HOME (Chromium writes
// under ~/.config even with --user-data-dir). The folder is short so the
// socket path fits.
func NewEnv() (Env, error) {
	bin, err := Binary()
	if err != nil {
		return Env{}, err
	}
	home, err := os.MkdirTemp("", "bbt")
	if err != nil {
		return Env{}, err
	}
	user := filepath.Join(home, "user")
	os.MkdirAll(user, 0o700)
	vars := []string{
		"BROWSER_BRIDGE_HOME=" + home,
		"HOME=" + user,
		"XDG_CONFIG_HOME=" + filepath.Join(user, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(user, ".cache"),
		// The bar "started debugging this browser" would shrink the
		// viewport by 56 px; users see it, tests need stable geometry.
		"BROWSER_BRIDGE_BROWSER_ARGS=--silent-debugger-extension-api",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "BROWSER_BRIDGE_HOME", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "BROWSER_BRIDGE_BROWSER_ARGS", "BROWSER_BRIDGE_WORKSPACE":
			continue
		}
		vars = append(vars, kv)
	}
	return Env{Bin: bin, Home: home, Vars: vars}, nil
}

// Command returns an exec.Cmd of the binary in this environment.
func (e Env) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, e.Bin, args...)
	cmd.Env = e.Vars
	return cmd
}

// Result is what one CLI run gave.
type Result struct {
	Stdout []byte
	Stderr []byte
	Exit   int
	// JSON is stdout decoded (nil when it is not JSON).
	JSON map[string]any
	// Err is the {"error":…} the CLI printed, if any.
	Err *protocol.Error
}

// Run runs the CLI with args; it never fails the test by itself.
func (e Env) Run(t testing.TB, args ...string) Result {
	t.Helper()
	return e.RunStdin(t, nil, args...)
}

// RunStdin is Run with stdin.
func (e Env) RunStdin(t testing.TB, stdin []byte, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := e.Command(ctx, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := Result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.Exit = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %v: %v", args, err)
	}
	var env struct {
		Error *protocol.Error `json:"error"`
	}
	if json.Unmarshal(r.Stdout, &r.JSON) == nil && json.Unmarshal(r.Stdout, &env) == nil {
		r.Err = env.Error
	}
	return r
}

// Call runs `call '<json>'` with input.
func (e Env) Call(t testing.TB, input map[string]any) Result {
	t.Helper()
	b, _ := json.Marshal(input)
	return e.Run(t, "call", string(b))
}

// MustCall runs input and fails the test unless it succeeds.
func (e Env) MustCall(t testing.TB, input map[string]any) map[string]any {
	t.Helper()
	r := e.Call(t, input)
	if r.Exit != 0 || r.Err != nil || r.JSON == nil {
		t.Fatalf("call %v: exit %d, stdout %s, stderr %s", input, r.Exit, r.Stdout, r.Stderr)
	}
	return r.JSON
}

// DaemonPID asks the daemon for its PID (starting one if needed).
func (e Env) DaemonPID(t testing.TB) int {
	t.Helper()
	r := e.Run(t, "status")
	d, _ := r.JSON["daemon"].(map[string]any)
	pid, _ := d["pid"].(float64)
	if pid == 0 {
		t.Fatalf("status has no daemon pid: %s %s", r.Stdout, r.Stderr)
	}
	return int(pid)
}

// StopDaemon ends the daemon of this environment, if one runs. It learns
// the daemon's PID from the handshake, so it never starts one.
func (e Env) StopDaemon() {
	l := paths.ForHome(e.Home)
	s, err := secret.Load(l.Secret())
	if err != nil {
		return
	}
	c, ok, err := ipc.Dial(context.Background(), l.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: s})
	if err != nil {
		return
	}
	c.Close()
	stopPID(ok.DaemonPID)
}

// Close stops the daemon and removes the folder.
func (e Env) Close() {
	e.StopDaemon()
	os.RemoveAll(e.Home)
}

// Start launches the browser and waits for the extension.
func Start() (*Bridge, error) {
	env, err := NewEnv()
	if err != nil {
		return nil, err
	}
	return startIn(env)
}

// startIn launches the browser in env and waits for the extension.
func startIn(env Env) (*Bridge, error) {
	b := &Bridge{Env: env}
	logf, err := os.Create(filepath.Join(env.Home, "launch.log"))
	if err != nil {
		return nil, err
	}
	// The first tab is a protected page, for the tests of refusals; it is
	// also the user's tab that the bridge did not open.
	cmd := env.Command(context.Background(), "launch", "--headless", "--url", "chrome://version")
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting launch: %w", err)
	}
	b.launch = cmd
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
		if ok && json.Unmarshal([]byte(l), &b.Launch) == nil && b.Launch.PID > 0 {
			return b, nil
		}
	case <-time.After(60 * time.Second):
	}
	b.Close()
	log, _ := os.ReadFile(logf.Name())
	return nil, fmt.Errorf("browser-bridge launch --headless did not report a connected extension; its log:\n%s\nIs Chromium installed (apt-get install chromium)?", log)
}

// Close stops the launched browser and the daemon.
func (b *Bridge) Close() {
	if b.launch != nil && b.launch.Process != nil {
		b.launch.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { b.launch.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			killGroup(b.launch)
		}
	}
	b.StopBrowser()
	if b.shared {
		os.RemoveAll(b.Launch.Profile)
		return
	}
	b.Env.Close()
}

// Main is the TestMain of a real-browser test binary: it starts the bridge,
// runs the tests and stops it. A bridge that cannot start fails the run.
func Main(m *testing.M, bridge **Bridge) int {
	return mainWith(m, bridge, Start)
}

func mainWith(m *testing.M, bridge **Bridge, start func() (*Bridge, error)) int {
	b, err := start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: the real-browser harness could not start:", err)
		return 1
	}
	*bridge = b
	code := m.Run()
	b.Close()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	return code
}
