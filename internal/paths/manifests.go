package paths

// Browser is a Chromium-based browser that can host the extension.
type Browser struct {
	Name string // e.g. "Google Chrome"
	// ManifestDir is the folder of the bridge's native messaging host
	// manifest for that browser: on Linux and macOS the per-user folder
	// where the browser looks for manifests; on Windows a folder in the
	// state folder, which RegistryKey points the browser at.
	ManifestDir string
	// ConfigDir is the browser's own per-user folder: when it is missing,
	// the browser has not run for this user.
	ConfigDir string
	// RegistryKey is, on Windows, the key under HKEY_CURRENT_USER whose
	// subkey named after the host holds the manifest's path as its
	// default value (SOFTWARE\Google\Chrome\NativeMessagingHosts); empty
	// elsewhere.
	RegistryKey string
}
