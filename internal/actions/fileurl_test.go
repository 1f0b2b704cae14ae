package actions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TestFileURLsAreCheckedAsChromeReadsThem: the forms of file: URL that
// net/url reads unlike Chrome are checked by the
// path Chrome opens, against the rules of upload, in open (CheckURL) and
// on the pages actions read (fileURLRefused).
func TestFileURLsAreCheckedAsChromeReadsThem(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "page.html"), []byte("<p>hi"), 0o644)
	refused := map[string]string{
		"file:root/.ssh/id_rsa":                            "names secrets",
		"file:/root/.ssh/id_rsa":                           "names secrets",
		"file:proc/self/environ":                           "pseudo-filesystem",
		`file:///proc\self\environ`:                        "pseudo-filesystem",
		`file:\\\proc\self\environ`:                        "pseudo-filesystem",
		"FILE:///proc/self/environ":                        "pseudo-filesystem",
		"file:///home/u/docs/%2e%2e/.ssh/id_rsa":           "names secrets",
		"file:///home/u/%2essh/id_rsa":                     "names secrets",
		"file:///tmp/%2e%2e/proc/self/environ":             "pseudo-filesystem",
		"file:///home/u/docs%2f..%2f.ssh%2fid_rsa":         "escaped slash",
		"file:///home/u/.aws/credentials":                  "names secrets",
		"file:///home/u/.config/chromium/Default/Cookies":  "names secrets",
		"file:///home/u/.bash_history":                     "names secrets",
		"file:///home/u/certs/server.key":                  "names secrets",
		"file://evil.example/share/page.html":              "another host",
		" file:///root/.ssh/id_rsa":                        "names secrets",
		"fi\tle:///root/.ss\nh/id_rsa":                     "names secrets",
		"file:///home/u/.config/gcloud/credentials.db?x=1": "names secrets",
	}
	for u, why := range refused {
		err := CheckURL(u)
		if protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), why) {
			t.Errorf("CheckURL(%q) = %v; want invalid_argument saying %q", u, err, why)
		}
		if got := fileURLRefused(u); !strings.Contains(got, why) {
			t.Errorf("fileURLRefused(%q) = %q; want %q", u, got, why)
		}
	}
	accepted := []string{
		"file://" + dir + "/page.html",
		"file:" + dir + "/page.html",
		"file:" + strings.TrimPrefix(dir, "/") + "/page.html",
		"file://localhost" + dir + "/page.html",
		"file://" + strings.ReplaceAll(dir, "/", `\`) + `\page.html`,
		"file://" + dir + "/sub/%2e%2e/page.html",
		"file://" + dir + "/",
		"file:///home/u/Documents/login.keyring",
		"file:///home/u/slides.keynote",
	}
	for _, u := range accepted {
		if err := CheckURL(u); err != nil {
			t.Errorf("CheckURL(%q): %v", u, err)
		}
		if got := fileURLRefused(u); got != "" {
			t.Errorf("fileURLRefused(%q) = %q", u, got)
		}
	}
	for _, u := range []string{"https://example.com/.ssh/id_rsa", "about:blank", "http://x/file:///root/.ssh/id_rsa"} {
		if got := fileURLRefused(u); got != "" {
			t.Errorf("fileURLRefused(%q) = %q, not a file: URL", u, got)
		}
	}
}
