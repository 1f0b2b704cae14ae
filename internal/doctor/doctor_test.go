//go:build unix

package doctor

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

func TestManifestChecks(t *testing.T) {
	home := t.TempDir()
	exe := filepath.Join(home, "browser-bridge")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	browser := func(name string) paths.Browser {
		dir := filepath.Join(home, name)
		os.MkdirAll(dir, 0o700)
		return paths.Browser{Name: name, ManifestDir: filepath.Join(dir, "NativeMessagingHosts")}
	}
	good, missing, broken, other := browser("good"), browser("missing"), browser("broken"), browser("other")
	origins := []string{"chrome-extension://" + protocol.DevExtensionID + "/"}
	install.WriteManifest(good.ManifestDir, exe, origins)
	// install refuses to register a host that is not there, so by hand.
	os.MkdirAll(broken.ManifestDir, 0o700)
	os.WriteFile(filepath.Join(broken.ManifestDir, install.ManifestName),
		[]byte(`{"name":"`+protocol.NativeHostName+`","path":"`+filepath.Join(home, "gone")+`","type":"stdio","allowed_origins":["`+origins[0]+`"]}`), 0o644)
	install.WriteManifest(other.ManifestDir, exe, []string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"})
	absent := paths.Browser{Name: "absent", ManifestDir: filepath.Join(home, "absent", "NativeMessagingHosts")}

	got := map[string]Check{}
	for _, c := range checkManifests(exe, []paths.Browser{good, missing, broken, other, absent}) {
		got[strings.TrimPrefix(c.Name, "host manifest: ")] = c
	}
	if c := got["good"]; !c.OK || c.Warn {
		t.Errorf("good: %+v", c)
	}
	if c := got["missing"]; !c.OK || !c.Warn || c.Fix == "" {
		t.Errorf("missing: %+v", c)
	}
	if c := got["broken"]; c.OK || !strings.Contains(c.Detail, "not an executable") {
		t.Errorf("broken: %+v", c)
	}
	if c := got["other"]; c.OK || !strings.Contains(c.Detail, "does not allow") {
		t.Errorf("other: %+v", c)
	}
	if _, ok := got["absent"]; ok {
		t.Error("a browser that is not installed was checked")
	}
}

func TestStatusChecks(t *testing.T) {
	cases := []struct {
		status string
		want   map[string]string // check -> "ok", "warn" or "fail"
	}{
		{`{"connected":true,"daemon":{"pid":1,"version":"` + version.Version + `"},"extension":{"version":"` + version.Version + `","protocol":1,"incognitoAllowed":true,"fileAccess":true}}`,
			map[string]string{"daemon": "ok", "extension": "ok", "file access": "ok", "incognito": "ok"}},
		// An extension left behind by an update.
		{`{"connected":true,"daemon":{"pid":1,"version":"` + version.Version + `"},"extension":{"version":"0.0.1-old","protocol":1,"incognitoAllowed":true}}`,
			map[string]string{"daemon": "ok", "extension": "warn"}},
		{`{"connected":true,"daemon":{"pid":1,"version":"0.0.0-old"},"extension":{"incognitoAllowed":false,"fileAccess":false}}`,
			map[string]string{"daemon": "fail", "extension": "ok", "file access": "warn", "incognito": "warn"}},
		{`{"connected":true,"daemon":{"pid":1,"version":"` + version.Version + `"},"error":{"code":"version_mismatch","message":"old"}}`,
			map[string]string{"extension": "fail"}},
		{`{"connected":false,"daemon":{"pid":1,"version":"` + version.Version + `"}}`,
			map[string]string{"daemon": "ok", "extension": "fail"}},
	}
	for i, c := range cases {
		got := map[string]string{}
		for _, ch := range checkStatus([]byte(c.status)) {
			switch {
			case !ch.OK:
				got[ch.Name] = "fail"
				if ch.Fix == "" {
					t.Errorf("case %d: %s fails without a fix", i, ch.Name)
				}
			case ch.Warn:
				got[ch.Name] = "warn"
			default:
				got[ch.Name] = "ok"
			}
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("case %d: %s is %q, want %q (all: %v)", i, k, got[k], v, got)
			}
		}
	}
	for _, ch := range checkStatus([]byte(cases[1].status)) {
		if ch.Name == "extension" && (!strings.Contains(ch.Detail, "0.0.1-old") || !strings.Contains(ch.Detail, version.Version) || !strings.Contains(ch.Fix, "install")) {
			t.Errorf("the skew is not named: %+v", ch)
		}
	}
}

// layoutWith makes a state folder of mode dirMode holding a secret of mode
// secretMode (both set past the umask).
func layoutWith(t *testing.T, dirMode, secretMode os.FileMode) paths.Layout {
	t.Helper()
	l := paths.ForHome(filepath.Join(t.TempDir(), "state"))
	if _, err := secret.Ensure(l.Secret()); err != nil {
		t.Fatal(err)
	}
	os.Chmod(l.Secret(), secretMode)
	os.Chmod(l.State, dirMode)
	return l
}

func checksOf(r Report) map[string]Check {
	out := map[string]Check{}
	for _, c := range r.Checks {
		out[c.Name] = c
	}
	return out
}

// statusOK is a daemon that answers; started records that doctor asked it.
func statusOK(started *bool, then func()) func(context.Context) (json.RawMessage, error) {
	return func(context.Context) (json.RawMessage, error) {
		*started = true
		if then != nil {
			then()
		}
		return json.RawMessage(`{"connected":false,"daemon":{"pid":1,"version":"` + version.Version + `"}}`), nil
	}
}

