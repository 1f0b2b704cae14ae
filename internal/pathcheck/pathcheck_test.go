//go:build unix

package pathcheck

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("docs/report.pdf")
	write("real/photo.jpg")
	os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "linkdir"))
	os.Symlink(good, filepath.Join(dir, "link.pdf"))
	os.Symlink(filepath.Join(dir, "Private_Key"), filepath.Join(dir, "innocent"))
	write("Private_Key/a.txt")
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	unreadable := write("locked.txt")
	os.Chmod(unreadable, 0)

	tests := []struct {
		name string
		path string
		ok   bool
		rule string
	}{
		{"plain file", good, true, ""},
		{"dot dot", filepath.Join(dir, "docs", "..", "docs", "report.pdf"), true, ""},
		{"double slash", strings.Replace(good, "/docs/", "//docs//", 1), true, ""},
		{"symlinked parent is resolved", filepath.Join(dir, "linkdir", "photo.jpg"), true, ""},
		{"relative", "docs/report.pdf", false, "absolute"},
		{"symlink itself", filepath.Join(dir, "link.pdf"), false, "symlink"},
		{"trailing slash", good + "/", false, "cannot be read"},
		{"missing", filepath.Join(dir, "nope"), false, "does not exist"},
		{"directory", filepath.Join(dir, "docs"), false, "folder"},
		{"fifo", fifo, false, "FIFO"},
		{"device", "/dev/null", false, "device"},
		{"denied name any case", write(".SSH/config"), false, "names secrets"},
		{"denied via symlinked parent", filepath.Join(dir, "innocent", "a.txt"), false, "Private_Key"},
		{"denied extension", write("server.PEM"), false, ".PEM"},
		{"env file", write("app/.env"), false, ".env"},
		{"long s folds to s", write(".ſsh/key.txt"), false, "names secrets"},
		{"empty", "", false, "empty"},
	}
	if os.Geteuid() != 0 { // root reads anything
		tests = append(tests, struct {
			name string
			path string
			ok   bool
			rule string
		}{"unreadable", unreadable, false, "permission"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Check([]string{tt.path})
			if tt.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if !filepath.IsAbs(got[0]) || strings.Contains(got[0], "//") || strings.Contains(got[0], "..") {
					t.Fatalf("not canonical: %q", got[0])
				}
				return
			}
			if protocol.CodeOf(err) != protocol.CodeUploadPathRejected {
				t.Fatalf("got %v, want upload_path_rejected", err)
			}
			if !strings.Contains(err.Error(), tt.rule) {
				t.Fatalf("error %q does not name the rule %q", err, tt.rule)
			}
			if tt.path != "" && !strings.Contains(err.Error(), tt.path) {
				t.Fatalf("error %q does not name the path", err)
			}
		})
	}
}

func TestCountLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(p, nil, 0o644)
	many := make([]string, MaxPaths+1)
	for i := range many {
		many[i] = p
	}
	if _, err := Check(many); protocol.CodeOf(err) != protocol.CodeUploadPathRejected {
		t.Fatalf("21 paths: %v", err)
	}
	if _, err := Check(many[:MaxPaths]); err != nil {
		t.Fatalf("20 paths: %v", err)
	}
	if _, err := Check(nil); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
		t.Fatalf("no paths: %v", err)
	}
}

// FuzzCheck feeds arbitrary path strings: Check never panics, and whatever
// it accepts is an absolute, canonical regular file with one link, whose
// path neither as written nor resolved breaks a rule, not on a
// pseudo-filesystem.
func FuzzCheck(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "ok.txt")
	os.WriteFile(good, []byte("x"), 0o644)
	for _, s := range []string{good, "/", "", "relative", "/dev/null", good + "/..", "/etc/../etc/hostname", dir + "//ok.txt", "/root/.ssh/id_rsa", "\x00", "/proc/self/environ", "/proc/self/status", "/sys/kernel/uevent_seqnum", "/dev/shm",
		"/root/.aws/credentials", "/root/.netrc", "/root/.git-credentials", "/root/.kube/config", "/root/.docker/config.json", "/root/.npmrc", "/root/.pypirc",
		"/root/.config/gh/hosts.yml", "/root/.config/gcloud/credentials.db", "/root/.config/google-chrome/Default/Login Data", "/root/.config/chromium/Local State",
		"/root/.mozilla/firefox/p.default/key4.db", "/root/.password-store/x.gpg", "/tmp/id_ed25519", "/tmp/cert.p12", "/tmp/server.key~", "/root/.bash_history",
		"/root/.local/share/fish/fish_history", dir + "/login.keyring", dir + "/.." + "/ok.txt", dir + "/./ok.txt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := Check([]string{p})
		if err != nil {
			if c := protocol.CodeOf(err); c != protocol.CodeUploadPathRejected {
				t.Fatalf("%q: code %q", p, c)
			}
			return
		}
		c := got[0]
		if !filepath.IsAbs(c) || filepath.Clean(c) != c || ruleRefusal(c, true, true) != "" || ruleRefusal(p, false, true) != "" {
			t.Fatalf("%q accepted as %q", p, c)
		}
		if where, err := pseudoFS(c); where != "" || err != nil {
			t.Fatalf("%q accepted as %q, which is %s (%v)", p, c, where, err)
		}
		fi, err := os.Lstat(c)
		if err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%q accepted but %q is not a regular file", p, c)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Nlink != 1 {
			t.Fatalf("%q accepted with %d links", p, st.Nlink)
		}
	})
}
