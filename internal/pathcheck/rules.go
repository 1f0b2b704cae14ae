package pathcheck

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// The rules say which paths name secrets. They look only at the text of a
// path, so they can be asked of the path as written before anything touches
// the filesystem (the answer then says nothing about which secret files
// exist), and again of the canonical path once symlinks are resolved.
//
// Each rule matches whole components, or a component's dot-separated
// extensions, rather than raw substrings where that is more precise:
// "server.key" is a key, "login.keyring" merely contains ".key". The first
// list, of the well-known secrets, keeps its substring form, except ".key" and ".pem", which are
// extensions by nature.

// deniedSubstrings, found case-insensitively anywhere in a component, name
// secrets: the well-known ones (without .key and .pem, see deniedExtensions),
// then private SSH keys of every type (id_ed25519, id_ecdsa_sk, …; their
// .pub halves too, see below), credential stores (.git-credentials, AWS's
// and gcloud's credentials files, credentials.json of OAuth clients) and
// kubeconfigs.
//
// Public keys (id_ed25519.pub) are refused with their private halves: the
// rule "id_rsa" already refuses id_rsa.pub, one rule for every key type is
// simpler to trust than an exception, a public key links the user's
// accounts across sites, and a file named like a key is not read to see
// which half it holds.
var deniedSubstrings = []string{
	".ssh", ".gnupg", "keychains", "cookies", "id_rsa", ".env", "private_key", "secret", "token",
	"id_dsa", "id_ecdsa", "id_ed25519", "credential", "kubeconfig",
}

// deniedExtensions are extensions (any dot-separated part of a name after
// the first: "server.key", "server.key.bak", ".key") of key and password
// stores: PEM and bare keys, PKCS#12, Java keystores, PuTTY keys, KeePass
// databases, macOS keychains.
var deniedExtensions = map[string]bool{
	"key": true, "pem": true, "p12": true, "pfx": true, "jks": true, "jceks": true, "bks": true,
	"keystore": true, "ppk": true, "kdbx": true, "keychain": true, "keychain-db": true,
}

// deniedNames are whole components (file or folder names) that hold
// secrets wherever they are.
var deniedNames = map[string]string{
	".aws":            "the AWS CLI's credentials",
	".kube":           "Kubernetes credentials",
	".docker":         "Docker registry credentials",
	".password-store": "the pass password store",
	".netrc":          "passwords for remote hosts",
	"_netrc":          "passwords for remote hosts",
	".npmrc":          "npm registry tokens",
	".pypirc":         "PyPI credentials",
	".pgpass":         "PostgreSQL passwords",
	".my.cnf":         "MySQL passwords",
	".s3cfg":          "S3 credentials",
	// Chromium-based browsers' profiles (Chrome, Chromium, Edge, Brave):
	// saved passwords, autofill and cards, the key that encrypts them.
	"local state": "a Chromium profile's encryption key",
	// Firefox and Thunderbird profiles: saved passwords and their key.
	"logins.json":        "a Firefox profile's saved passwords",
	"logins-backup.json": "a Firefox profile's saved passwords",
	"key3.db":            "a Firefox profile's password key",
	"key4.db":            "a Firefox profile's password key",
}

// deniedPrefixes begin names that hold secrets, with their variants
// ("Login Data For Account", "Web Data-journal").
var deniedPrefixes = map[string]string{
	"login data": "a Chromium profile's saved passwords",
	"web data":   "a Chromium profile's autofill and cards",
	// NTUSER.DAT, UsrClass.dat and their logs: a Windows user's registry
	// hive, with saved credentials of many programs.
	"ntuser.dat":   "a Windows user's registry",
	"usrclass.dat": "a Windows user's registry",
}

