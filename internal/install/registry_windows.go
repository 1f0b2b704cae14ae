package install

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// On Windows a browser finds the host through the registry: the default
// value of HKCU\<browser's key>\com.browser_bridge.host is the manifest's
// path. Only HKEY_CURRENT_USER is written: it needs no administrator, and
// it is this user's bridge.

// hostKeyPath is the subkey of the bridge's host under key.
func hostKeyPath(key string) string { return key + `\` + protocol.NativeHostName }

// setHostKey points the browser key at the manifest.
func setHostKey(key, manifest string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, hostKeyPath(key), registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf(`creating HKCU\%s: %w`, hostKeyPath(key), err)
	}
	defer k.Close()
	if err := k.SetStringValue("", manifest); err != nil {
		return fmt.Errorf(`writing HKCU\%s: %w`, hostKeyPath(key), err)
	}
	return nil
}

// hostKey is the manifest path the browser key names; ok is false when
// there is no such key.
func hostKey(key string) (manifest string, ok bool, err error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, hostKeyPath(key), registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf(`reading HKCU\%s: %w`, hostKeyPath(key), err)
	}
	defer k.Close()
	v, _, err := k.GetStringValue("")
	if errors.Is(err, registry.ErrNotExist) {
		return "", true, nil
	}
	if err != nil {
		return "", true, fmt.Errorf(`reading HKCU\%s: %w`, hostKeyPath(key), err)
	}
	return v, true, nil
}

// deleteHostKey removes the bridge's subkey under the browser key.
func deleteHostKey(key string) error {
	if err := registry.DeleteKey(registry.CURRENT_USER, hostKeyPath(key)); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf(`removing HKCU\%s: %w`, hostKeyPath(key), err)
	}
	return nil
}
