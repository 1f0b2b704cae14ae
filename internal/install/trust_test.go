package install

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/nmhost"
)

// binIn puts a stand-in host binary of mode binMode in a new folder of mode
// dirMode (both set past the umask).
func binIn(t *testing.T, dirMode, binMode os.FileMode) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "browser-bridge")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(bin, binMode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, dirMode); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestCheckHost(t *testing.T) {
	for _, tc := range []struct {
		name             string
		dirMode, binMode os.FileMode
		refuse, warn     string // a word of the error or a warning; "" for none
	}{
		// What the test suite and go build make: private temp folders.
		{"0700 folder", 0o700, 0o755, "", ""},
		{"0755 folder", 0o755, 0o755, "", ""},
		{"0755 folder, 0500 binary", 0o755, 0o500, "", ""},
		// Registered without a word.
		{"0777 folder", 0o777, 0o755, "any user could replace", ""},
		{"0757 folder", 0o757, 0o755, "any user could replace", ""},
		{"1777 folder", 0o777 | os.ModeSticky, 0o755, "", "can add files beside it"},
		{"0775 folder", 0o775, 0o755, "", "everyone in its group"},
		{"0757 binary", 0o755, 0o757, "any user could change", ""},
		{"0775 binary", 0o755, 0o775, "", "everyone in its group"},
		{"not executable", 0o755, 0o644, "not an executable", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := binIn(t, tc.dirMode, tc.binMode)
			warnings, err := CheckHost(bin)
			switch {
			case tc.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refuse != "" && (err == nil || !strings.Contains(err.Error(), tc.refuse)):
				t.Fatalf("err = %v, want one that says %q", err, tc.refuse)
			}
			if tc.warn == "" && len(warnings) > 0 {
				t.Errorf("warnings %q, want none", warnings)
			}
			if tc.warn != "" && !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, tc.warn) }) {
				t.Errorf("warnings %q, want one that says %q", warnings, tc.warn)
			}
		})
	}
	if _, err := CheckHost(filepath.Join(t.TempDir(), "gone")); err == nil {
		t.Error("a host binary that is not there was accepted")
	}
	// A symlink is judged by what it leads to.
	link := filepath.Join(t.TempDir(), "browser-bridge")
	os.Symlink(binIn(t, 0o777, 0o755), link)
	if _, err := CheckHost(link); err == nil {
		t.Error("a symlink into a 0777 folder was accepted")
	}
}

// Only root can give files away; CI runs the tests as root, so this runs
// there.
func TestCheckHostRefusesAnotherUsersBinaryOrFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot chown to another user")
	}
	bin := binIn(t, 0o755, 0o755)
	os.Chown(bin, 12345, 12345)
	if _, err := CheckHost(bin); err == nil || !strings.Contains(err.Error(), "uid 12345") {
		t.Errorf("another user's binary: %v", err)
	}
	bin = binIn(t, 0o755, 0o755)
	os.Chown(filepath.Dir(bin), 12345, 12345)
	if _, err := CheckHost(bin); err == nil || !strings.Contains(err.Error(), "uid 12345") {
		t.Errorf("a binary in another user's folder: %v", err)
	}
	// Root's own files are fine: /usr/local/bin is root's.
	bin = binIn(t, 0o755, 0o755)
	os.Chown(bin, 0, 0)
	if _, err := CheckHost(bin); err != nil {
		t.Errorf("a binary of root: %v", err)
	}
}

// install refuses such a host before writing anything; launch registers
// its host through WriteManifest, which refuses it too.
func TestInstallRefusesAnOpenHostFolder(t *testing.T) {
	home, browsers := fakeHome(t)
	bin := binIn(t, 0o777, 0o755)
	ext := filepath.Join(home, "state", "extension")
	if _, err := Install(Options{Exe: bin, ExtensionDir: ext, Browsers: browsers}); err == nil {
		t.Fatal("install registered a host in a 0777 folder")
	}
	for _, p := range []string{ext, filepath.Join(browsers[1].ManifestDir, ManifestName)} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("install wrote %s before refusing", p)
		}
	}
	dir := filepath.Join(t.TempDir(), "NativeMessagingHosts")
	if err := WriteManifest(dir, bin, nil); err == nil {
		t.Error("WriteManifest registered a host in a 0777 folder")
	}
	// A warning does not stop install, and is in its result.
	bin = binIn(t, 0o775, 0o755)
	res, err := Install(Options{Exe: bin, ExtensionDir: ext, Browsers: browsers})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], filepath.Dir(bin)) {
		t.Fatalf("install beside a group-writable folder: %v %+v", err, res)
	}
}

// An origins file someone else left beside the binary is not rewritten in
// place (it would keep its owner and mode, and the host would ignore it):
// install writes its own and renames it over.
func TestInstallReplacesAnOriginsFileItDidNotWrite(t *testing.T) {
	_, browsers := fakeHome(t)
	bin := hostBin(t)
	p := filepath.Join(filepath.Dir(bin), nmhost.OriginsFile)
	planted := strings.Repeat("b", 32)
	os.WriteFile(p, []byte(planted+"\n"), 0o600)
	os.Chmod(p, 0o666)
	warnings, err := CheckHost(bin)
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], p) {
		t.Fatalf("CheckHost with a 0666 origins file: %q %v", warnings, err)
	}
	mine := strings.Repeat("c", 32)
	if _, err := Install(Options{Exe: bin, ExtensionDir: filepath.Join(t.TempDir(), "ext"), ExtraOrigins: []string{mine}, Browsers: browsers}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("origins file after install: %v %v", fi, err)
	}
	got := nmhost.AllowedOrigins(bin)
	if !slices.Contains(got, "chrome-extension://"+mine+"/") || slices.Contains(got, "chrome-extension://"+planted+"/") {
		t.Errorf("the host allows %v", got)
	}
}
