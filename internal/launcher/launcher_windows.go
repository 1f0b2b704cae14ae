package launcher

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"
)

func needsDisplay() bool { return false }

// candidates are the usual install folders of the Chromium browsers on
// Windows, per machine and per user, Chromium first: branded Google Chrome
// (137 and later) ignores --load-extension, so it is the last resort.
func candidates() []string {
	return windowsCandidates(os.Getenv)
}

// windowsCandidates is candidates with the environment as a function, so
// that a test on any OS can check the list.
func windowsCandidates(getenv func(string) string) []string {
	var out []string
	add := func(env string, rel ...string) {
		if base := getenv(env); base != "" {
			out = append(out, filepath.Join(append([]string{base}, rel...)...))
		}
	}
	for _, env := range []string{"LOCALAPPDATA", "ProgramFiles", "ProgramFiles(x86)"} {
		add(env, "Chromium", "Application", "chrome.exe")
	}
	for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"} {
		add(env, "Google", "Chrome", "Application", "chrome.exe")
	}
	for _, env := range []string{"ProgramFiles(x86)", "ProgramFiles", "LOCALAPPDATA"} {
		add(env, "Microsoft", "Edge", "Application", "msedge.exe")
	}
	for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"} {
		add(env, "BraveSoftware", "Brave-Browser", "Application", "brave.exe")
	}
	return append(out, "chrome.exe", "msedge.exe", "brave.exe")
}

// brandedVersion is the major version of Google Chrome when bin is Google
// Chrome, or 0. Chrome for Windows prints nothing for --version (it is a
// GUI program), and Chromium's binary is chrome.exe too; so Chrome is told
// by its folder (…\Google\Chrome\Application, or Chrome SxS for Canary)
// and its version by the version-named folder beside the binary.
func brandedVersion(bin string) int {
	dir := filepath.Dir(bin)
	lower := strings.ToLower(dir)
	if !strings.Contains(lower, `\google\chrome`) || strings.Contains(lower, "for testing") {
		return 0
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 137 // branded, version unknown: assume a current one
	}
	best := 0
	for _, e := range entries {
		major, _, ok := strings.Cut(e.Name(), ".")
		if v, err := strconv.Atoi(major); e.IsDir() && ok && err == nil && v > best {
			best = v
		}
	}
	if best == 0 {
		return 137
	}
	return best
}

// ownGroup starts the browser in a process group of its own, so that a
// Ctrl-C in the terminal reaches only the launcher, which stops it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup ends the browser: Windows has no signals to send, so any
// signal is TerminateProcess of the browser process, whose renderers and
// helpers exit when it does (they watch their parent); our native host
// exits when its stdin closes.
func signalGroup(cmd *exec.Cmd, _ syscall.Signal) {
	cmd.Process.Kill()
}
