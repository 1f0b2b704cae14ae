package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClientConfig(t *testing.T) {
	exe := "/opt/bb/browser-bridge"
	args := []string{"mcp"}
	want := map[string]string{
		"claude": "claude mcp add --scope user browser-bridge -- /opt/bb/browser-bridge mcp\n",
		"codex":  "[mcp_servers.browser-bridge]\ncommand = \"/opt/bb/browser-bridge\"\nargs = [\"mcp\"]\ntool_timeout_sec = 90\n",
	}
	for _, client := range Clients {
		got, where, err := ClientConfig(client, exe, args, nil)
		if err != nil || where == "" {
			t.Fatalf("%s: %v", client, err)
		}
		if w, ok := want[client]; ok && got != w {
			t.Errorf("%s:\n%s\nwant:\n%s", client, got, w)
		}
		if client == "cursor" || client == "vscode" {
			var cfg map[string]map[string]serverEntry
			if err := json.Unmarshal([]byte(got), &cfg); err != nil {
				t.Fatalf("%s: not JSON: %v\n%s", client, err, got)
			}
			key := map[string]string{"cursor": "mcpServers", "vscode": "servers"}[client]
			e := cfg[key]["browser-bridge"]
			if e.Command != exe || len(e.Args) != 1 || e.Args[0] != "mcp" {
				t.Errorf("%s: %+v", client, e)
			}
			if client == "vscode" && e.Type != "stdio" {
				t.Errorf("vscode entry without type stdio: %s", got)
			}
		}
	}
	if _, _, err := ClientConfig("emacs", exe, args, nil); err == nil {
		t.Error("an unknown client got a config")
	}
}

func TestClientConfigQuotesAndEnv(t *testing.T) {
	exe := "/home/me/My Tools/it's/browser-bridge"
	env := map[string]string{"BROWSER_BRIDGE_HOME": "/home/me/bb home"}
	got, _, _ := ClientConfig("claude", exe, []string{"mcp", "--tools=split"}, env)
	want := `claude mcp add --scope user --env 'BROWSER_BRIDGE_HOME=/home/me/bb home' browser-bridge -- '/home/me/My Tools/it'\''s/browser-bridge' mcp --tools=split` + "\n"
	if got != want {
		t.Errorf("claude:\n%s\nwant:\n%s", got, want)
	}
	got, _, _ = ClientConfig("codex", exe, []string{"mcp"}, env)
	if !strings.Contains(got, `env = { BROWSER_BRIDGE_HOME = "/home/me/bb home" }`) || !strings.Contains(got, `command = "/home/me/My Tools/it's/browser-bridge"`) {
		t.Errorf("codex:\n%s", got)
	}
	got, _, _ = ClientConfig("cursor", exe, []string{"mcp"}, env)
	if !strings.Contains(got, `"BROWSER_BRIDGE_HOME": "/home/me/bb home"`) {
		t.Errorf("cursor:\n%s", got)
	}
}

// TestREADMEShowsEachConfig keeps the README's snippets the ones
// --print-config prints.
func TestREADMEShowsEachConfig(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range Clients {
		got, _, _ := ClientConfig(client, "/usr/local/bin/browser-bridge", []string{"mcp"}, nil)
		if !strings.Contains(string(readme), "\n"+got+"```") {
			t.Errorf("README.md does not show the %s config as printed:\n%s", client, got)
		}
	}
}
