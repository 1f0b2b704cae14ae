package doctor

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// install writes the registry keys of the browsers found, doctor reads
// them back, and uninstall removes them (and only them). It writes to
// HKEY_CURRENT_USER, so on a real Windows it runs only when asked: it
// would replace the user's own registration of the bridge.
func TestRegistryInstallDoctorUninstall(t *testing.T) {
	if paths.KeepsACLs() && os.Getenv("BROWSER_BRIDGE_TEST_REGISTRY") != "1" {
		t.Skip("writes HKCU\\SOFTWARE\\...\\NativeMessagingHosts: runs under Wine (scripts/wine-test), or on Windows with BROWSER_BRIDGE_TEST_REGISTRY=1")
	}
	dir, err := os.MkdirTemp("", "reg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	local := filepath.Join(dir, "Local")
	t.Setenv("LOCALAPPDATA", local)
	t.Setenv(paths.EnvHome, filepath.Join(dir, "home"))
	// Chromium and Edge have run for this user; Chrome and Brave have not.
	for _, d := range []string{`Chromium\User Data`, `Microsoft\Edge\User Data`} {
		os.MkdirAll(filepath.Join(local, d), 0o700)
	}
	// The host: this test binary, copied into a folder of the user's.
	exe := filepath.Join(dir, "bin", "browser-bridge.exe")
	copyFile(t, exe)
	browsers := paths.Browsers()
	t.Cleanup(func() { install.Unregister(browsers, nil) })

	res, err := install.Install(install.Options{Exe: exe, ExtensionDir: filepath.Join(dir, "home", "extension"), Browsers: browsers})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range res.Manifests {
		keys = append(keys, m.Browser+" "+m.RegistryKey)
	}
	want := []string{
		`Chromium HKCU\SOFTWARE\Chromium\NativeMessagingHosts\com.browser_bridge.host`,
		`Microsoft Edge HKCU\SOFTWARE\Microsoft\Edge\NativeMessagingHosts\com.browser_bridge.host`,
	}
	if strings.Join(keys, "; ") != strings.Join(want, "; ") {
		t.Errorf("install registered\n%s\nwant\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
	for _, b := range browsers {
		p, ok, err := install.RegisteredManifest(b)
		registered := b.Name == "Chromium" || b.Name == "Microsoft Edge"
		if b.RegistryKey == `SOFTWARE\Google\Chrome\NativeMessagingHosts` || b.Name == "Brave" {
			registered = false
		}
		if err != nil || ok != registered || (ok && p != res.Manifests[0].Path) {
			t.Errorf("%s: the key names %q (%v, %v)", b.Name, p, ok, err)
		}
	}

	checks := map[string]Check{}
	for _, c := range checkManifests(exe, browsers) {
		checks[c.Name] = c
	}
	for _, name := range []string{"Chromium", "Microsoft Edge"} {
		if c := checks["host manifest: "+name]; !c.OK || c.Warn {
			t.Errorf("doctor on %s after install: %+v", name, c)
		}
	}
	if _, ok := checks["host manifest: Brave"]; ok {
		t.Error("doctor checked Brave, which is not installed")
	}

	removed, err := install.Unregister(browsers, nil)
	if err != nil || len(removed) != 2 {
		t.Fatalf("uninstall removed %v, %v", removed, err)
	}
	if _, err := os.Stat(res.Manifests[0].Path); !os.IsNotExist(err) {
		t.Errorf("the manifest is still there: %v", err)
	}
	for _, c := range checkManifests(exe, browsers) {
		if c.Name == "host manifest: Chromium" && (!c.Warn || !strings.Contains(c.Detail, "no registry key")) {
			t.Errorf("doctor on Chromium after uninstall: %+v", c)
		}
	}
}

func copyFile(t *testing.T, to string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	os.MkdirAll(filepath.Dir(to), 0o700)
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
}
