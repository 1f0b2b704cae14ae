package install

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// fakeHome has a Chromium and a Brave config folder, and knows of a Chrome
// that is not installed.
func fakeHome(t *testing.T) (home string, browsers []paths.Browser) {
	home = t.TempDir()
	for _, d := range []string{".config/chromium", ".config/BraveSoftware/Brave-Browser"} {
		os.MkdirAll(filepath.Join(home, d), 0o700)
	}
	for _, b := range [][2]string{{"Google Chrome", ".config/google-chrome"}, {"Chromium", ".config/chromium"}, {"Brave", ".config/BraveSoftware/Brave-Browser"}} {
		browsers = append(browsers, paths.Browser{Name: b[0], ManifestDir: filepath.Join(home, b[1], "NativeMessagingHosts")})
	}
	return home, browsers
}

// hostBin is a stand-in host binary in a private folder.
func hostBin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "browser-bridge")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func readManifest(t *testing.T, p string) (m struct {
	Name    string   `json:"name"`
	Path    string   `json:"path"`
	Type    string   `json:"type"`
	Origins []string `json:"allowed_origins"`
}) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInstallRegistersFoundBrowsersAndUninstallUndoesIt(t *testing.T) {
	home, browsers := fakeHome(t)
	bin := hostBin(t)
	ext := filepath.Join(home, "state", "extension")
	other := "abcdefghijklmnopabcdefghijklmnop"
	res, err := Install(Options{Exe: bin, ExtensionDir: ext, ExtraOrigins: []string{other}, Browsers: browsers})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Manifests) != 2 || !slices.Equal(res.NotFound, []string{"Google Chrome"}) {
		t.Fatalf("manifests %v, not found %v", res.Manifests, res.NotFound)
	}
	for _, m := range res.Manifests {
		got := readManifest(t, m.Path)
		want := []string{"chrome-extension://" + protocol.DevExtensionID + "/", "chrome-extension://" + other + "/"}
		if got.Name != protocol.NativeHostName || got.Path != bin || got.Type != "stdio" || !slices.Equal(got.Origins, want) {
			t.Errorf("%s: %+v", m.Path, got)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".config/google-chrome")); err == nil {
		t.Error("install created the folder of a browser that is not there")
	}
	if _, err := os.Stat(filepath.Join(ext, "manifest.json")); err != nil {
		t.Errorf("no extension written: %v", err)
	}
	// The host started by Chrome reads the extra origin from beside itself.
	if !slices.Contains(nmhost.AllowedOrigins(bin), "chrome-extension://"+other+"/") {
		t.Errorf("the host does not allow %s: %v", other, nmhost.AllowedOrigins(bin))
	}

	// A manifest of another host under our file name is not ours to remove.
	foreign := filepath.Join(home, ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts", ManifestName)
	os.WriteFile(foreign, []byte(`{"name":"com.example.other"}`), 0o644)
	removed, err := Uninstall(bin, ext, browsers, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed.Manifests) != 1 || removed.ExtensionFolder != ext || removed.OriginsFile == "" {
		t.Fatalf("removed %+v", removed)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Error("uninstall removed another program's manifest")
	}
	if _, err := os.Stat(ext); err == nil {
		t.Error("the extension folder is still there")
	}
	if slices.Contains(nmhost.AllowedOrigins(bin), "chrome-extension://"+other+"/") {
		t.Error("the extra origin survived uninstall")
	}
}

func TestInstallWithoutBrowserSaysWhereItLooked(t *testing.T) {
	home := t.TempDir()
	ext := filepath.Join(home, "ext")
	bin := hostBin(t)
	_, err := Install(Options{Exe: bin, ExtensionDir: ext,
		Browsers: []paths.Browser{{Name: "Chromium", ManifestDir: filepath.Join(home, ".config/chromium/NativeMessagingHosts")}}})
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), filepath.Join(home, ".config/chromium")) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(ext); err == nil {
		t.Error("wrote the extension although nothing could use it")
	}
	// A given folder is enough.
	dir := filepath.Join(home, "profile", "NativeMessagingHosts")
	res, err := Install(Options{Exe: bin, ExtensionDir: ext, ManifestDirs: []string{dir}})
	if err != nil || len(res.Manifests) != 1 {
		t.Fatalf("with --manifest-dir: %v %+v", err, res)
	}
}

func TestInstallRefusesBadInput(t *testing.T) {
	_, browsers := fakeHome(t)
	bin := hostBin(t)
	if _, err := Install(Options{Exe: "browser-bridge", ExtensionDir: t.TempDir(), Browsers: browsers}); err == nil {
		t.Error("a relative host path was accepted")
	}
	if _, err := Install(Options{Exe: bin, ExtensionDir: t.TempDir(), ExtraOrigins: []string{"not-an-id"}, Browsers: browsers}); err == nil || !strings.Contains(err.Error(), "not-an-id") {
		t.Error("a bad origin was accepted")
	}
	// Someone's own folder is never cleared to make room for the extension.
	mine := t.TempDir()
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Install(Options{Exe: bin, ExtensionDir: mine, Browsers: browsers}); err == nil {
		t.Error("install wrote over a folder of other files")
	}
	if _, err := os.Stat(filepath.Join(mine, "notes.txt")); err != nil {
		t.Error("install removed someone's file")
	}
}

func TestSandboxedBrowsersAreNamed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("snap and flatpak are Linux only")
	}
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "snap/chromium"), 0o700)
	os.MkdirAll(filepath.Join(home, ".var/app/com.google.Chrome"), 0o700)
	got := Sandboxed(home)
	if len(got) != 2 || got[0].Browser != "Chromium (snap)" || got[1].Browser != "Google Chrome (flatpak)" || got[0].Why == "" {
		t.Fatalf("sandboxed: %+v", got)
	}
}
