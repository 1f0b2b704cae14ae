// Package version holds the version of the binary and of the extension it
// embeds; they ship together and must match (a test checks the manifest).
package version

// Version is the release of browser-bridge and of its embedded extension.
// It is a variable only so that a test can build a binary of another
// version (-ldflags -X); never change it at run time.
var Version = "0.1.0"