// deniedSequences are runs of whole components that hold secrets: gh's
// and gcloud's configuration (tokens), the GNOME keyring and KWallet. gh's
// hosts.yml is matched by its folder as well, for a moved XDG_CONFIG_HOME.
var deniedSequences = []struct {
	comps []string
	what  string
}{
	{[]string{".config", "gh"}, "the GitHub CLI's tokens"},
	{[]string{"gh", "hosts.yml"}, "the GitHub CLI's tokens"},
	{[]string{".config", "gcloud"}, "the Google Cloud CLI's credentials"},
	{[]string{".local", "share", "keyrings"}, "the GNOME keyring"},
	{[]string{".local", "share", "kwalletd"}, "KWallet"},
	// Windows: DPAPI's master keys and Credential Manager's vaults (its
	// Credentials folders are refused by "credential"), the users' private
	// keys, the registry hives of the machine and of each user, and the
	// GitHub CLI's and gcloud's tokens where Windows keeps them.
	{[]string{"microsoft", "protect"}, "Windows DPAPI master keys"},
	{[]string{"microsoft", "vault"}, "the Windows Credential Manager's vaults"},
	{[]string{"microsoft", "crypto"}, "Windows private keys"},
	{[]string{"microsoft", "systemcertificates"}, "Windows certificates and their keys"},
	{[]string{"system32", "config"}, "the Windows registry hives (SAM: password hashes)"},
	{[]string{"github cli", "hosts.yml"}, "the GitHub CLI's tokens"},
	{[]string{"appdata", "roaming", "gcloud"}, "the Google Cloud CLI's credentials"},
}

// secretComponent returns the first component of path that names secrets
// and what it holds, or "", "".
func secretComponent(path string) (comp, what string) {
	return secretIn(components(path))
}

// secretIn returns the first of comps that names secrets and what it
// holds, or "", "".
func secretIn(comps []string) (comp, what string) {
	folded := make([]string, len(comps))
	for i, c := range comps {
		folded[i] = fold(c)
	}
	for i, lc := range folded {
		if w := secretName(lc); w != "" {
			return comps[i], w
		}
		for _, s := range deniedSequences {
			if i+len(s.comps) <= len(folded) && equal(folded[i:i+len(s.comps)], s.comps) {
				return comps[i+len(s.comps)-1], s.what
			}
		}
	}
	return "", ""
}

// secretName says what the single folded component lc holds, or "".
func secretName(lc string) string {
	for _, d := range deniedSubstrings {
		if strings.Contains(lc, d) {
			return fmt.Sprintf("it contains %q", d)
		}
	}
	if w, ok := deniedNames[lc]; ok {
		return w
	}
	for p, w := range deniedPrefixes {
		if strings.HasPrefix(lc, p) {
			return w
		}
	}
	if parts := strings.Split(lc, "."); len(parts) > 1 {
		for _, ext := range parts[1:] {
			// "server.key~" and "server.key#" are an editor's copies.
			if ext = strings.TrimRight(ext, "~#"); deniedExtensions[ext] {
				return fmt.Sprintf("the extension .%s of keys and key stores", ext)
			}
		}
	}
	if isHistory(lc) {
		return "a shell or REPL history (commands typed, passwords among them)"
	}
	return ""
}

// isHistory says whether the folded name lc is a shell's or a REPL's
// history: .bash_history, .zsh_history, .python_history, .psql_history,
// .mysql_history, .node_repl_history, .Rhistory, fish's fish_history,
// PowerShell's ConsoleHost_history.txt, zsh's common .histfile, less's
// .lesshst and vim's .viminfo (command lines and registers).
func isHistory(lc string) bool {
	switch lc {
	case ".histfile", ".lesshst", ".viminfo":
		return true
	}
	return strings.HasPrefix(lc, ".") && strings.Contains(lc, "history") ||
		strings.HasSuffix(lc, "_history") || strings.HasSuffix(lc, "_history.txt")
}

