//go:build unix

package pathcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// secretPaths name secrets, relative to a home folder: the well-known ones
// and those added when a review found them missing. Each is refused by upload and by file: URLs,
// whether it exists or not.
var secretPaths = []string{
	// The well-known ones.
	".ssh/config", ".SSH/known_hosts", ".gnupg/pubring.kbx", "Library/Keychains/login.keychain-db",
	"Cookies", "id_rsa", "id_rsa.pub", "app/.env", "app/.env.local", "prod.env", "certs/server.pem",
	"certs/server.key", "certs/SERVER.KEY", "private_key.txt", "client_secret.json", "token.json", "api-tokens.txt",
	// Cloud and registry credentials.
	".aws/credentials", ".aws/config", ".netrc", "_netrc", ".git-credentials", ".kube/config", "kubeconfig.yaml",
	".docker/config.json", ".npmrc", ".pypirc", ".pgpass", ".my.cnf", ".s3cfg",
	".config/gh/hosts.yml", "custom-xdg/gh/hosts.yml", ".config/gh/config.yml",
	".config/gcloud/credentials.db", ".config/gcloud/configurations/config_default", ".config/gcloud/legacy_credentials/a/adc.json",
	// Browser profiles.
	".config/google-chrome/Default/Login Data", ".config/chromium/Default/Login Data For Account",
	".config/chromium/Default/Login Data-journal", ".config/chromium/Default/Web Data",
	".config/chromium/Default/Network/Cookies", ".config/google-chrome/Local State",
	"Library/Application Support/Google/Chrome/Default/Login Data",
	".mozilla/firefox/abc.default/logins.json", ".mozilla/firefox/abc.default/key4.db",
	".mozilla/firefox/abc.default/key3.db", ".mozilla/firefox/abc.default/cookies.sqlite",
	// Password stores and keyrings.
	".password-store/github.com.gpg", "vault.kdbx", ".local/share/keyrings/login.keyring",
	// Private (and public) keys of every type, anywhere.
	"Documents/id_ed25519", "id_ed25519.pub", "id_ecdsa", "id_ecdsa_sk", "id_dsa", "backup/id_ed25519_work",
	"cert.p12", "cert.PFX", "store.jks", "store.jceks", "putty.ppk", "release.keystore",
	"server.key.bak", "server.key~", ".key",
	// Shell and REPL histories.
	".bash_history", ".zsh_history", ".sh_history", ".history", ".python_history", ".psql_history",
	".mysql_history", ".node_repl_history", ".Rhistory", ".local/share/fish/fish_history", ".histfile",
	".zsh_history.bak", ".local/share/powershell/PSReadLine/ConsoleHost_history.txt", ".lesshst", ".viminfo",
}

// ordinaryPaths are like secrets in some way and are not: upload accepts
// them.
var ordinaryPaths = []string{
	"report.pdf", "login.keyring", "notes.keynote", "keys.txt", "key.txt", "monkey.png", "Keynote/slides.key-notes",
	"history.txt", "my-history-essay.pdf", "chat history.md", "login.json", "Login Page.png", "Web Design.pdf",
	"State of things.txt", "gh/readme.md", ".config/ghostty/config", "gcloud-notes.txt", "mykey.pub",
	"docker-compose.yml", ".dockerignore", "kube.png", "aws-invoice.pdf", "x.pembroke.jpg", "pem-guide.txt",
	".config/google-chrome/Default/Bookmarks", "Documents/id_card.jpg", "p12-spec.txt", ".local/share/recently-used.xbel",
	"photos/2024/keystone.jpg", "passwords-policy.pdf",
}

func TestRulesRefuseSensitiveFilesWhetherOrNotTheyExist(t *testing.T) {
	home := cleanTempDir(t)
	for _, rel := range secretPaths {
		t.Run(rel, func(t *testing.T) {
			p := filepath.Join(home, rel)
			missing := wantRefused(t, p, "names secrets")
			os.MkdirAll(filepath.Dir(p), 0o700)
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			if present := wantRefused(t, p, "names secrets"); present != missing {
				t.Fatalf("the refusal tells whether the file exists:\nmissing: %s\npresent: %s", missing, present)
			}
			if why := Refused(p); !strings.Contains(why, "names secrets") {
				t.Fatalf("file: URL rules accept %s: %q", p, why)
			}
			// A symlink with an innocent name resolves to the secret.
			link := filepath.Join(home, "innocent-"+strings.ReplaceAll(rel, "/", "_")+"-link")
			if err := os.Symlink(filepath.Dir(p), link); err != nil {
				t.Fatal(err)
			}
			if r := Refused(filepath.Join(link, filepath.Base(p))); !strings.Contains(r, "names secrets") {
				t.Fatalf("through a symlinked folder the file: URL rules accept it: %q", r)
			}
		})
	}
}

