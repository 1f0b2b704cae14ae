package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runBoth runs the CLI with BROWSER_BRIDGE_HOME in a temporary folder and
// returns stdout and stderr.
func runBoth(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	t.Setenv("BROWSER_BRIDGE_HOME", t.TempDir())
	var errOut bytes.Buffer
	old := Stderr
	Stderr = &errOut
	defer func() { Stderr = old }()
	out, err := runCLI(t, args...)
	return out, errOut.String(), err
}

// ACTION --help and help ACTION print what the action does and
// its own flags, on stdout, and exit 0.
func TestActionHelp(t *testing.T) {
	for _, args := range [][]string{{"click", "--help"}, {"click", "-h"}, {"help", "click"}, {"click", "--text", "Save", "--help"}} {
		out, _, err := runBoth(t, args...)
		if err != nil {
			t.Errorf("%v: %v", args, err)
		}
		for _, want := range []string{"browser-bridge click: click", "--button", "--text", "--role", "--tabId", "Needs a locator"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help lacks %q:\n%s", args, want, out)
			}
		}
		if strings.Contains(out, "--keys") || strings.Contains(out, "--url") {
			t.Errorf("%v: help lists flags click does not take:\n%s", args, out)
		}
	}
	// A value that is "--help" is a value.
	if in, err := parseFlags("type", []string{"--label", "Q", "--value", "--help"}); err != nil || in["value"] != "--help" {
		t.Errorf("--value --help: %v %v", in, err)
	}
}

// Commands that are not actions answer --help too, and one that takes a
// folder does not make a folder of it.
func TestCommandHelp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"log", "--help"}, "--follow"},
		{[]string{"help", "log"}, "--session"},
		{[]string{"mcp", "--help"}, "--print-config"},
		{[]string{"launch", "-h"}, "--headless"},
		{[]string{"write-extension", "--help"}, "Load unpacked"},
		{[]string{"help", "policy"}, "policy allow"},
		{[]string{"help", "policy"}, "policy evaluate on|off"},
		{[]string{"network", "--help"}, "only requests whose URL contains this"},
		{[]string{"websocket", "enable", "--help"}, "--token"},
	} {
		out, errOut, err := runBoth(t, c.args...)
		if err != nil || !strings.Contains(out, c.want) || errOut != "" {
			t.Errorf("%v: %v\nstdout %s\nstderr %s", c.args, err, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "--help")); err == nil {
		t.Error("write-extension --help made a folder named --help")
	}
}

// A typo gets "did you mean" on stderr, and stdout carries only the JSON
// error, never the help.
func TestTyposSuggest(t *testing.T) {
	for _, c := range []struct {
		args    []string
		suggest string
	}{
		{[]string{"clik", "--text", "Save"}, `did you mean "click"`},
		{[]string{"click", "--tab-id", "3", "--text", "Save"}, "did you mean --tabId?"},
		{[]string{"open", "--URL", "https://example.com/"}, "did you mean --url?"},
		{[]string{"extract", "--maxchars", "900"}, "did you mean --maxChars?"},
	} {
		out, errOut, err := runBoth(t, c.args...)
		var exit *ExitError
		if !errors.As(err, &exit) || exit.Code != 2 {
			t.Errorf("%v: exit %v, want 2", c.args, err)
		}
		if !strings.Contains(errOut, c.suggest) {
			t.Errorf("%v: stderr %q lacks %q", c.args, errOut, c.suggest)
		}
		var e struct {
			Error struct{ Code, Message string }
		}
		if json.Unmarshal([]byte(out), &e) != nil || e.Error.Code != "invalid_argument" || strings.Contains(out, "Usage") || strings.Contains(out, "--selector") {
			t.Errorf("%v: stdout is not just the JSON error: %s", c.args, out)
		}
	}
	// A command with its own flag set says so the same way: the JSON
	// error on stdout too (log -n abc printed nothing there).
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"log", "--sesion", "x"}, "did you mean --session?"},
		{[]string{"log", "-n", "abc"}, "-n"},
		// A negative count printed the whole log.
		{[]string{"log", "-n", "-5"}, "-n"},
	} {
		out, errOut, err := runBoth(t, c.args...)
		var exit *ExitError
		var e struct {
			Error struct{ Code, Message string }
		}
		if !errors.As(err, &exit) || exit.Code != 2 || json.Unmarshal([]byte(out), &e) != nil || e.Error.Code != "invalid_argument" || !strings.Contains(e.Error.Message, c.says) {
			t.Errorf("%v: %v\nstdout %s\nstderr %s\nwant exit 2 and the JSON error saying %q", c.args, err, out, errOut, c.says)
		}
	}
}

// Every flag a command's help lists is in the documentation (--help and
// the docs once disagreed), and so is every command: the command reference
// lives in docs/, the README links to it.
func TestREADMENamesEveryCommandAndFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md beside the README (%v)", err)
	}
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		readme = append(readme, data...)
	}
	for name, c := range commands {
		if !bytes.Contains(readme, []byte("`"+name)) {
			t.Errorf("the README does not name the command %s", name)
		}
		if !c.flags {
			continue
		}
		out, _, err := runBoth(t, name, "--help")
		if err != nil {
			t.Fatalf("%s --help: %v", name, err)
		}
		for _, m := range regexp.MustCompile(`(?m)^  (--\S+)`).FindAllStringSubmatch(out, -1) {
			if !bytes.Contains(readme, []byte(m[1])) {
				t.Errorf("the README does not name %s %s", name, m[1])
			}
		}
	}
}
