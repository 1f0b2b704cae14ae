// Package install registers the bridge with the user's own browsers
// (docs/design.md#parts): it writes the unpacked extension to a folder, registers the native
// messaging host for every Chromium browser it finds, and undoes all of it.
// It only touches files it owns: host manifests named after the bridge's
// host, and a folder that holds the bridge's extension.
package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/browser-bridge/browser-bridge/extension"
	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Options says what to install where.
type Options struct {
	// Exe is the absolute path of the browser-bridge binary that browsers
	// start as the native host.
	Exe string
	// ExtensionDir receives the unpacked extension.
	ExtensionDir string
	// ExtraOrigins are extension origins allowed besides the bridge's own
	// (a published or self-packed build); they go into the manifests and
	// into nmhost.OriginsFile beside Exe.
	ExtraOrigins []string
	// Browsers are the candidates; those whose config folder exists get a
	// manifest. ManifestDirs get one whether or not a browser is there (a
	// browser run with its own --user-data-dir reads from there).
	Browsers     []paths.Browser
	ManifestDirs []string
	// Sandboxed are the snap and flatpak browsers found (see Sandboxed).
	Sandboxed []SandboxedBrowser
}

// Manifest is one host manifest written or removed.
type Manifest struct {
	Browser string `json:"browser"`
	Path    string `json:"path"`
	// RegistryKey is, on Windows, the key under HKEY_CURRENT_USER that
	// points the browser at Path (see paths.Browser).
	RegistryKey string `json:"registryKey,omitempty"`
}

