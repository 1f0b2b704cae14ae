//go:build unix

// Package launch tests `browser-bridge launch` itself, with a Chromium of
// its own: what it prints, that the first page of a fresh browser loads,
// and that an interrupt stops the browser and removes its profile.
package launch

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestLaunchPrintsConnectsAndCleansUp(t *testing.T) {
	e, err := browsertest.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cmd := e.Command(t.Context(), "launch", "--headless")
	stdout, _ := cmd.StdoutPipe()
	logf, _ := os.Create(filepath.Join(e.Home, "launch.log"))
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	var info struct {
		PID         int    `json:"pid"`
		Profile     string `json:"profile"`
		ExtensionID string `json:"extensionId"`
		Extension   struct {
			Connected bool   `json:"connected"`
			Version   string `json:"version"`
		} `json:"extension"`
	}
	select {
	case l := <-lines:
		if err := json.Unmarshal([]byte(l), &info); err != nil {
			t.Fatalf("launch printed %q: %v", l, err)
		}
	case <-time.After(60 * time.Second):
		b, _ := os.ReadFile(logf.Name())
		t.Fatalf("launch printed nothing in 60 s; log:\n%s", b)
	}
	if info.PID <= 0 || info.ExtensionID != protocol.DevExtensionID || !info.Extension.Connected || info.Extension.Version == "" {
		t.Fatalf("launch line: %+v", info)
	}
	if _, err := os.Stat(filepath.Join(info.Profile, "NativeMessagingHosts", protocol.NativeHostName+".json")); err != nil {
		t.Fatalf("no host manifest in the profile: %v", err)
	}

	// The first page of a fresh browser, a file: URL, loads within the
	// call (Chromium 156 sends no onUpdated event for it; the extension
	// must notice anyway).
	page := filepath.Join(t.TempDir(), "first.html")
	os.WriteFile(page, []byte("<title>First page</title><p>hello"), 0o644)
	r := e.Run(t, "open", "--url", "file://"+page, "--timeoutMs", "20000")
	if r.Exit != 0 || r.JSON["title"] != "First page" {
		t.Fatalf("open: %s %s", r.Stdout, r.Stderr)
	}
	if w, ok := r.JSON["warnings"]; ok {
		t.Fatalf("the first page did not finish loading: %v", w)
	}

	// An interrupt stops the browser and removes the temporary profile.
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("launch exited with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("launch did not stop within 20 s of an interrupt")
	}
	if syscall.Kill(info.PID, 0) == nil && !zombie(info.PID) {
		t.Fatalf("the browser (pid %d) is still running", info.PID)
	}
	if _, err := os.Stat(info.Profile); !os.IsNotExist(err) {
		t.Fatalf("the temporary profile %s is still there", info.Profile)
	}
}

func zombie(pid int) bool {
	if runtime.GOOS != "linux" {
		return false
	}
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return true // gone
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestLaunchFailsClearlyWithoutABrowser(t *testing.T) {
	e, err := browsertest.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r := e.Run(t, "launch", "--headless", "--browser", "/nonexistent/chromium")
	if r.Exit == 0 || !strings.Contains(string(r.Stderr), "/nonexistent/chromium") {
		t.Fatalf("launch with a missing browser: exit %d, stderr %s", r.Exit, r.Stderr)
	}
	// It stops what it started: the daemon too, as none ran before.
	// (The lock goes when the process has exited.)
	layout := paths.ForHome(e.Home)
	for i := 0; client.Running(layout); i++ {
		if i == 60 {
			t.Fatal("the failed launch left the daemon it started running")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
