package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/install"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
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
		{`{"connected":true,"daemon":{"pid":1,"version":"` + version.Version + `"},"extension":{"version":"1","protocol":1,"incognitoAllowed":true,"fileAccess":true}}`,
			map[string]string{"daemon": "ok", "extension": "ok", "file access": "ok", "incognito": "ok"}},
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
}