// components splits path into its names, without "." and "..". Trailing
// dots and spaces are trimmed from each name, for every OS: Windows drops
// them (".aws." opens ".aws"), and elsewhere it only makes the rules
// stricter.
func components(path string) []string {
	var out []string
	for _, c := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if c == "." || c == ".." {
			continue
		}
		if t := strings.TrimRight(c, ". "); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fold lower-cases through upper case, so that letters whose lower case is
// not plain ASCII but that case-insensitive file systems equate with it
// (ſ U+017F is "s", K U+212A is "k") still match the denied names.
func fold(s string) string { return strings.ToLower(strings.ToUpper(s)) }

// The bridge's own folders. The state folder holds the per-install secret,
// the settings, the owned-tab registry and the daemon's log; the staging
// folder holds the copies of earlier uploads. Neither is ever uploaded or
// read through a file: URL. The cache beside them (screenshots the agent
// took) is not secret and stays allowed, also where BROWSER_BRIDGE_HOME
// puts it inside the state folder.

var (
	extraMu     sync.Mutex
	extraDenied []string
)

// DenyFolders adds folders that the rules refuse with everything in them,
// besides the bridge's own folders that the environment names (see
// bridgeFolder): the daemon calls it with its layout when that did not come
// from the environment.
func DenyFolders(dirs ...string) {
	extraMu.Lock()
	defer extraMu.Unlock()
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			extraDenied = append(extraDenied, filepath.Clean(d))
		}
	}
}

// StagingFolder is where the bridge keeps the copies it gives Chrome to
// upload (internal/staging) in layout l.
func StagingFolder(l paths.Layout) string { return filepath.Join(l.Cache, "uploads") }

// bridgeFolders returns the folders the rules deny and those inside them
// that they allow again: the layout of this process's environment (the one
// the daemon runs with) and the default per-user one, which
// BROWSER_BRIDGE_HOME does not remove.
func bridgeFolders() (denied, allowed []string) {
	var layouts []paths.Layout
	if l, err := paths.Default(); err == nil {
		layouts = append(layouts, l)
	}
	if l, err := paths.UserLayout(); err == nil {
		layouts = append(layouts, l)
	}
	for _, l := range layouts {
		denied = append(denied, l.State)
		if l.Cache != "" {
			denied = append(denied, StagingFolder(l))
			allowed = append(allowed, l.Cache)
		}
	}
	extraMu.Lock()
	denied = append(denied, extraDenied...)
	extraMu.Unlock()
	return denied, allowed
}

// bridgeFolder returns the bridge folder that holds path, or "". The
// deepest folder that holds path decides, so the allowed cache inside a
// denied state folder is allowed and the staging folder inside the cache
// denied. Folders compare case-insensitively (macOS volumes are) and, when
// canonical is set, by their canonical forms as well.
func bridgeFolder(path string, canonical bool) string {
	denied, allowed := bridgeFolders()
	best, bestLen, bestDenied := "", -1, false
	consider := func(dir string, deny bool) {
		for _, d := range variants(dir, canonical) {
			if within(path, d) && len(d) > bestLen {
				best, bestLen, bestDenied = dir, len(d), deny
			}
		}
	}
	for _, d := range denied {
		consider(d, true)
	}
	for _, d := range allowed {
		consider(d, false)
	}
	if bestDenied {
		return best
	}
	return ""
}

// variants is dir, cleaned, and when canonical is set its canonical form
// too (macOS's /var is /private/var).
func variants(dir string, canonical bool) []string {
	if dir == "" || !filepath.IsAbs(dir) {
		return nil
	}
	out := []string{filepath.Clean(dir)}
	if canonical {
		if c, err := filepath.EvalSymlinks(dir); err == nil && c != out[0] {
			out = append(out, c)
		}
	}
	return out
}

// within says whether path is dir or inside it, comparing folded text
// component-wise.
func within(path, dir string) bool {
	p, d := fold(filepath.Clean(path)), fold(filepath.Clean(dir))
	sep := string(filepath.Separator)
	return p == d || strings.HasPrefix(p, strings.TrimSuffix(d, sep)+sep)
}

// ruleRefusal says why the rules refuse path, a path as written or
// canonical, or returns "". It reads nothing from the filesystem unless
// canonical is set (then the bridge's folders are compared canonically too).
func ruleRefusal(path string, canonical, ownFolders bool) string {
	clean := filepath.Clean(path)
	for _, p := range []string{path, clean} {
		if comp, what := secretComponent(p); comp != "" {
			return fmt.Sprintf("its component %q names secrets (%s)", comp, what)
		}
	}
	if dir := bridgeFolder(clean, canonical); ownFolders && dir != "" {
		return fmt.Sprintf("it is in the bridge's own folder %s (its secret, settings, registry, logs and staged uploads)", dir)
	}
	return ""
}