// Doctor started the daemon first (which made the
// folder private) and then reported the folder as private. Now a loose
// folder or secret is a failure with its fix, and the daemon is not
// started, so the files stay as they were found.
func TestDoctorReportsLooseStateBeforeStartingAnything(t *testing.T) {
	for _, tc := range []struct {
		dir, file   os.FileMode
		failing     string // the check that fails
		detail, fix string
	}{
		{0o755, 0o600, "state folder", "mode 0755", "replaces the secret"},
		{0o777, 0o600, "state folder", "add, remove or replace files", "remove "},
		{0o700, 0o644, "secret", "mode 0644", "chmod 600"},
		{0o700, 0o640, "secret", "others could read", "replaces the secret"},
	} {
		l := layoutWith(t, tc.dir, tc.file)
		started := false
		r := Run(context.Background(), Options{Layout: l, Status: statusOK(&started, nil)})
		c := checksOf(r)[tc.failing]
		if r.OK || c.OK || !strings.Contains(c.Detail, tc.detail) || !strings.Contains(c.Fix, tc.fix) {
			t.Errorf("%#o/%#o: report ok=%v, %s: %+v", tc.dir, tc.file, r.OK, tc.failing, c)
		}
		if started {
			t.Errorf("%#o/%#o: doctor started the daemon on loose state", tc.dir, tc.file)
		}
		if d := checksOf(r)["daemon"]; !d.Warn || !strings.Contains(d.Detail, "not checked") {
			t.Errorf("%#o/%#o: daemon check %+v", tc.dir, tc.file, d)
		}
		if fi, _ := os.Stat(l.State); fi.Mode().Perm() != tc.dir {
			t.Errorf("%#o/%#o: doctor changed the folder's mode to %v", tc.dir, tc.file, fi.Mode().Perm())
		}
	}
}

func TestDoctorReportsAnExposedSecretNotYetReplaced(t *testing.T) {
	l := layoutWith(t, 0o755, 0o600)
	paths.EnsurePrivateDir(l.State) // a CLI found it open; no daemon since
	started := false
	r := Run(context.Background(), Options{Layout: l, Status: statusOK(&started, nil)})
	if c := checksOf(r)["secret"]; c.OK || !strings.Contains(c.Detail, "not replaced yet") || !strings.Contains(c.Fix, "stop the daemon") {
		t.Errorf("secret check: %+v", c)
	}
	if started {
		t.Error("doctor started the daemon")
	}
	// The daemon's Prepare replaces it; then all is well.
	if _, _, err := secret.Prepare(l); err != nil {
		t.Fatal(err)
	}
	r = Run(context.Background(), Options{Layout: l, Status: statusOK(&started, nil)})
	if c := checksOf(r)["secret"]; !c.OK || c.Warn {
		t.Errorf("secret check after Prepare: %+v", c)
	}
	if !started {
		t.Error("doctor did not ask the daemon once the state was sound")
	}
}

// Nothing there yet is not a failure: the daemon doctor starts makes the
// folder and the secret, and the report says how they are then.
func TestDoctorLooksAgainAtWhatTheDaemonCreates(t *testing.T) {
	l := paths.ForHome(filepath.Join(t.TempDir(), "state"))
	started := false
	r := Run(context.Background(), Options{Layout: l, Status: statusOK(&started, func() {
		if _, _, err := secret.Prepare(l); err != nil {
			t.Fatal(err)
		}
	})})
	c := checksOf(r)
	if !started || !c["state folder"].OK || c["state folder"].Warn || !c["secret"].OK || c["secret"].Warn {
		t.Errorf("after the daemon made the state: started=%v %+v %+v", started, c["state folder"], c["secret"])
	}
}

func TestDoctorReportsStateOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot chown to another user (CI runs the tests as root)")
	}
	l := layoutWith(t, 0o700, 0o600)
	os.Chown(l.Secret(), 12345, 12345)
	r := Run(context.Background(), Options{Layout: l})
	if c := checksOf(r)["secret"]; c.OK || !strings.Contains(c.Detail, "uid 12345") {
		t.Errorf("another user's secret: %+v", c)
	}
	if c := checksOf(r)["state folder"]; c.OK || !strings.Contains(c.Detail, "secret (uid 12345)") {
		t.Errorf("a folder with another user's file: %+v", c)
	}
	l = layoutWith(t, 0o700, 0o600)
	os.Chown(l.State, 12345, 12345)
	if c := checksOf(Run(context.Background(), Options{Layout: l}))["state folder"]; c.OK || !strings.Contains(c.Detail, "uid 12345") {
		t.Errorf("another user's folder: %+v", c)
	}
}

func TestDoctorChecksTheHostBinary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bin")
	os.Mkdir(dir, 0o700)
	exe := filepath.Join(dir, "browser-bridge")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	l := layoutWith(t, 0o700, 0o600)
	if c := checksOf(Run(context.Background(), Options{Layout: l, Exe: exe}))["host binary"]; !c.OK || c.Warn {
		t.Errorf("a private host binary: %+v", c)
	}
	os.Chmod(dir, 0o777)
	if c := checksOf(Run(context.Background(), Options{Layout: l, Exe: exe}))["host binary"]; c.OK || c.Fix == "" {
		t.Errorf("a host binary in a 0777 folder: %+v", c)
	}
}

// A sticky folder's mode reads as chmod writes it (doctor
// printed 04000777).
func TestUnixMode(t *testing.T) {
	for _, tt := range []struct {
		m    fs.FileMode
		want string
	}{
		{fs.ModeDir | fs.ModeSticky | 0o777, "1777 (sticky)"},
		{fs.ModeDir | 0o755, "0755"},
		{fs.ModeSetgid | 0o770, "2770"},
	} {
		if got := unixMode(tt.m); got != tt.want {
			t.Errorf("unixMode(%v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}
