package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// run runs the CLI with BROWSER_BRIDGE_HOME in a temporary folder and
// returns stdout.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	old := Stdout
	Stdout = &out
	defer func() { Stdout = old }()
	err := Run(context.Background(), args)
	return out.String(), err
}

func TestPauseResumeAndPolicy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("BROWSER_BRIDGE_HOME", home)
	layout, err := paths.Default()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "pause"); err != nil {
		t.Fatal(err)
	}
	if settings.Paused(layout) == nil {
		t.Fatal("pause did not pause")
	}
	runCLI(t, "resume")
	if settings.Paused(layout) != nil {
		t.Fatal("resume did not resume")
	}
	if _, err := runCLI(t, "pause", "now"); err == nil {
		t.Error("pause took an argument")
	}
	runCLI(t, "policy", "deny", "bank.example")
	out, err := runCLI(t, "policy", "list")
	var got struct{ Allow, Deny, BuiltInDeny []string }
	if err != nil || json.Unmarshal([]byte(out), &got) != nil || len(got.Deny) != 1 || got.Deny[0] != "bank.example" || len(got.BuiltInDeny) == 0 {
		t.Fatalf("policy list: %s %v", out, err)
	}
	if d := mustLoad(t, layout).Policy.Check("https://www.bank.example/"); d.Allowed {
		t.Errorf("the saved rule does not deny: %+v", d)
	}
	for _, bad := range [][]string{{"policy"}, {"policy", "deny"}, {"policy", "deny", "a b"}, {"policy", "remove", "never.example"}, {"policy", "maybe", "x"}} {
		if out, err := runCLI(t, bad...); err == nil || !strings.Contains(out, "invalid_argument") {
			t.Errorf("%v: %s %v", bad, out, err)
		}
	}
	runCLI(t, "policy", "remove", "bank.example")
	if len(mustLoad(t, layout).Policy.Deny) != 0 {
		t.Error("remove left the rule")
	}
}

func mustLoad(t *testing.T, l paths.Layout) settings.Settings {
	t.Helper()
	s, err := settings.Load(l)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLogPrintsTheTrail(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", t.TempDir())
	layout, _ := paths.Default()
	lg := audit.Open(layout, nil)
	lg.Write(audit.Entry{Time: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC), Session: "session:cli", Action: "click", Browser: "1 (Edge)", TabID: 4, URL: "https://x.example/", Params: map[string]any{"text": "Save"}, Code: "ok", Ms: 9})
	lg.Write(audit.Entry{Session: "session:other", Action: "open", Code: "ok"})
	lg.Write(audit.Entry{Session: "session:cli", Action: "close", Params: map[string]any{"tabId": float64(1207056650)}, Code: "ok"})
	lg.Close()
	out, err := runCLI(t, "log", "--session", "session:cli")
	if err != nil || !strings.Contains(out, "tabId=1207056650") || !strings.Contains(out, "click") || !strings.Contains(out, "tab 4") || !strings.Contains(out, "browser 1 (Edge)") || !strings.Contains(out, "text=Save") || strings.Contains(out, "open") {
		t.Fatalf("log: %q %v", out, err)
	}
	out, _ = runCLI(t, "log", "--json")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], `{"time"`) {
		t.Errorf("log --json: %q", out)
	}
}

// TestLogEscapesControlCharacters: a forged line in the log. A page's text, a workspace name from BROWSER_BRIDGE_WORKSPACE or
// a URL with a newline, an ESC or a C1 control must not start a line of
// its own or reach the terminal raw, in the readable form or in --json.
func TestLogEscapesControlCharacters(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", t.TempDir())
	layout, _ := paths.Default()
	forged := "Save\n2026-12-01 22:09:00.000  user  resume  ok  0ms\u001b[31m"
	lg := audit.Open(layout, nil)
	lg.Write(audit.Entry{Time: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC), Session: "session:\u001b]0;x\u0007", Workspace: "ws\u001b[2J",
		Action: "click", Browser: "1 (\u009b31m)", TabID: 4, URL: "https://x.example/\u202e\u007f", Params: map[string]any{"text": forged, "k\u001b": []any{"\r"}}, Code: "ok\n", Ms: 9})
	lg.Close()
	raw := func(s string) bool {
		for _, r := range s {
			if r != '\n' && (r < 0x20 || r >= 0x7f && r < 0xa0 || r == '\u202e') {
				return true
			}
		}
		return false
	}
	out, err := runCLI(t, "log")
	if err != nil {
		t.Fatal(err)
	}
	if raw(out) || strings.Count(out, "\n") != 1 || !strings.Contains(out, `Save\n2026`) || !strings.Contains(out, `\x1b[31m`) {
		t.Errorf("log printed control characters or a second line: %q", out)
	}
	out, err = runCLI(t, "log", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var back audit.Entry
	if raw(out) || strings.Count(out, "\n") != 1 || json.Unmarshal([]byte(out), &back) != nil || back.Params["text"] != forged || back.URL != "https://x.example/\u202e\u007f" {
		t.Errorf("log --json printed control characters or does not decode to the entry: %q", out)
	}
}

// TestWorkspaceWithControlCharacters: a workspace named with an ESC or a
// newline is refused before it reaches the daemon and the trail.
func TestWorkspaceWithControlCharacters(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", t.TempDir())
	t.Setenv(EnvWorkspace, "ws\u001b[2J\nuser")
	out, err := runCLI(t, "status")
	if err == nil || !strings.Contains(out, "invalid_argument") || !strings.Contains(out, EnvWorkspace) || strings.Contains(out, "\u001b") {
		t.Fatalf("status with a control character in the workspace: %q %v", out, err)
	}
}

// TestWorkspaceNamedLikeTheUser: the names the trail keeps for the user
// and the extension, and names with invisible characters that read as
// another, are refused before they reach the daemon.
func TestWorkspaceNamedLikeTheUser(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", t.TempDir())
	for _, name := range []string{"user", "USER", "session:user", "extension", "us\u200ber", "ws\u202e"} {
		t.Setenv(EnvWorkspace, name)
		out, err := runCLI(t, "status")
		if err == nil || !strings.Contains(out, "invalid_argument") || !strings.Contains(out, EnvWorkspace) {
			t.Errorf("status as workspace %q: %q %v", name, out, err)
		}
	}
}

// A broken settings file is bad input that the user fixes: pause and
// policy answer invalid_argument and exit 2, as help says of bad input.
func TestBrokenSettingsExitTwo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("BROWSER_BRIDGE_HOME", home)
	layout, err := paths.Default()
	if err != nil {
		t.Fatal(err)
	}
	if err := paths.EnsurePrivateDir(layout.State); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings.File(layout), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"pause"}, {"policy", "list"}} {
		out, err := runCLI(t, args...)
		var exit *ExitError
		if !errors.As(err, &exit) || exit.Code != 2 || !strings.Contains(out, "invalid_argument") {
			t.Errorf("%v with a broken settings file: %s, %v; want invalid_argument, exit 2", args, out, err)
		}
	}
}
