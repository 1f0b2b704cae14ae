//go:build !windows

package install

const binaryName = "browser-bridge"

// moveAsideRunning has nothing to do outside Windows: renaming a new file
// over a running binary leaves the running process its old inode.
func moveAsideRunning(string) error { return nil }
