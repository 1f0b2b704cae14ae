//go:build wine

// Package wine runs the Windows build of the bridge end to end under Wine:
// Debian's Chromium (a Linux program) loads the extension, its native-host
// manifest points at a script that runs the Windows browser-bridge.exe as
// the host under Wine, and the Windows CLI, also under Wine, drives the
// page through the Windows daemon, which it starts on demand. So the named
// pipe, the detached start, the host's binary stdio and the CLI are the
// Windows code, on Wine's implementation of Windows. The host is given
// the --parent-window= argument Chrome for Windows adds.
//
// It needs wine and a prefix prepared by scripts/wine-test (Wine 8 lacks
// ProcessPrng, which Go needs: the script adds it), named by
// BROWSER_BRIDGE_WINEPREFIX; the build tag keeps it out of go test ./...
//
//	scripts/wine-test
package wine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/extension"
	"github.com/browser-bridge/browser-bridge/internal/launcher"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

const page = `<!doctype html><title>Wine page</title><h1>Hello from the page</h1>
<p id=out>not clicked</p><button onclick="document.getElementById('out').textContent='clicked'">Press me</button>`

// bridge runs the Windows CLI under Wine.
type bridge struct {
	t   *testing.T
	exe string
	env []string
}

func (b bridge) run(args ...string) map[string]any {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wine", append([]string{b.exe}, args...)...)
	cmd.Env = b.env
	// Output to a file, not a pipe: the daemon the first command starts
	// would hold a pipe open under Wine (its Unix side inherits the
	// descriptors), and Output would wait for it forever.
	f, err := os.CreateTemp("", "bbwine-out")
	if err != nil {
		b.t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd.Stdout = f
	err = cmd.Run()
	out, _ := os.ReadFile(f.Name())
	var res map[string]any
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		b.t.Fatalf("browser-bridge.exe %s: %v, %v\n%s", strings.Join(args, " "), err, jerr, out)
	}
	if e, ok := res["error"]; ok {
		b.t.Fatalf("browser-bridge.exe %s: %v", strings.Join(args, " "), e)
	}
	return res
}

func TestWindowsBridgeUnderWine(t *testing.T) {
	prefix := os.Getenv("BROWSER_BRIDGE_WINEPREFIX")
	if prefix == "" {
		t.Fatal("BROWSER_BRIDGE_WINEPREFIX is not set: run scripts/wine-test, which prepares a Wine prefix and runs this test")
	}
	if _, err := exec.LookPath("wine"); err != nil {
		t.Fatal("no wine on PATH: apt-get install wine (scripts/wine-test does)")
	}
	chromium, err := launcher.Find()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "bbwine")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })

	start := time.Now()
	exe := filepath.Join(dir, "browser-bridge.exe")
	build := exec.Command("go", "build", "-o", exe, "../../cmd/browser-bridge")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the Windows binary: %v\n%s", err, out)
	}
	t.Logf("built browser-bridge.exe in %v", time.Since(start).Round(time.Millisecond))

	// The Windows side's state folder, a Linux folder seen through Wine's
	// Z: drive.
	home := filepath.Join(dir, "home")
	env := append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=bcryptprimitives=n",
		"BROWSER_BRIDGE_HOME=Z:"+strings.ReplaceAll(home, "/", `\`))
	b := bridge{t: t, exe: exe, env: env}
	t.Cleanup(func() {
		// The prefix is this test's: its wineserver goes, and with it the
		// Windows daemon and host.
		k := exec.Command("wineserver", "-k")
		k.Env = env
		k.Run()
	})

	ext := filepath.Join(dir, "ext")
	if err := extension.WriteTo(ext); err != nil {
		t.Fatal(err)
	}
	// Chromium for Linux starts the host the manifest names: a script that
	// runs the Windows host under Wine, in the same environment.
	hostLog := filepath.Join(dir, "host.log")
	script := filepath.Join(dir, "host.sh")
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\nexec env")
	for _, kv := range env[len(os.Environ()):] {
		fmt.Fprintf(&sh, " '%s'", kv)
	}
	// Chrome for Windows adds --parent-window=<handle> after the origin;
	// the host must ignore it, so the script passes one too.
	fmt.Fprintf(&sh, " wine '%s' host \"$@\" --parent-window=0 2>>'%s'\n", exe, hostLog)
	if err := os.WriteFile(script, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "profile")
	manifest, _ := json.Marshal(map[string]any{"name": protocol.NativeHostName, "description": "Browser Bridge for Windows, under Wine",
		"path": script, "type": "stdio", "allowed_origins": []string{"chrome-extension://" + protocol.DevExtensionID + "/"}})
	os.MkdirAll(filepath.Join(profile, "NativeMessagingHosts"), 0o700)
	if err := os.WriteFile(filepath.Join(profile, "NativeMessagingHosts", protocol.NativeHostName+".json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page) }))
	defer srv.Close()

	args := []string{"--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--password-store=basic", "--load-extension=" + ext, "--headless=new", "--screen-info={0,0 1920x1080}", "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	chrome := exec.Command(chromium, args...)
	chrome.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "user"), "XDG_CONFIG_HOME="+filepath.Join(dir, "user", ".config"))
	chrome.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := chrome.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-chrome.Process.Pid, syscall.SIGKILL)
		chrome.Wait()
	})

	// status starts the Windows daemon; the extension connects through the
	// Windows host once both are up.
	var status map[string]any
	for deadline := time.Now().Add(60 * time.Second); ; {
		status = b.run("status")
		if status["connected"] == true {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(hostLog)
			t.Fatalf("the extension did not connect through the Windows host: %v\nhost log:\n%s", status, log)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("connected %v after start", time.Since(start).Round(time.Millisecond))
	if sock, _ := status["daemon"].(map[string]any)["socket"].(string); !strings.HasPrefix(sock, `\\.\pipe\browser-bridge-`) {
		t.Errorf("the daemon listens on %q, not a named pipe", sock)
	}

	opened := b.run("open", "--url", srv.URL+"/")
	tab := fmt.Sprint(int64(opened["tabId"].(float64)))
	if opened["title"] != "Wine page" {
		t.Errorf("open: %v", opened)
	}
	b.run("click", "--tabId", tab, "--role", "button", "--name", "Press me")
	if got := b.run("extract", "--tabId", tab); !strings.Contains(fmt.Sprint(got["text"]), "clicked") ||
		strings.Contains(fmt.Sprint(got["text"]), "not clicked") {
		t.Errorf("extract after the click: %v", got["text"])
	}
	closed := b.run("close", "--tabId", tab)
	if ids, _ := closed["closedTabs"].([]any); len(ids) != 1 || fmt.Sprint(int64(ids[0].(float64))) != tab {
		t.Errorf("close: %v", closed)
	}
	t.Logf("open, click, extract, close done %v after start", time.Since(start).Round(time.Millisecond))
}
