package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
)

// InLastingPlace says whether exe already runs from a folder that stays:
// binDir (where CopySelf puts it) or one of lasting (the folder an
// install script put it in, and the folders on PATH).
//
// A folder on PATH is where the user keeps the programs they run by name,
// and where go install or a package manager updates them in place; a copy
// would then go stale at the next update. Any other folder (the npx cache,
// Downloads, /tmp, go run's build folder) counts as temporary: telling a
// lasting folder from a temporary one by its name is guesswork that differs
// per OS and per tool, while a copy is cheap and always safe, and it makes
// install the one step that updates the host browsers start.
func InLastingPlace(exe, binDir string, lasting []string) bool {
	dir := filepath.Dir(exe)
	if sameDir(dir, binDir) {
		return true
	}
	for _, l := range lasting {
		if l != "" && filepath.IsAbs(l) && sameDir(dir, l) {
			return true
		}
	}
	return false
}

// sameDir compares two folders after resolving links (macOS's /tmp is a
// link to /private/tmp); case-insensitively where the file system is.
func sameDir(a, b string) bool {
	for _, p := range []*string{&a, &b} {
		if abs, err := filepath.Abs(*p); err == nil {
			*p = abs
		}
		if r, err := filepath.EvalSymlinks(*p); err == nil {
			*p = r
		}
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// CopySelf copies the binary exe into dir (created private if missing) as
// browser-bridge (browser-bridge.exe on Windows) and returns the copy's
// path. A copy already there is replaced whole: the new one is written
// beside it and renamed over it, so a browser starting the host at that
// moment gets the old binary or the new one, never half of one.
func CopySelf(exe, dir string) (string, error) {
	data, err := os.ReadFile(exe)
	if err != nil {
		return "", fmt.Errorf("reading the running binary %s: %w", exe, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w; set BROWSER_BRIDGE_HOME to a folder you can write", dir, err)
	}
	dst := filepath.Join(dir, binaryName)
	if err := moveAsideRunning(dst); err != nil {
		return "", fmt.Errorf("replacing %s: %w; stop the browser-bridge processes that run from it and install again", dst, err)
	}
	if err := atomicfile.Write(dst, data, 0o755); err != nil {
		return "", fmt.Errorf("copying the binary to %s: %w", dst, err)
	}
	return dst, nil
}
