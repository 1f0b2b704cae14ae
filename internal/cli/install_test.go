package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/install"
)

// install run from a temporary folder (here the test binary's own, in the
// go build cache) copies the binary to the lasting per-user folder and
// names the copy in the host manifest.
func TestInstallFromATemporaryPlaceCopiesItself(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "AppData", "Local"))
	t.Setenv("BROWSER_BRIDGE_HOME", "")
	t.Setenv("BROWSER_BRIDGE_INSTALL_DIR", "")
	manifests := filepath.Join(home, "profile", "NativeMessagingHosts")
	out, err := runCLI(t, "install", "--manifest-dir", manifests)
	if err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	var res struct{ HostBinary, CopiedFrom string }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("install printed %q: %v", out, err)
	}
	binDir := map[string]string{
		"linux":   filepath.Join(home, ".local", "share", "browser-bridge", "bin"),
		"darwin":  filepath.Join(home, "Library", "Application Support", "BrowserBridge", "bin"),
		"windows": filepath.Join(home, "AppData", "Local", "BrowserBridge", "bin"),
	}[runtime.GOOS]
	if binDir != "" && filepath.Dir(res.HostBinary) != binDir {
		t.Errorf("host binary %s, want a copy in %s", res.HostBinary, binDir)
	}
	if res.CopiedFrom == "" || res.CopiedFrom == res.HostBinary {
		t.Errorf("copiedFrom %q: the install did not say what it copied", res.CopiedFrom)
	}
	data, err := os.ReadFile(filepath.Join(manifests, install.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Path string }
	if err := json.Unmarshal(data, &m); err != nil || m.Path != res.HostBinary {
		t.Errorf("the manifest names %q (%v), want the copy %q", m.Path, err, res.HostBinary)
	}
	if _, err := os.Stat(m.Path); err != nil {
		t.Errorf("the copy the manifest names is not there: %v", err)
	}

	// Run again from the copy's folder: nothing is copied a second time.
	t.Setenv("BROWSER_BRIDGE_INSTALL_DIR", filepath.Dir(res.CopiedFrom))
	out, err = runCLI(t, "install", "--manifest-dir", manifests)
	if err != nil {
		t.Fatalf("install again: %v\n%s", err, out)
	}
	var again struct{ HostBinary, CopiedFrom string }
	if err := json.Unmarshal([]byte(out), &again); err != nil || again.CopiedFrom != "" || again.HostBinary != res.CopiedFrom {
		t.Errorf("install from BROWSER_BRIDGE_INSTALL_DIR registered %q, copied from %q; want the binary itself, no copy", again.HostBinary, again.CopiedFrom)
	}
}