func TestRulesAcceptOrdinaryFiles(t *testing.T) {
	home := cleanTempDir(t)
	for _, rel := range ordinaryPaths {
		t.Run(rel, func(t *testing.T) {
			p := filepath.Join(home, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Check([]string{p}); err != nil {
				t.Fatalf("refused: %v", err)
			}
			if why := Refused(p); why != "" {
				t.Fatalf("file: URL refused: %s", why)
			}
		})
	}
}

// TestRulesDenyTheBridgesOwnFolders: the state folder (secret, settings,
// registry, daemon log) and the staged uploads of the layout the
// environment names, and of the default layout that BROWSER_BRIDGE_HOME
// leaves behind, are refused; the screenshots in the cache are not.
func TestRulesDenyTheBridgesOwnFolders(t *testing.T) {
	dir := cleanTempDir(t)
	home := filepath.Join(dir, "bbhome")
	t.Setenv("BROWSER_BRIDGE_HOME", home)
	t.Setenv("HOME", filepath.Join(dir, "user"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "user", ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "user", ".cache"))
	cfg, _ := os.UserConfigDir()
	cache, _ := os.UserCacheDir()
	extra := filepath.Join(dir, "elsewhere")
	DenyFolders(extra)
	t.Cleanup(func() { extraMu.Lock(); extraDenied = nil; extraMu.Unlock() })
	refused := []string{
		filepath.Join(home, "daemon.log"),
		filepath.Join(home, "settings.json"),
		filepath.Join(home, "owned-tabs.json"),
		filepath.Join(home, "extension", "manifest.json"),
		filepath.Join(home, "cache", "uploads", "u1", "0", "report.pdf"),
		filepath.Join(dir, "BBHOME", "DAEMON.LOG"), // case-insensitive volumes
		filepath.Join(home, "run", "..", "daemon.log"),
		filepath.Join(cfg, "browser-bridge", "daemon.log"),
		filepath.Join(cache, "browser-bridge", "uploads", "u1", "0", "report.pdf"),
		filepath.Join(extra, "daemon.log"),
	}
	for _, p := range refused {
		t.Run("refused "+p, func(t *testing.T) {
			wantRefused(t, p, "bridge's own folder")
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte("x"), 0o600)
			wantRefused(t, p, "bridge's own folder")
			if why := Refused(p); !strings.Contains(why, "bridge's own folder") {
				t.Fatalf("file: URL rules: %q", why)
			}
		})
	}
	// Reached through a symlink, it is refused as well.
	link := filepath.Join(dir, "to-state")
	os.Symlink(home, link)
	wantRefused(t, filepath.Join(link, "daemon.log"), "bridge's own folder")

	for _, p := range []string{
		filepath.Join(home, "cache", "screenshots", "shot.jpg"),
		filepath.Join(cache, "browser-bridge", "screenshots", "shot.jpg"),
		filepath.Join(dir, "bbhome-notes", "daemon.log"), // a sibling, not inside
		filepath.Join(dir, "user", "Documents", "browser-bridge", "notes.txt"),
	} {
		t.Run("accepted "+p, func(t *testing.T) {
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte("x"), 0o600)
			if _, err := Check([]string{p}); err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

// cleanTempDir is t.TempDir, which no rule refuses by itself: a test's
// name is part of it, and one with "Secret" in it would make every case
// refused for the wrong reason.
func cleanTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if why := ruleRefusal(dir, true, true); why != "" {
		t.Fatalf("the test's own folder %s is refused: %s; rename the test", dir, why)
	}
	return dir
}

// wantRefused checks that upload refuses p with a message naming p and
// rule, and returns the message.
func wantRefused(t *testing.T, p, rule string) string {
	t.Helper()
	_, err := Check([]string{p})
	if protocol.CodeOf(err) != protocol.CodeUploadPathRejected {
		t.Fatalf("%s: got %v, want upload_path_rejected", p, err)
	}
	if !strings.Contains(err.Error(), rule) || !strings.Contains(err.Error(), p) {
		t.Fatalf("error %q does not name the path and %q", err, rule)
	}
	return err.Error()
}