// target is the manifest of browser b.
func target(b paths.Browser) Manifest {
	m := Manifest{Browser: b.Name, Path: filepath.Join(b.ManifestDir, ManifestName)}
	if b.RegistryKey != "" {
		m.RegistryKey = `HKCU\` + b.RegistryKey + `\` + protocol.NativeHostName
	}
	return m
}

// configDir is the folder whose presence says browser b has run.
func configDir(b paths.Browser) string {
	if b.ConfigDir != "" {
		return b.ConfigDir
	}
	return filepath.Dir(b.ManifestDir)
}

// Result is what install did.
type Result struct {
	ExtensionFolder string             `json:"extensionFolder"`
	ExtensionID     string             `json:"extensionId"`
	HostBinary      string             `json:"hostBinary"`
	AllowedOrigins  []string           `json:"allowedOrigins"`
	Manifests       []Manifest         `json:"manifests"`
	NotFound        []string           `json:"browsersNotFound,omitempty"`
	Sandboxed       []SandboxedBrowser `json:"sandboxedBrowsers,omitempty"`
	// Warnings are what CheckHost found worth saying about the host binary
	// and its folders without refusing them.
	Warnings []string `json:"warnings,omitempty"`
}

// ErrNoBrowser means no browser was found to register the host with.
var ErrNoBrowser = errors.New("no Chromium browser found")

// Install writes the extension and the host manifests. Without any browser
// found (and no ManifestDirs) it writes nothing and returns ErrNoBrowser
// wrapped in a sentence that lists the folders it looked in.
func Install(o Options) (*Result, error) {
	res, targets, err := plan(o)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(o.ExtensionDir)
	if err != nil {
		return nil, err
	}
	if err := extension.WriteTo(abs); err != nil {
		return nil, fmt.Errorf("writing the extension: %w", err)
	}
	res.ExtensionFolder = abs
	return res, register(res, targets)
}

// Register writes the host manifests only (enable: the extension is
// already in place). ExtensionDir is not used.
func Register(o Options) (*Result, error) {
	res, targets, err := plan(o)
	if err != nil {
		return nil, err
	}
	return res, register(res, targets)
}

// plan checks the options and lists the manifests to write.
func plan(o Options) (*Result, []Manifest, error) {
	if !filepath.IsAbs(o.Exe) {
		return nil, nil, fmt.Errorf("the host binary path %q is not absolute", o.Exe)
	}
	origins := []string{"chrome-extension://" + protocol.DevExtensionID + "/"}
	for _, s := range o.ExtraOrigins {
		n := nmhost.NormalizeOrigin(s)
		if n == "" {
			return nil, nil, fmt.Errorf("%q is not an extension ID (32 letters a to p) or a chrome-extension:// origin; copy the ID from chrome://extensions", s)
		}
		if !slices.Contains(origins, n) {
			origins = append(origins, n)
		}
	}
	warnings, err := CheckHost(o.Exe)
	if err != nil {
		return nil, nil, err
	}
	res := &Result{ExtensionID: protocol.DevExtensionID, HostBinary: o.Exe, AllowedOrigins: origins,
		Manifests: []Manifest{}, Sandboxed: o.Sandboxed, Warnings: warnings}
	var targets []Manifest
	var looked []string
	for _, b := range o.Browsers {
		if _, err := os.Stat(configDir(b)); err != nil {
			res.NotFound = append(res.NotFound, b.Name)
			looked = append(looked, configDir(b))
			continue
		}
		targets = append(targets, target(b))
	}
	for _, d := range o.ManifestDirs {
		targets = append(targets, Manifest{Browser: "(given folder)", Path: filepath.Join(d, ManifestName)})
	}
	if len(targets) == 0 {
		return nil, nil, fmt.Errorf("%w: looked in %s; install Chrome or Chromium (not as a snap or flatpak) and run it once, or pass --manifest-dir with the NativeMessagingHosts folder of your browser's profile", ErrNoBrowser, strings.Join(looked, ", "))
	}
	return res, targets, nil
}

// register writes the manifests of targets and the origins file.
func register(res *Result, targets []Manifest) error {
	for _, t := range targets {
		if err := WriteManifest(filepath.Dir(t.Path), res.HostBinary, res.AllowedOrigins); err != nil {
			return fmt.Errorf("registering the host for %s: %w", t.Browser, err)
		}
		if t.RegistryKey != "" {
			if err := setHostKey(registryKeyOf(t), t.Path); err != nil {
				return fmt.Errorf("registering the host for %s: %w", t.Browser, err)
			}
		}
		res.Manifests = append(res.Manifests, t)
	}
	return writeOrigins(res.HostBinary, res.AllowedOrigins[1:])
}

// ManifestName is the file name of the bridge's host manifest.
const ManifestName = protocol.NativeHostName + ".json"

// WriteManifest registers exe as the native messaging host in dir, for
// the given extension origins. It refuses a host that CheckHost refuses
// (launch registers its host through here too); its warnings are for
// Install and Register to report.
func WriteManifest(dir, exe string, origins []string) error {
	if _, err := CheckHost(exe); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	m := map[string]any{
		"name":            protocol.NativeHostName,
		"description":     "Browser Bridge native messaging host",
		"path":            exe,
		"type":            "stdio",
		"allowed_origins": origins,
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ManifestName), append(data, '\n'), 0o644)
}

// writeOrigins keeps nmhost.OriginsFile beside exe in step with the extra
// origins: a host started by Chrome does not see the shell's environment.
// With none, a file left by an earlier install is removed. The file is
// written anew and renamed into place, never rewritten where it is: a file
// someone else planted there would keep its owner and mode, and the host
// would ignore it.
func writeOrigins(exe string, extra []string) error {
	p := filepath.Join(filepath.Dir(exe), nmhost.OriginsFile)
	if len(extra) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing the old %s: %w", p, err)
		}
		return nil
	}
	if err := atomicfile.Write(p, []byte(strings.Join(extra, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("the host reads extra origins from %s, beside the binary, and it cannot be written (%w): install the binary in a folder you own", p, err)
	}
	return nil
}

// Removed is what Uninstall removed.
type Removed struct {
	Manifests       []Manifest `json:"manifests"`
	ExtensionFolder string     `json:"extensionFolder,omitempty"`
	OriginsFile     string     `json:"originsFile,omitempty"`
}

// Uninstall removes the bridge's host manifests from every browser folder
// (and dirs), the extension folder when it holds the bridge's extension,
// and the origins file beside exe. A manifest of the same file name that
// registers another host is left alone.
func Uninstall(exe, extensionDir string, browsers []paths.Browser, dirs []string) (*Removed, error) {
	out := &Removed{}
	var err error
	if out.Manifests, err = Unregister(browsers, dirs); err != nil {
		return out, err
	}
	if extensionDir != "" && extension.IsExtensionDir(extensionDir) {
		if err := os.RemoveAll(extensionDir); err != nil {
			return out, fmt.Errorf("removing the extension folder: %w", err)
		}
		out.ExtensionFolder = extensionDir
	}
	if exe != "" {
		p := filepath.Join(filepath.Dir(exe), nmhost.OriginsFile)
		if err := os.Remove(p); err == nil {
			out.OriginsFile = p
		}
	}
	return out, nil
}

// Unregister removes the bridge's host manifests from every browser folder
// (and dirs), so no browser starts the host; it returns those removed.
func Unregister(browsers []paths.Browser, dirs []string) ([]Manifest, error) {
	removed := []Manifest{}
	var targets []Manifest
	for _, b := range browsers {
		targets = append(targets, target(b))
	}
	for _, d := range dirs {
		targets = append(targets, Manifest{Browser: "(given folder)", Path: filepath.Join(d, ManifestName)})
	}
	for _, t := range targets {
		if t.RegistryKey != "" {
			// Several browsers share one manifest on Windows: each key
			// goes on its own, the file with the first.
			gone, err := unregisterKey(t)
			if err != nil {
				return removed, err
			}
			if gone {
				removed = append(removed, t)
			}
			if ours, err := isOurManifest(t.Path); err == nil && ours {
				if err := os.Remove(t.Path); err != nil {
					return removed, fmt.Errorf("removing %s: %w", t.Path, err)
				}
			}
			continue
		}
		if ours, err := isOurManifest(t.Path); err != nil || !ours {
			continue
		}
		if err := os.Remove(t.Path); err != nil {
			return removed, fmt.Errorf("removing %s: %w", t.Path, err)
		}
		removed = append(removed, t)
	}
	return removed, nil
}

// registryKeyOf is the browser's key under HKCU of t, without the host's
// subkey.
func registryKeyOf(t Manifest) string {
	k := strings.TrimPrefix(t.RegistryKey, `HKCU\`)
	return strings.TrimSuffix(k, `\`+protocol.NativeHostName)
}

// unregisterKey removes the registry key of t when it registers the
// bridge: it names t's manifest, or another manifest of the bridge's host
// name. A key of the same name that points elsewhere is left alone.
func unregisterKey(t Manifest) (bool, error) {
	key := registryKeyOf(t)
	manifest, ok, err := hostKey(key)
	if err != nil || !ok {
		return false, err
	}
	if !strings.EqualFold(filepath.Clean(manifest), filepath.Clean(t.Path)) {
		if ours, err := isOurManifest(manifest); err != nil || !ours {
			return false, nil
		}
	}
	return true, deleteHostKey(key)
}

// RegisteredManifest is the manifest browser b reads for the bridge's
// host: on Windows the one its registry key names (ok false without the
// key), elsewhere the one in its manifest folder.
func RegisteredManifest(b paths.Browser) (path string, ok bool, err error) {
	if b.RegistryKey == "" {
		return filepath.Join(b.ManifestDir, ManifestName), true, nil
	}
	return hostKey(b.RegistryKey)
}

// isOurManifest reports whether the file at p is a host manifest that
// registers the bridge's host name.
func isOurManifest(p string) (bool, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return false, err
	}
	var m struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return false, nil
	}
	return m.Name == protocol.NativeHostName, nil
}
