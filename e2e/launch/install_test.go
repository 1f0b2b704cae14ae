//go:build unix

package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/launcher"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TestInstallConnectsTheUsersOwnBrowser: install registers the host with
// the Chromium it finds in the user's config folder and writes the
// extension; a Chromium started on that profile the way a user starts it
// (no launcher, so nothing but install's files), with the extension loaded
// from install's folder, connects. uninstall stops the daemon and removes
// what install wrote, leaving another program's files alone. doctor checks
// the chain in between.
func TestInstallConnectsTheUsersOwnBrowser(t *testing.T) {
	e, err := browsertest.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var config string
	for _, kv := range e.Vars {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			config = v
		}
	}
	profile := filepath.Join(config, "chromium")
	os.MkdirAll(profile, 0o700)

	// A bad origin: a clear error naming it.
	none := e.Run(t, "install", "--extension-dir", filepath.Join(e.Home, "nowhere"), "--origins", "bogus")
	if none.Exit == 0 || none.Err == nil || !strings.Contains(none.Err.Message, "bogus") {
		t.Fatalf("install with a bad origin: %s", none.Stdout)
	}

	r := e.Run(t, "install")
	if r.Exit != 0 {
		t.Fatalf("install: %s %s", r.Stdout, r.Stderr)
	}
	manifest := filepath.Join(profile, "NativeMessagingHosts", protocol.NativeHostName+".json")
	ext, _ := r.JSON["extensionFolder"].(string)
	if !strings.Contains(string(r.Stdout), manifest) || ext == "" || !strings.Contains(r.JSON["next"].(string), "Load unpacked") {
		t.Fatalf("install result: %s", r.Stdout)
	}
	if _, err := os.Stat(manifest); err != nil {
		t.Fatal(err)
	}

	bin, err := launcher.Find()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--password-store=basic",
		"--headless=new", "--disable-gpu", "--silent-debugger-extension-api", "--load-extension=" + ext}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	browser := exec.Command(bin, append(args, "about:blank")...)
	browser.Env = e.Vars
	browser.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, _ := os.Create(filepath.Join(e.Home, "chromium.log"))
	browser.Stdout, browser.Stderr = logf, logf
	if err := browser.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-browser.Process.Pid, syscall.SIGKILL)
		browser.Wait()
	}()
	deadline := time.Now().Add(45 * time.Second)
	for {
		st := e.Run(t, "status")
		if st.JSON["connected"] == true {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("the browser did not connect through install's manifest: %s\nchromium log:\n%s", st.Stdout, log)
		}
		time.Sleep(500 * time.Millisecond)
	}

	// doctor sees every link working, the user's own Chromium included.
	d := e.Run(t, "doctor", "--json")
	if d.Exit != 0 || d.JSON["ok"] != true {
		t.Fatalf("doctor: exit %d %s %s", d.Exit, d.Stdout, d.Stderr)
	}
	checks := map[string]map[string]any{}
	for _, c := range d.JSON["checks"].([]any) {
		m := c.(map[string]any)
		checks[m["check"].(string)] = m
	}
	for _, name := range []string{"secret", "state folder", "daemon", "extension", "file access", "host manifest: Chromium"} {
		if c := checks[name]; c == nil || c["ok"] != true || c["warning"] == true {
			t.Errorf("doctor check %q: %v", name, c)
		}
	}
	// A secret others can read is a broken link, with the fix.
	secretFile := paths.ForHome(e.Home).Secret()
	os.Chmod(secretFile, 0o644)
	d = e.Run(t, "doctor")
	if d.Exit != 1 || !strings.Contains(string(d.Stdout), "FAIL secret") || !strings.Contains(string(d.Stdout), "chmod 600 "+secretFile) {
		t.Errorf("doctor with a 0644 secret: exit %d\n%s", d.Exit, d.Stdout)
	}
	os.Chmod(secretFile, 0o600)

	// disable: at once, every action but status fails with
	// bridge_disabled and the host is unregistered; enable undoes both,
	// with no restart of anything.
	if r := e.Run(t, "disable"); r.Exit != 0 || r.JSON["enabled"] != false {
		t.Fatalf("disable: %s %s", r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(manifest); err == nil {
		t.Error("disable left the host registered")
	}
	if r := e.Run(t, "open", "--url", "about:blank"); r.Err == nil || r.Err.Code != protocol.CodeBridgeDisabled || !strings.Contains(r.Err.Message, "browser-bridge enable") {
		t.Errorf("open while disabled: %s", r.Stdout)
	}
	if st := e.Run(t, "status"); st.Exit != 0 || !strings.Contains(fmt.Sprint(st.JSON["disabled"]), "enable") {
		t.Errorf("status while disabled: %s", st.Stdout)
	}
	if r := e.Run(t, "enable"); r.Exit != 0 || r.JSON["enabled"] != true {
		t.Fatalf("enable: %s %s", r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(manifest); err != nil {
		t.Error("enable did not register the host again")
	}
	if st := e.Run(t, "status"); st.JSON["connected"] != true || st.JSON["disabled"] != nil {
		t.Errorf("status after enable: %s", st.Stdout)
	}

	foreign := filepath.Join(filepath.Dir(manifest), "com.example.other.json")
	os.WriteFile(foreign, []byte(`{"name":"com.example.other"}`), 0o644)
	u := e.Run(t, "uninstall")
	if u.Exit != 0 || u.JSON["daemonStopped"] != true || u.JSON["extensionFolder"] != ext {
		t.Fatalf("uninstall: %s %s", u.Stdout, u.Stderr)
	}
	for _, gone := range []string{manifest, ext, paths.ForHome(e.Home).Secret()} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("%s is still there after uninstall", gone)
		}
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Error("uninstall removed another program's manifest")
	}
}
