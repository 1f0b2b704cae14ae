//go:build !windows

package install

import "errors"

// Browsers outside Windows find the host by its manifest's folder
// (paths.Browser.RegistryKey is empty there), so these are never reached.

var errNoRegistry = errors.New("this system has no registry")

func setHostKey(string, string) error      { return errNoRegistry }
func hostKey(string) (string, bool, error) { return "", false, nil }
func deleteHostKey(string) error           { return errNoRegistry }
