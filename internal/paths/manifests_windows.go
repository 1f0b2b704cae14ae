package paths

import (
	"os"
	"path/filepath"
)

// Browsers lists the Chromium browsers of Windows. They find a native
// messaging host through the registry (HKCU\<RegistryKey>\<host name>),
// whose default value is the manifest's path; the manifest itself lives
// in the state folder, one for all of them. Chrome's Beta, Dev and Canary
// channels read Chrome's key; Brave and Edge have their own.
// https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location
func Browsers() []Browser {
	local := os.Getenv("LOCALAPPDATA")
	l, err := Default()
	if local == "" || err != nil {
		return nil
	}
	manifests := filepath.Join(l.State, "NativeMessagingHosts")
	var out []Browser
	for _, b := range []struct{ name, dir, key string }{
		{"Google Chrome", `Google\Chrome\User Data`, `SOFTWARE\Google\Chrome\NativeMessagingHosts`},
		{"Google Chrome Beta", `Google\Chrome Beta\User Data`, `SOFTWARE\Google\Chrome\NativeMessagingHosts`},
		{"Google Chrome Canary", `Google\Chrome SxS\User Data`, `SOFTWARE\Google\Chrome\NativeMessagingHosts`},
		{"Chromium", `Chromium\User Data`, `SOFTWARE\Chromium\NativeMessagingHosts`},
		{"Microsoft Edge", `Microsoft\Edge\User Data`, `SOFTWARE\Microsoft\Edge\NativeMessagingHosts`},
		{"Brave", `BraveSoftware\Brave-Browser\User Data`, `SOFTWARE\BraveSoftware\Brave-Browser\NativeMessagingHosts`},
	} {
		out = append(out, Browser{Name: b.name, ManifestDir: manifests, ConfigDir: filepath.Join(local, b.dir), RegistryKey: b.key})
	}
	return out
}
