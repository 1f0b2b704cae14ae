package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Clients lists the clients ClientConfig knows, in the order the README
// shows them.
var Clients = []string{"claude", "codex", "cursor", "vscode"}

// serverName is the name the bridge's server gets in each client's config.
const serverName = "browser-bridge"

// codexToolTimeout is tool_timeout_sec for Codex, whose default (60 s) is
// shorter than a command's own deadline plus the client's slack.
const codexToolTimeout = 90

// ClientConfig returns the config snippet (or command) that makes client
// start `exe args...` as an MCP server, and where it goes. env holds
// variables the server needs (BROWSER_BRIDGE_HOME when set).
func ClientConfig(client, exe string, args []string, env map[string]string) (snippet, where string, err error) {
	switch client {
	case "claude":
		cmd := []string{"claude", "mcp", "add", "--scope", "user"}
		for _, k := range sortedKeys(env) {
			cmd = append(cmd, "--env", k+"="+env[k])
		}
		cmd = append(cmd, serverName, "--", exe)
		cmd = append(cmd, args...)
		return shellJoin(cmd) + "\n", "run this command (Claude Code)", nil
	case "codex":
		var b strings.Builder
		fmt.Fprintf(&b, "[mcp_servers.%s]\ncommand = %s\nargs = %s\ntool_timeout_sec = %d\n", serverName, jsonString(exe), tomlList(args), codexToolTimeout)
		if len(env) > 0 {
			var kv []string
			for _, k := range sortedKeys(env) {
				kv = append(kv, k+" = "+jsonString(env[k]))
			}
			fmt.Fprintf(&b, "env = { %s }\n", strings.Join(kv, ", "))
		}
		return b.String(), "add to ~/.codex/config.toml", nil
	case "cursor":
		return jsonConfig("mcpServers", serverEntry{Command: exe, Args: args, Env: env}), "add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project)", nil
	case "vscode":
		return jsonConfig("servers", serverEntry{Type: "stdio", Command: exe, Args: args, Env: env}), "add to .vscode/mcp.json (or run MCP: Open User Configuration)", nil
	}
	return "", "", fmt.Errorf("unknown client %q: use one of %s", client, strings.Join(Clients, ", "))
}

// serverEntry is one server in a JSON config, fields in the order the
// clients' documentation shows them.
type serverEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// jsonConfig is {"<key>": {"browser-bridge": server}}, indented.
func jsonConfig(key string, server serverEntry) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(map[string]any{key: map[string]any{serverName: server}})
	return b.String()
}

// jsonString quotes a string as JSON, which is also a TOML basic string.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSpace(b.String())
}

// tomlList is a TOML array of strings.
func tomlList(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = jsonString(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellJoin quotes words for a POSIX shell.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if shellSafe.MatchString(w) {
			out[i] = w
		} else {
			out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
