// Package version holds the version of the binary and of the extension it
// embeds; they ship together and must match (a test checks the manifest).
package version

// Version is the release of browser-bridge and of its embedded extension.
const Version = "0.1.0"
