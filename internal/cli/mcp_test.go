package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
)

// printedCursorConfig runs mcp --print-config cursor and returns the
// server entry it printed.
func printedCursorConfig(t *testing.T) (command string, args []string) {
	t.Helper()
	out, err := runCLI(t, "mcp", "--print-config", "cursor")
	if err != nil {
		t.Fatalf("mcp --print-config cursor: %v\n%s", err, out)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	if err := json.Unmarshal([]byte(out), &cfg); err != nil || len(cfg.MCPServers) != 1 {
		t.Fatalf("not one server in %q: %v", out, err)
	}
	for _, s := range cfg.MCPServers {
		command, args = s.Command, s.Args
	}
	return command, args
}

func TestPrintConfigFromNPMUsesNPX(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", "")
	t.Setenv(envNPM, "1")
	command, args := printedCursorConfig(t)
	if command != "npx" || !slices.Equal(args, []string{"-y", "browser-bridge", "mcp"}) {
		t.Errorf("from npm: command %q args %q, want npx -y browser-bridge mcp", command, args)
	}
}

func TestPrintConfigElsewhereUsesTheAbsolutePath(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", "")
	t.Setenv(envNPM, "")
	command, args := printedCursorConfig(t)
	if !filepath.IsAbs(command) || !slices.Equal(args, []string{"mcp"}) {
		t.Errorf("outside npm: command %q args %q, want this binary's absolute path and mcp", command, args)
	}
}
