package pathcheck

import (
	"net/url"
	"path"
	"strings"
	"testing"
)

func TestFileURLPath(t *testing.T) {
	for in, want := range map[string]string{
		"file:///etc/hosts":                  "/etc/hosts",
		"FILE:///etc/hosts":                  "/etc/hosts",
		"file://localhost/etc/hosts":         "/etc/hosts",
		"file://LocalHost/etc/hosts":         "/etc/hosts",
		"file:/etc/hosts":                    "/etc/hosts",
		"file:etc/hosts":                     "/etc/hosts",
		"file:root/.ssh/id_rsa":              "/root/.ssh/id_rsa",
		"file:proc/self/environ":             "/proc/self/environ",
		`file:///proc\self\environ`:          "/proc/self/environ",
		`file:\\\proc\self\environ`:          "/proc/self/environ",
		"file:////etc/hosts":                 "/etc/hosts",
		"file://///etc/hosts":                "/etc/hosts",
		"file:///home/u/docs/../.ssh/id_rsa": "/home/u/.ssh/id_rsa",
		"file:///home/u/docs/%2e%2e/.ssh/x":  "/home/u/.ssh/x",
		"file:///home/u/docs/.%2E/.ssh/x":    "/home/u/.ssh/x",
		"file:///home/u/%2essh/id_rsa":       "/home/u/.ssh/id_rsa",
		"file:///home/u/%2Essh/":             "/home/u/.ssh",
		"file:///a/./b/":                     "/a/b",
		"file:///../../etc/hosts":            "/etc/hosts",
		"file:///tmp/a%20b.html":             "/tmp/a b.html",
		"file:///tmp/100%.html":              "/tmp/100%.html",
		"file:///tmp/%zz":                    "/tmp/%zz",
		"file:///tmp/%252e%252e/x":           "/tmp/%2e%2e/x",
		"file:///etc/hosts?x=/../../root":    "/etc/hosts",
		"file:///etc/hosts#../../root":       "/etc/hosts",
		"  file:///etc/hosts  ":              "/etc/hosts",
		"fi\tle:///et\nc/ho\rsts":            "/etc/hosts",
		"file://":                            "/",
		"file:":                              "/",
		"file:///":                           "/",
		"file:///\x8f0":                      "/\x8f0", // not UTF-8: kept as it is
	} {
		got, err := FileURLPath(in)
		if err != nil || got != want {
			t.Errorf("FileURLPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"file://evil.example/etc/hosts":   "another host",
		"file://localhost:80/etc/hosts":   "another host",
		`file:\\evil.example\share\x`:     "another host",
		`file:\/proc/self/environ`:        "another host", // two slashes of either kind start a host
		"file://%6cocalhost.evil/x":       "another host",
		"file:///home/u/docs%2f..%2f.ssh": "escaped slash",
		"file:///home/u/%2F.ssh/id_rsa":   "escaped slash",
		"file:///home/u/a%5c..%5c.ssh":    "escaped slash",
		"file:///etc/hosts%00.html":       "escaped slash",
		"http://example.com/":             "not a file: URL",
		"":                                "not a file: URL",
	} {
		if got, err := FileURLPath(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("FileURLPath(%q) = %q, %v; want an error about %q", in, got, err, why)
		}
	}
	if got, err := FileURLPath("file://%6cocalhost/etc/hosts"); err != nil || got != "/etc/hosts" {
		t.Errorf("escaped localhost: %q, %v", got, err)
	}
}

// FuzzFileURLPath: never a panic; a path given is absolute, clean and
// free of NUL; and for URLs net/url and Chrome agree on (three slashes,
// no escapes, backslashes or dots), the same path as net/url's.
func FuzzFileURLPath(f *testing.F) {
	for _, s := range []string{"file:///etc/hosts", "file:root/.ssh/id_rsa", `file:///proc\self\environ`, "file:/x", "file://localhost/x",
		"file:///a/%2e%2e/b", "file:///a%2fb", "file://h/x", "FILE:///X", " file:///x ", "file:///x?y#z", "file:////x", "file:%", "file:///%0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := FileURLPath(s)
		if err != nil {
			return
		}
		if !IsFileURL(s) || !strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.ContainsRune(p, 0) {
			t.Fatalf("%q gave %q", s, p)
		}
		if strings.HasPrefix(s, "file:///") && !strings.ContainsAny(s, "%\\.\t\r\n ?#") {
			if u, err := url.Parse(s); err == nil && path.Clean(u.Path) != p {
				t.Fatalf("%q: %q, net/url says %q", s, p, u.Path)
			}
		}
	})
}
